import type { Money } from './money.js';

export const ORDER_STATUSES = ['processing', 'success', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['success', 'failed', 'refunded'];

export const isOrderStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);

/** ORD- + first 12 hex characters of the UUID without hyphens, upper-cased. Frozen format. */
export function orderCode(orderId: string): string {
  return `ORD-${orderId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
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

export const isoMillis = (ms: number): string => new Date(ms).toISOString();
