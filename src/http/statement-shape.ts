import { Type } from '@sinclair/typebox';
import { csvDocument } from '../domain/csv.js';
import { STATEMENT_BUCKETS, type StatementTotals } from '../domain/statement.js';
import type { Statement } from '../services/statements.js';
import { Money } from './schemas.js';

/** A reseller statement as both session APIs answer it (dashboard Wallet → Statements, operator per reseller). */
/** One bucket: which entry types it holds is docs/dashboard-api.md's table ("Statements"). */
const Bucket = Type.Object({ count: Type.Integer({ description: 'entries' }), amount: Money('their sum (signed: money leaving the wallet is negative)') });
const Buckets = {
  /** Entries of type deposit. */
  deposits: Bucket,
  order_debits: Bucket,
  /** Order refunds: failed orders and manual refunds. */
  refunds: Bucket,
  /** Operator credits and debits, deposit reversals and any other entry type. */
  adjustments: Bucket,
};

export const StatementQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'first day, YYYY-MM-DD in the report time zone; default the first of the month of `to`' })),
  to: Type.Optional(Type.String({ description: 'last day (included), YYYY-MM-DD; default today; at most 366 days in all' })),
}, { additionalProperties: false });

export const StatementSchema = Type.Object({
  reseller_id: Type.String(), reseller_name: Type.String(),
  from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }),
  time_zone: Type.String(), utc_offset: Type.String(), currency: Type.String(),
  opening_balance: Money('the balance after the last entry made before `from` began'),
  closing_balance: Money('the balance after the last entry made by the end of `to`: opening + the four buckets, exactly'),
  ...Buckets,
  days: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), closing_balance: Money('balance at the end of the day'), ...Buckets }), { description: 'every day of the range, oldest first' }),
});

export const STATEMENT_ERRORS = ['INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE', 'NOT_FOUND'] as const;

const KEY: Record<(typeof STATEMENT_BUCKETS)[number], 'deposits' | 'order_debits' | 'refunds' | 'adjustments'> = { deposits: 'deposits', orderDebits: 'order_debits', refunds: 'refunds', adjustments: 'adjustments' };

export function presentStatement(s: Statement, money: (minor: number) => number, currency: string) {
  const buckets = (t: StatementTotals) => Object.fromEntries(STATEMENT_BUCKETS.map((b) => [KEY[b], { count: t[b].count, amount: money(t[b].amount) }])) as Record<(typeof KEY)[keyof typeof KEY], { count: number; amount: number }>;
  return {
    reseller_id: s.resellerId, reseller_name: s.resellerName, from: s.from, to: s.to, time_zone: s.timeZone, utc_offset: s.utcOffset, currency,
    opening_balance: money(s.opening), closing_balance: money(s.closing), ...buckets(s.totals),
    days: s.days.map((d) => ({ date: d.date, closing_balance: money(d.closing), ...buckets(d) })),
  };
}

/** The statement as CSV: the opening line, one line per day, the totals and the closing line. */
export function statementCsv(s: Statement, money: (minor: number) => number) {
  const header = ['date', 'line', 'deposits', 'order_debits', 'refunds', 'adjustments', 'balance'];
  const amounts = (t: StatementTotals) => STATEMENT_BUCKETS.map((b) => money(t[b].amount));
  const rows = [
    [s.from, 'opening balance', '', '', '', '', money(s.opening)],
    ...s.days.map((d) => [d.date, 'day', ...amounts(d), money(d.closing)]),
    [s.to, 'total', ...amounts(s.totals), ''],
    [s.to, 'closing balance', '', '', '', '', money(s.closing)],
  ];
  return { filename: `statement-${s.resellerId}-${s.from}-${s.to}.csv`, body: csvDocument(header, rows) };
}
