import { maskApiKey } from '../../domain/api-key.js';
import { SANDBOX_ACCOUNTS, type CheckerVerdict, type SandboxFulfilment } from '../../domain/sandbox-accounts.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';
import { keyState } from './api-keys.js';

export interface SandboxAccountRow {
  target: string;
  check: CheckerVerdict;
  outcome: 'success' | 'failed';
  failure_code: string | null;
  description: string;
}

const CHECK_TEXT: Record<CheckerVerdict, string> = {
  valid: 'the ID check passes',
  INVALID_ID: 'POST /validation and POST /order answer INVALID_ID',
  REGION_LOCK: 'POST /validation and POST /order answer REGION_LOCK',
  PURCHASE_LIMIT: 'POST /validation and POST /order answer PURCHASE_LIMIT',
  no_answer: 'the ID check gives no answer in time (CHECKER_UNAVAILABLE on /validation; the order proceeds)',
};

function outcomeText(f: SandboxFulfilment) {
  if (f.kind === 'success') return 'the order succeeds with a serial number';
  return `the order fails${f.code ? ` with ${f.code}` : ' with no failure code'}${f.upstreamMessage ? ` ("${f.upstreamMessage}")` : ''} and is refunded`;
}

/** The sandbox test accounts as a table (any other target: valid, and the order succeeds). */
export const sandboxAccountsTable = (): SandboxAccountRow[] =>
  Object.entries(SANDBOX_ACCOUNTS).map(([target, row]) => ({
    target,
    check: row.verdict,
    outcome: row.fulfilment.kind,
    failure_code: row.fulfilment.kind === 'failed' ? row.fulfilment.code : null,
    description: `${CHECK_TEXT[row.verdict]}; ${outcomeText(row.fulfilment)}`,
  }));

/** What the Developers page prefills its examples with: never a secret. */
export class DeveloperInfo {
  constructor(private readonly core: Pick<ServiceCore, 'repos' | 'clock'>) {}

  async view(who: AccountPrincipal) {
    const now = this.core.clock.now();
    const keys = await this.core.repos.resellers.apiKeysOf(who.resellerId);
    const newest = keys.filter((k) => keyState(k.revoked_at, now) === 'live').sort((a, b) => Number(b.created_at) - Number(a.created_at))[0];
    return {
      key: newest ? { id: newest.id, masked: maskApiKey(newest.api_key) } : null,
      sandboxAccounts: sandboxAccountsTable(),
    };
  }
}
