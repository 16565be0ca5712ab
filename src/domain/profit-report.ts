import { bucketStarts, isoToDay, type Granularity } from './report-calendar.js';

/** The dimensions a profit report breaks down by (`none`: one group). */
export const PROFIT_GROUPS = ['none', 'product', 'category', 'supplier', 'reseller', 'tier'] as const;
export type ProfitGroup = (typeof PROFIT_GROUPS)[number];
export const GRANULARITIES: readonly Granularity[] = ['day', 'week', 'month'];

/** At most this many periods in one report (a year of days, ten years of months). */
export const MAX_PERIODS = 400;

/** What report_daily sums to, minor units and counts. */
export interface ProfitSums {
  delivered: number;
  revenue: number;
  cost: number;
  costUnknown: number;
  refunds: number;
  refunded: number;
  manualRefunds: number;
  manualRefunded: number;
  manualRefundedDelivered: number;
}

export interface ProfitFigures extends ProfitSums {
  /** revenue − cost. */
  grossMargin: number;
  /** gross margin ÷ revenue in basis points (1 % = 100), truncated toward zero; null without revenue. */
  marginBp: number | null;
  /** gross margin − revenue given back by manual refunds of delivered orders. */
  netMargin: number;
}

export const ZERO_SUMS: ProfitSums = { delivered: 0, revenue: 0, cost: 0, costUnknown: 0, refunds: 0, refunded: 0, manualRefunds: 0, manualRefunded: 0, manualRefundedDelivered: 0 };

export function addSums(a: ProfitSums, b: ProfitSums): ProfitSums {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof ProfitSums)[]) out[k] += b[k];
  return out;
}

/** Margins in exact integer arithmetic (BigInt for the basis points: no float touches money). */
export function figures(s: ProfitSums): ProfitFigures {
  const grossMargin = s.revenue - s.cost;
  const marginBp = s.revenue === 0 ? null : Number((BigInt(grossMargin) * 10_000n) / BigInt(s.revenue));
  return { ...s, grossMargin, marginBp, netMargin: grossMargin - s.manualRefundedDelivered };
}

export type ProfitQuery = { fromDay: number; toDay: number; granularity: Granularity; groupBy: ProfitGroup; periods: number[] };

/**
 * Reads the report's query: dates YYYY-MM-DD in the operator's time zone, both included
 * (default: the 30 days up to `today`), a granularity and a breakdown.
 */
export function parseProfitQuery(q: { from?: string; to?: string; granularity?: string; group_by?: string }, today: number):
  { ok: true; query: ProfitQuery } | { ok: false; code: 'VALIDATION_ERROR' | 'INVALID_DATE_RANGE' | 'DATE_RANGE_TOO_LARGE'; message: string } {
  const granularity = (q.granularity ?? 'day') as Granularity;
  if (!GRANULARITIES.includes(granularity)) return { ok: false, code: 'VALIDATION_ERROR', message: 'granularity must be day, week or month' };
  const groupBy = (q.group_by ?? 'none') as ProfitGroup;
  if (!PROFIT_GROUPS.includes(groupBy)) return { ok: false, code: 'VALIDATION_ERROR', message: `group_by must be one of ${PROFIT_GROUPS.join(', ')}` };
  const toDay = q.to === undefined ? today : isoToDay(q.to);
  const fromDay = q.from === undefined ? (toDay ?? today) - 29 : isoToDay(q.from);
  if (toDay === null) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'to must be a date as YYYY-MM-DD' };
  if (fromDay === null) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'from must be a date as YYYY-MM-DD' };
  if (fromDay > toDay) return { ok: false, code: 'INVALID_DATE_RANGE', message: 'from must be on or before to' };
  const periods = bucketStarts(fromDay, toDay, granularity);
  if (periods.length > MAX_PERIODS) return { ok: false, code: 'DATE_RANGE_TOO_LARGE', message: `at most ${MAX_PERIODS} periods: choose a shorter range or a coarser granularity` };
  return { ok: true, query: { fromDay, toDay, granularity, groupBy, periods } };
}
