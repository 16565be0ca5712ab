import { refusesOrder } from '../../domain/account-check.js';
import { maskApiKey } from '../../domain/api-key.js';
import { SANDBOX_ACCOUNTS, type CheckerVerdict, type SandboxFulfilment } from '../../domain/sandbox-accounts.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';
import { keyState } from './api-keys.js';

export interface SandboxAccountRow {
  target: string;
  check: CheckerVerdict;
  /** For a game with the ID check: refused (nothing charged), or how the order ends. */
  outcome: 'refused' | 'success' | 'failed';
  failure_code: string | null;
  description: string;
}

const CHECK_TEXT: Record<CheckerVerdict, string> = {
  valid: 'the ID check passes',
  INVALID_ID: 'POST /validation answers INVALID_ID, and POST /order refuses it with INVALID_ID for a game with the ID check (nothing charged)',
  REGION_LOCK: 'POST /validation answers REGION_LOCK, and POST /order refuses it with REGION_LOCK for a game with the ID check (nothing charged)',
  PURCHASE_LIMIT: 'POST /validation answers PURCHASE_LIMIT, and POST /order refuses it with PURCHASE_LIMIT for a game with the ID check (nothing charged)',
  no_answer: 'the ID check gives no answer in time (CHECKER_UNAVAILABLE on /validation; the order proceeds)',
};

function outcomeText(f: SandboxFulfilment, refused: boolean) {
  if (f.kind === 'success') return refused ? 'for a product without the ID check, the order succeeds with a serial number' : 'the order succeeds with a serial number';
  return `the order fails${f.code ? ` with ${f.code}` : ' with no failure code'}${f.upstreamMessage ? ` ("${f.upstreamMessage}")` : ''} and is refunded`;
}

/**
 * The sandbox test accounts as a table (any other target: valid, and the order succeeds),
 * from the table the sandbox checker and supplier use and the rule POST /order applies.
 */
export const sandboxAccountsTable = (): SandboxAccountRow[] =>
  Object.entries(SANDBOX_ACCOUNTS).map(([target, row]) => {
    const refused = refusesOrder(row.verdict);
    return {
      target,
      check: row.verdict,
      outcome: refused ? 'refused' : row.fulfilment.kind,
      failure_code: refused ? row.verdict : row.fulfilment.kind === 'failed' ? row.fulfilment.code : null,
      description: `${CHECK_TEXT[row.verdict]}; ${outcomeText(row.fulfilment, refused)}`,
    };
  });

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
