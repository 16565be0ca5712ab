import { orderCode, type OrderRecord } from './order.js';

/** Attempts 2, 3 and 4 follow the previous attempt's END by these gaps (spec: T+0, 5, 15, 30 s). */
export const CALLBACK_GAPS_MS = [5_000, 10_000, 15_000] as const;
export const CALLBACK_MAX_ATTEMPTS = CALLBACK_GAPS_MS.length + 1;
export const CALLBACK_TIMEOUT_MS = 5_000;

/** When attempt `attempt + 1` is due, or null when `attempt` was the last. */
export function nextAttemptAt(attempt: number, endedAt: number): number | null {
  const gap = CALLBACK_GAPS_MS[attempt - 1];
  return gap === undefined ? null : endedAt + gap;
}

export const isDelivered = (httpStatus: number | null) => httpStatus !== null && httpStatus >= 200 && httpStatus < 300;

/** The spec's callback payload: exactly these fields, no order_id. */
export function callbackPayload(o: OrderRecord, money: (minor: number) => number) {
  return {
    ref_id: o.refId,
    order_code: orderCode(o.id),
    status: o.status,
    product_code: o.productCode,
    product_name: o.productName,
    price: money(o.price),
    serial_number: o.status === 'success' ? o.serialNumber : null,
    message: o.status === 'success' ? 'Order completed successfully' : 'Order failed; the charged amount was refunded to your balance',
    failure_code: o.failureCode,
    failure_reason: o.failureReason,
  };
}
