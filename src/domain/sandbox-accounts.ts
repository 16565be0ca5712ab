/**
 * The sandbox test accounts, like a payment provider's test cards. One table drives both
 * the sandbox ID checker and the sandbox supplier (README: "Sandbox test accounts").
 */
export type CheckerVerdict = 'valid' | 'INVALID_ID' | 'REGION_LOCK' | 'PURCHASE_LIMIT' | 'no_answer';

export type SandboxFulfilment =
  | { kind: 'success' }
  | { kind: 'failed'; code: 'SUPPLIER_MAINTENANCE' | 'SUPPLIER_UNREACHABLE' | 'SUPPLIER_REJECTED' | 'PRODUCT_UNAVAILABLE' | null; upstreamMessage: string | null };

interface Row { verdict: CheckerVerdict; fulfilment: SandboxFulfilment }

export const SANDBOX_ACCOUNTS: Record<string, Row> = {
  '4040404040': { verdict: 'INVALID_ID', fulfilment: { kind: 'success' } },
  '4030403040': { verdict: 'REGION_LOCK', fulfilment: { kind: 'success' } },
  '4290429040': { verdict: 'PURCHASE_LIMIT', fulfilment: { kind: 'success' } },
  '5030503050': { verdict: 'no_answer', fulfilment: { kind: 'success' } },
  '7000000001': { verdict: 'valid', fulfilment: { kind: 'failed', code: 'SUPPLIER_MAINTENANCE', upstreamMessage: 'game server under maintenance' } },
  '7000000002': { verdict: 'valid', fulfilment: { kind: 'failed', code: 'SUPPLIER_UNREACHABLE', upstreamMessage: 'upstream returned HTTP 502' } },
  '7000000003': { verdict: 'valid', fulfilment: { kind: 'failed', code: 'SUPPLIER_REJECTED', upstreamMessage: 'Sandbox Games Inc: transaction rejected by publisher (code 17)' } },
  '7000000004': { verdict: 'valid', fulfilment: { kind: 'failed', code: 'PRODUCT_UNAVAILABLE', upstreamMessage: 'sku delisted' } },
  '7000000005': { verdict: 'valid', fulfilment: { kind: 'failed', code: null, upstreamMessage: null } },
};

const DEFAULT: Row = { verdict: 'valid', fulfilment: { kind: 'success' } };

/** The whole target (trimmed) is matched: zone never changes a test account's outcome. */
export const sandboxAccount = (target: string): Row => SANDBOX_ACCOUNTS[target.trim()] ?? DEFAULT;
