import { Type } from '@sinclair/typebox';
import { LIMITS } from '../../domain/order-request.js';
import { IsoTime, Money, Nullable } from '../schemas.js';

/**
 * Every shape of the reseller API v1, side by side: the spec's fields, plus our decisions
 * where it says "not shown" (docs/reseller-api.md). Responses are open (clients must ignore
 * unknown keys: changes are additive); request bodies are closed (unknown fields are refused).
 */
const OrderId = Type.String({ format: 'uuid', minLength: 36, maxLength: 36, description: 'UUID' });
const OrderCode = Type.String({ pattern: '^ORD-[0-9A-F]{12}$', description: 'ORD- + the first 12 hex characters of order_id, upper-cased; never an idempotency key' });
const OrderStatus = Type.Union([Type.Literal('processing'), Type.Literal('success'), Type.Literal('failed'), Type.Literal('refunded')]);
const Serial = Type.String({ pattern: '^SRL-', description: 'SRL- + 10 characters (instant), or SRL-<token>/<redeemable code> (voucher): the code is the text after the last /' });
const FailureCode = Nullable(Type.String({ description: 'open set: NO_SUPPLIER_AVAILABLE, PRODUCT_UNAVAILABLE, SUPPLIER_MAINTENANCE, SUPPLIER_UNREACHABLE, SUPPLIER_REJECTED, INVALID_ID, REGION_LOCK, PURCHASE_LIMIT, WDP_LIMIT_LIKELY, …' }));
const FailureReason = Nullable(Type.String({ description: 'a sentence for the end customer; never names the upstream provider' }));
const RefIdQuery = Type.String({ maxLength: 100, description: "the reseller's reference" });

export const FormField = Type.Object({
  name: Type.String({ description: 'key of this value in POST /validation `fields`' }),
  label: Type.String(),
  role: Type.Union([Type.Literal('account_id'), Type.Literal('server'), Type.Literal('other')], { description: 'account_id → target; server → zone (several joined with | in form order)' }),
  type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('select')]),
  required: Type.Boolean(),
  placeholder: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.Object({ value: Type.String({ description: 'what is sent' }), label: Type.String() }), { description: 'select fields only' })),
});

export const Category = Type.Object({
  slug: Type.String({ description: 'stable key; the category_slug of products' }),
  name: Type.String({ description: 'display name; may be renamed' }),
  type: Type.Union([Type.Literal('game'), Type.Literal('voucher')]),
  validation_supported: Type.Boolean({ description: 'POST /validation and the pre-order ID check work for this game' }),
  form: Type.Array(FormField, { description: 'input fields in display order; empty for vouchers' }),
});

export const Product = Type.Object({
  code: Type.String({ description: 'pass as product_code in POST /order' }),
  name: Type.String({ description: 'denomination name' }),
  category: Type.String({ description: 'game display name; label use only, never a key' }),
  category_slug: Type.String({ description: 'stable game slug, as in GET /categories' }),
  price: Money("the reseller's tier price"),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], { description: 'active only when the product can be sourced now' }),
  type: Type.Union([Type.Literal('instant'), Type.Literal('voucher')]),
});

export const OrderBody = Type.Object(
  {
    ref_id: Type.String({ minLength: 1, maxLength: LIMITS.ref_id, description: 'your unique reference; the idempotency key' }),
    product_code: Type.String({ minLength: 1, maxLength: LIMITS.product_code, description: 'code from GET /products' }),
    target: Type.String({ minLength: 1, maxLength: LIMITS.target, description: 'game user ID or phone number (account_id-role field)' }),
    zone: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.zone, description: 'server-role field values joined with | in form order (select fields: one of their option values, never a label); null or "" means no zone' }))),
    price: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d+(\\.\\d+)?$' })], {
        description: 'optional safety check: must equal the current price (else 409 PRICE_NOT_MATCH); omit it to skip the check (null and "" are invalid)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const OrderCreated = Type.Object({
  order_id: OrderId,
  order_code: OrderCode,
  ref_id: Type.String(),
  product_name: Type.String(),
  price: Money('the price charged'),
  status: Type.Literal('processing'),
  message: Type.String(),
});

export const Order = Type.Object({
  order_id: OrderId,
  order_code: OrderCode,
  ref_id: Type.String(),
  product_code: Type.String(),
  product_name: Type.String(),
  target_id: Type.String(),
  zone_id: Nullable(Type.String()),
  price: Money('the price actually charged'),
  status: OrderStatus,
  serial_number: Nullable(Serial),
  created_at: IsoTime('UTC, with milliseconds'),
  completed_at: Nullable(IsoTime('stamped once when the order reaches success, failed or refunded')),
  failure_code: FailureCode,
  failure_reason: FailureReason,
});

export const ValidationBody = Type.Object(
  {
    category_slug: Type.String({ minLength: 1, description: 'from GET /categories' }),
    fields: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'form values keyed by form field name (select: the option value); a missing required one is VALIDATION_FIELDS_MISSING' })),
    product_code: Type.Optional(Type.String({ description: 'lets the checker judge product-specific limits (PURCHASE_LIMIT)' })),
  },
  { additionalProperties: false },
);

export const ValidationResult = Type.Object({
  category_slug: Type.String(),
  valid: Type.Boolean({ description: 'true only when verdict is valid' }),
  verdict: Type.Union([Type.Literal('valid'), Type.Literal('INVALID_ID'), Type.Literal('REGION_LOCK'), Type.Literal('PURCHASE_LIMIT')]),
  nickname: Nullable(Type.String()),
  target: Type.String({ description: 'send as target in POST /order' }),
  zone: Nullable(Type.String({ description: 'send as zone in POST /order' })),
});

export const RefIdBody = Type.Object({ ref_id: RefIdQuery }, { additionalProperties: false });

export const Balance = Type.Object({ balance: Money(), currency: Type.String({ description: 'ISO 4217 code, e.g. IDR' }) });

export const LedgerEntry = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('order_debit'), Type.Literal('order_refund'), Type.Literal('credit'), Type.Literal('debit')], { description: 'a deposit is a credit, its reversal a debit (see source)' }),
  source: Type.Union([Type.Literal('order'), Type.Literal('operator'), Type.Literal('deposit')], { description: 'order: an order\'s charge or refund; operator: an adjustment by the operator; deposit: money you deposited (bank transfer or payment gateway), or its reversal' }),
  deposit_code: Nullable(Type.String({ description: 'the deposit (DEP-…) of a deposit entry' })),
  amount: Money('signed: negative for debits'),
  balance_after: Money('the balance right after this entry'),
  order_id: Nullable(OrderId),
  order_code: Nullable(OrderCode),
  ref_id: Nullable(Type.String()),
  note: Nullable(Type.String({ description: 'operator adjustments and deposits' })),
  created_at: IsoTime(),
});

/** One round of an order's callback (the X-Callback-Id stays the same across its attempts). */
export const CallbackDelivery = Type.Object({
  callback_id: Type.String({ description: 'the X-Callback-Id of this round' }),
  round: Type.Integer({ minimum: 1 }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('skipped')], { description: 'skipped: no callback URL was set' }),
  url: Nullable(Type.String()),
  attempts: Type.Integer({ minimum: 0, maximum: 4 }),
  next_attempt_at: Nullable(IsoTime()),
  attempt_log: Type.Array(
    Type.Object({
      attempt: Type.Integer({ minimum: 1, maximum: 4 }),
      started_at: IsoTime(),
      duration_ms: Type.Integer({ minimum: 0 }),
      http_status: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      response_snippet: Nullable(Type.String()),
    }),
  ),
});

export const CallbackLog = Type.Object({
  ref_id: Type.String(),
  order_code: OrderCode,
  deliveries: Type.Array(CallbackDelivery),
});

export const CallbackResent = Type.Object({ ref_id: Type.String(), order_code: OrderCode, round: Type.Integer({ minimum: 1 }), message: Type.String() });

/** The order callback body: exactly the spec's fields (no order_id). */
export const CallbackPayload = Type.Object({
  ref_id: Type.String(),
  order_code: OrderCode,
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  product_code: Type.String(),
  product_name: Type.String(),
  price: Money(),
  serial_number: Nullable(Serial),
  message: Type.String(),
  failure_code: FailureCode,
  failure_reason: FailureReason,
});

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'items per page' })),
};

export const DateRangeQuery = {
  start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD (whole UTC day) or ISO 8601 with a zone; alone: up to now' })),
  end_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD or ISO 8601 with a zone; alone: from 90 days before; range at most 90 days' })),
};

export const ProductsQuery = Type.Object({ category_slug: Type.Optional(Type.String({ description: 'game slug from GET /categories; unknown slugs give an empty page' })), ...PageQuery });
export const RefIdQueryParams = Type.Object({ ref_id: RefIdQuery });
export const OrdersQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.String({ description: 'processing, success, failed or refunded, or a comma-separated list' })),
  ...DateRangeQuery,
});
export const WalletQuery = Type.Object({
  ...PageQuery,
  type: Type.Optional(Type.String({ description: 'order_debit, order_refund, credit or debit, or a comma-separated list' })),
  ...DateRangeQuery,
});
