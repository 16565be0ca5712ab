import type { Money } from './money.js';

export const ORDER_STATUSES = ['processing', 'success', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['success', 'failed', 'refunded'];

export const isOrderStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);

/** ORD- + first 12 hex characters of the UUID without hyphens, upper-cased. Frozen format. */
export function orderCode(orderId: string): string {
  // A canonical UUID (8-4-...) without the regex: every presented order and ledger entry pays it.
  if (orderId.length === 36 && orderId[8] === '-' && orderId[13] === '-') return `ORD-${(orderId.slice(0, 8) + orderId.slice(9, 13)).toUpperCase()}`;
  return `ORD-${orderId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

/**
 * The id prefix an ORD- code stands for (`1a2b3c4d-5e6f-`, lower case), to match ids with
 * LIKE prefix%; null when `text` is not an ORD- code (any case).
 */
export function orderCodePrefix(text: string): string | null {
  const hex = /^ORD-([0-9A-F]{12})$/i.exec(text.trim())?.[1]?.toLowerCase();
  return hex ? `${hex.slice(0, 8)}-${hex.slice(8)}-` : null;
}

export const ORDER_ACCEPTED_MESSAGE = 'Order received and is being processed';

/** An order as the store holds it (money in minor units, times in epoch ms). */
export interface OrderRecord {
  id: string;
  resellerId: string;
  refId: string;
  productCode: string;
  productName: string;
  target: string;
  zone: string | null;
  price: Money;
  status: OrderStatus;
  serialNumber: string | null;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: number;
  completedAt: number | null;
}

const DAY_MS = 86_400_000;
/** Epoch ms of 10000-01-01: from there on toISOString writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;
let lastDay = NaN;
let lastDayPrefix = '';
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, ~6× faster: the date part of the last day asked for is
 * kept and the time of day is written from integers. A page of 50 orders presents 100 of
 * these, and toISOString costs ~0.8 µs each here. Times outside years 1970–9999 and
 * fractions of a millisecond go to toISOString.
 */
export function isoMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11); // YYYY-MM-DDT
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${lastDayPrefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
