import { AppError } from '../errors.js';
import { ORDER_STATUSES, isOrderStatus, type OrderStatus } from './order.js';

/** Shared rules of the paginated list endpoints (products, orders, wallet history). */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
export const MAX_RANGE_DAYS = 90;
const DAY_MS = 86_400_000;

export interface Page { page: number; limit: number; offset: number }

export interface PageMeta { total: number; page: number; limit: number; total_pages: number; has_more: boolean }

function positiveInt(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

export function parsePage(query: Record<string, unknown>): Page {
  const page = query.page === undefined ? 1 : positiveInt(query.page);
  const limit = query.limit === undefined ? DEFAULT_LIMIT : positiveInt(query.limit);
  if (page === null || page < 1) {
    throw new AppError('INVALID_PAGINATION', `page must be an integer of 1 or more (got "${String(query.page)}")`);
  }
  if (limit === null || limit < 1 || limit > MAX_LIMIT) {
    throw new AppError('INVALID_PAGINATION', `limit must be an integer from 1 to ${MAX_LIMIT} (got "${String(query.limit)}")`);
  }
  return { page, limit, offset: (page - 1) * limit };
}

/**
 * Order searches (the operator's across resellers, the dashboard's by product or ref_id
 * prefix) count and page through at most this many matches: narrower filters find the
 * rest. No search walks more than this many matches however large the history.
 */
export const SEARCH_MATCH_CAP = 10_000;

/** A search's page must lie within its first SEARCH_MATCH_CAP matches (INVALID_PAGINATION). */
export function assertWithinSearchCap(p: Page, narrowBy: string): void {
  if (p.offset + p.limit > SEARCH_MATCH_CAP) {
    throw new AppError('INVALID_PAGINATION', `the search pages through its first ${SEARCH_MATCH_CAP} matches only: narrow the filters (${narrowBy})`);
  }
}

export function pageMeta(total: number, p: Page): PageMeta {
  const totalPages = Math.ceil(total / p.limit);
  return { total, page: p.page, limit: p.limit, total_pages: totalPages, has_more: p.page < totalPages };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time with a zone.
 * For a date-only end_date the whole day is included.
 */
function parseDate(raw: unknown, name: string, endOfDay: boolean): number {
  if (typeof raw !== 'string') throw new AppError('INVALID_DATE_RANGE', `${name} must be a date, YYYY-MM-DD or ISO 8601 with a time zone`);
  const s = raw.trim();
  const d = DATE_ONLY.exec(s);
  if (d) {
    const ms = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]));
    const check = new Date(ms);
    if (check.getUTCMonth() + 1 !== Number(d[2]) || check.getUTCDate() !== Number(d[3])) {
      throw new AppError('INVALID_DATE_RANGE', `${name} "${s}" is not a calendar date`);
    }
    return endOfDay ? ms + DAY_MS - 1 : ms;
  }
  if (DATE_TIME.test(s)) {
    const ms = Date.parse(s);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new AppError('INVALID_DATE_RANGE', `${name} "${s}" must be YYYY-MM-DD or ISO 8601 with a time zone, e.g. 2026-01-31T23:59:59Z`);
}

export interface DateRange { from: number | null; to: number | null }

/**
 * start_date/end_date, at most 90 days apart. With only start_date the range runs to now;
 * with only end_date it starts 90 days before it; with neither there is no date filter.
 */
export function parseDateRange(query: Record<string, unknown>, now: number): DateRange {
  const hasStart = query.start_date !== undefined && query.start_date !== '';
  const hasEnd = query.end_date !== undefined && query.end_date !== '';
  if (!hasStart && !hasEnd) return { from: null, to: null };
  const to = hasEnd ? parseDate(query.end_date, 'end_date', true) : now;
  const from = hasStart ? parseDate(query.start_date, 'start_date', false) : to - MAX_RANGE_DAYS * DAY_MS;
  if (to < from) throw new AppError('INVALID_DATE_RANGE', 'end_date must not be before start_date');
  if (to - from > MAX_RANGE_DAYS * DAY_MS) {
    throw new AppError('DATE_RANGE_TOO_LARGE', `the date range must be at most ${MAX_RANGE_DAYS} days${hasEnd ? '' : ' (end_date defaults to now)'}`);
  }
  return { from, to };
}

/** status filter: one status or a comma-separated list of them. */
export function parseStatusFilter(raw: unknown): OrderStatus[] | null {
  if (raw === undefined || raw === '') return null;
  const parts = typeof raw === 'string' ? raw.split(',').map((s) => s.trim().toLowerCase()) : [];
  if (parts.length === 0 || !parts.every(isOrderStatus)) {
    throw new AppError('INVALID_STATUS_FILTER', `status must be one of ${ORDER_STATUSES.join(', ')} (or a comma-separated list of them); got "${String(raw)}"`);
  }
  return [...new Set(parts)] as OrderStatus[];
}
