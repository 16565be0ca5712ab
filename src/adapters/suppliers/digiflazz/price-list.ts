import type { DigiflazzProduct } from './protocol.js';

/** Digiflazz cut-off times are Indonesian western time (WIB, UTC+7, no daylight saving). */
export const SUPPLIER_UTC_OFFSET_MINUTES = 7 * 60;

function minutes(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * Whether `nowMs` falls in the product's daily cut-off period [start, end) in the supplier's
 * time zone. The period may wrap past midnight; equal (or unreadable) times mean none.
 */
export function inCutOff(p: Pick<DigiflazzProduct, 'start_cut_off' | 'end_cut_off'>, nowMs: number, offsetMinutes = SUPPLIER_UTC_OFFSET_MINUTES): boolean {
  const start = minutes(p.start_cut_off ?? '');
  const end = minutes(p.end_cut_off ?? '');
  if (start === null || end === null || start === end) return false;
  const m = (((Math.floor(nowMs / 60_000) + offsetMinutes) % 1440) + 1440) % 1440;
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/** Can this product be bought now: both statuses, stock, outside the cut-off period. */
export function buyable(p: DigiflazzProduct, nowMs: number): boolean {
  return p.buyer_product_status === true && p.seller_product_status === true && (p.unlimited_stock === true || Number(p.stock) > 0) && !inCutOff(p, nowMs);
}

/** Reads a price-list answer; null when it is not a list of products. */
export function readPriceList(data: unknown): Map<string, DigiflazzProduct> | null {
  if (!Array.isArray(data)) return null;
  const out = new Map<string, DigiflazzProduct>();
  for (const p of data as Partial<DigiflazzProduct>[]) {
    if (p && typeof p.buyer_sku_code === 'string' && typeof p.price === 'number') out.set(p.buyer_sku_code, p as DigiflazzProduct);
  }
  return out;
}
