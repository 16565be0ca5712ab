import { bucketStarts, isoToDay } from './report-calendar.js';

/**
 * A reseller's statement: what its wallet did over a range of days, in four buckets that
 * add up, with the opening balance, to the closing balance, exactly as the ledger does.
 * Every ledger entry type lands in one bucket: a type not named here (one added later) is
 * an adjustment, so nothing is ever left out of the sum.
 */
export const STATEMENT_BUCKETS = ['deposits', 'orderDebits', 'refunds', 'adjustments'] as const;
export type StatementBucket = (typeof STATEMENT_BUCKETS)[number];

const BY_TYPE: Record<string, StatementBucket> = {
  deposit: 'deposits',
  order_debit: 'orderDebits',
  order_refund: 'refunds',
  // Operator credits and debits, deposit reversals and any later type: adjustments.
};

export const bucketOf = (type: string): StatementBucket => BY_TYPE[type] ?? 'adjustments';

export interface BucketTotal { count: number; amount: number }
export type StatementTotals = Record<StatementBucket, BucketTotal>;

export const emptyTotals = (): StatementTotals => ({ deposits: { count: 0, amount: 0 }, orderDebits: { count: 0, amount: 0 }, refunds: { count: 0, amount: 0 }, adjustments: { count: 0, amount: 0 } });

/** At most this many days in one statement (a year and a day). */
export const MAX_STATEMENT_DAYS = 366;

/** from/to as YYYY-MM-DD (both included); default: the current month up to today. */
export function parseStatementRange(q: { from?: string; to?: string }, today: number):
  { ok: true; fromDay: number; toDay: number } | { ok: false; code: 'INVALID_DATE_RANGE' | 'DATE_RANGE_TOO_LARGE'; message: string } {
  const toDay = q.to === undefined ? today : isoToDay(q.to);
  if (toDay === null) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'to must be a date as YYYY-MM-DD' };
  const fromDay = q.from === undefined ? bucketStarts(toDay, toDay, 'month')[0]! : isoToDay(q.from);
  if (fromDay === null) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'from must be a date as YYYY-MM-DD' };
  if (fromDay > toDay) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'from must be on or before to' };
  if (toDay - fromDay + 1 > MAX_STATEMENT_DAYS) return { ok: false, code: 'DATE_RANGE_TOO_LARGE', message: `a statement covers at most ${MAX_STATEMENT_DAYS} days` };
  return { ok: true, fromDay, toDay };
}
