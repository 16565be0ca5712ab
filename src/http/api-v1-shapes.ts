import { Type } from '@sinclair/typebox';
import { ORDER_STATUSES } from '../domain/order.js';
import { IsoTime, Money, Nullable } from './schemas.js';

/**
 * TypeBox schemas of the API v1 shapes made by presenters.ts (order, ledger entry, callback
 * delivery), for the JSON APIs that answer with the same shapes and for their OpenAPI documents.
 */
export const OrderShape = Type.Object({
  order_id: Type.String(),
  order_code: Type.String(),
  ref_id: Type.String(),
  product_code: Type.String(),
  product_name: Type.String(),
  target_id: Type.String(),
  zone_id: Nullable(Type.String()),
  price: Money(),
  status: Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s))),
  serial_number: Nullable(Type.String()),
  created_at: IsoTime(),
  completed_at: Nullable(IsoTime()),
  failure_code: Nullable(Type.String()),
  failure_reason: Nullable(Type.String()),
});

export const LedgerEntryShape = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('order_debit'), Type.Literal('order_refund'), Type.Literal('credit'), Type.Literal('debit')]),
  amount: Money('signed amount in major units'),
  balance_after: Money(),
  order_id: Nullable(Type.String()),
  order_code: Nullable(Type.String()),
  ref_id: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_at: IsoTime(),
});

export const CallbackDeliveryShape = Type.Object({
  callback_id: Type.String(),
  round: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('skipped')]),
  url: Nullable(Type.String()),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(IsoTime()),
  attempt_log: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      started_at: IsoTime(),
      duration_ms: Type.Integer(),
      http_status: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      response_snippet: Nullable(Type.String()),
    }),
  ),
});
