import { Type } from '@sinclair/typebox';
import { ORDER_STATUSES } from '../../../domain/order.js';
import { IsoTime, Money, Nullable } from '../../schemas.js';

/** A string out of a fixed list, as a JSON Schema enum (its errors read "must be one of …"). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A ledger entry exactly as API v1 GET /wallet-history shows it (presenters.ledgerEntry). */
export const LedgerEntry = Type.Object({
  id: Type.String(),
  type: StringEnum(['order_debit', 'order_refund', 'credit', 'debit'] as const),
  amount: Money('signed: negative when money left the wallet'),
  balance_after: Money(),
  order_id: Nullable(Type.String()),
  order_code: Nullable(Type.String()),
  ref_id: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_at: IsoTime(),
});

/** An order exactly as API v1 shows it (presenters.order). */
export const Order = Type.Object({
  order_id: Type.String(),
  order_code: Type.String(),
  ref_id: Type.String(),
  product_code: Type.String(),
  product_name: Type.String(),
  target_id: Type.String(),
  zone_id: Nullable(Type.String()),
  price: Money(),
  status: StringEnum(ORDER_STATUSES),
  serial_number: Nullable(Type.String()),
  created_at: IsoTime(),
  completed_at: Nullable(IsoTime()),
  failure_code: Nullable(Type.String()),
  failure_reason: Nullable(Type.String()),
});
