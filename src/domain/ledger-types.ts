import type { LedgerEntryType } from '../store/schema.js';

/**
 * The ledger's entry types as the APIs show them. A deposit is its own type in the store
 * (so statements and reports can tell money in from an operator's adjustment), but the
 * published `type` keeps the four documented values: a deposit is a `credit` and its
 * reversal a `debit`, told apart by `source` and `deposit_code`, so that no integrator's
 * exhaustive match on `type` breaks.
 */
export const PUBLIC_LEDGER_TYPES = ['order_debit', 'order_refund', 'credit', 'debit'] as const;
export type PublicLedgerType = (typeof PUBLIC_LEDGER_TYPES)[number];
export type LedgerSource = 'order' | 'operator' | 'deposit';

const PUBLIC: Record<LedgerEntryType, PublicLedgerType> = {
  order_debit: 'order_debit', order_refund: 'order_refund', credit: 'credit', debit: 'debit', deposit: 'credit', deposit_reversal: 'debit',
};

export function publicLedgerType(t: LedgerEntryType): PublicLedgerType {
  return PUBLIC[t];
}

export function ledgerSource(t: LedgerEntryType): LedgerSource {
  if (t === 'order_debit' || t === 'order_refund') return 'order';
  return t === 'deposit' || t === 'deposit_reversal' ? 'deposit' : 'operator';
}

/** The store types a filter on published types selects (`credit` includes deposits). */
export function storeLedgerTypes(types: readonly PublicLedgerType[]): LedgerEntryType[] {
  return (Object.keys(PUBLIC) as LedgerEntryType[]).filter((t) => types.includes(PUBLIC[t]));
}
