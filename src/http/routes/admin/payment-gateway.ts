import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { DEPOSIT_STATES } from '../../../domain/deposit.js';
import { toMajor } from '../../../domain/money.js';
import { methodLabel } from '../../../services/payments/gateway-config.js';
import type { PaymentServices } from '../../../services/payments/index.js';
import type { NotificationRow } from '../../../store/gateway-repo.js';
import type { JsonApiKit } from '../../json-api.js';
import { MIDTRANS_HOOK_PATH } from '../midtrans-hook.js';
import { IdParams, IsoTime, Money, Nullable, PageQueryProps, StringEnum } from '../../schemas.js';
import { GatewayDeposit, gatewayDeposit, MethodCode, methodRule, MethodRuleSchema, FeeModeSchema } from '../payments/shapes.js';

const Settings = Type.Object({
  environment: StringEnum(['sandbox', 'production'] as const),
  client_key: Nullable(Type.String()),
  server_key_source: Nullable(StringEnum(['env', 'settings'] as const, 'env: MIDTRANS_SERVER_KEY; settings: sealed in the store; null: not set')),
  expiry_minutes: Type.Integer(),
  notification_url: Type.String({ description: 'set this as the Payment Notification URL in the Midtrans dashboard' }),
  updated_at: Nullable(IsoTime()),
});

const Notification = Type.Object({
  id: Type.String(), received_at: IsoTime(), order_id: Nullable(Type.String()), transaction_status: Nullable(Type.String()),
  signature_valid: Type.Boolean(), confirmed_status: Nullable(Type.String({ description: 'what the status API said' })),
  outcome: Type.String({ description: 'credited, already_credited, amount_mismatch, closed, already_closed, pending, refund_attention, refund_uncredited, no_change, bad_signature, status_unavailable, status_disagrees, unknown_order, unreadable, not_configured' }),
  body: Type.String({ description: 'the notification exactly as received' }),
});

const Payment = Type.Object({ ...GatewayDeposit.properties, reseller_id: Type.String(), reseller_name: Type.String(), reference: Nullable(Type.String({ description: 'gateway transaction_id' })) });

/** /admin/v1: the payment gateway's settings and methods, gateway payments with their notifications, and reversal after a refund. */
export function paymentGatewayRoutes(kit: JsonApiKit<'admin'>, deps: { payments: PaymentServices; decimals: number; publicBaseUrl: string }) {
  const { config, payments } = deps.payments;
  const { decimals } = deps;
  const settings = (v: Awaited<ReturnType<typeof config.view>>) => ({
    environment: v.environment, client_key: v.clientKey, server_key_source: v.serverKeySource, expiry_minutes: v.expiryMinutes,
    notification_url: `${deps.publicBaseUrl}${MIDTRANS_HOOK_PATH}`, updated_at: v.updatedAt === null ? null : new Date(v.updatedAt).toISOString(),
  });
  const payment = (d: Awaited<ReturnType<typeof payments.detail>>['deposit']) => ({ ...gatewayDeposit(d, decimals), reseller_id: d.resellerId, reseller_name: d.resellerName, reference: d.reference });
  const notification = (n: NotificationRow) => ({
    id: n.id, received_at: new Date(n.receivedAt).toISOString(), order_id: n.orderId, transaction_status: n.transactionStatus, signature_valid: n.signatureValid,
    confirmed_status: n.confirmedStatus, outcome: n.outcome, body: n.body,
  });

  kit.route({
    method: 'GET', url: '/payment-gateway', tag: 'Deposits', summary: 'Midtrans settings (the server key is never shown, only where it comes from)',
    response: Settings, handler: async () => ({ data: settings(await config.view()) }),
  });
  kit.route({
    method: 'PUT', url: '/payment-gateway', tag: 'Deposits',
    summary: 'Change Midtrans settings: environment (sandbox/production), server key (sealed at rest; empty string removes it), client key, payment expiry (audited)',
    body: Type.Object({
      environment: Type.Optional(StringEnum(['sandbox', 'production'] as const)), server_key: Type.Optional(Type.String({ maxLength: 200 })),
      client_key: Type.Optional(Nullable(Type.String({ maxLength: 200 }))), expiry_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10080 })),
    }, { additionalProperties: false }),
    response: Settings, errors: ['VALIDATION_ERROR'],
    handler: async ({ body, who }) => ({ data: settings(await config.save(body, who.operatorId)) }),
  });
  kit.route({
    method: 'GET', url: '/payment-methods', tag: 'Deposits', summary: 'Gateway payment methods with their bounds and fee rules (never-saved methods: disabled, defaults)',
    response: Type.Object({ methods: Type.Array(MethodRuleSchema) }),
    handler: async () => ({ data: { methods: (await config.rules()).map((r) => methodRule(r, methodLabel(r.code), decimals)) } }),
  });
  kit.route({
    method: 'PUT', url: '/payment-methods/:code', tag: 'Deposits',
    summary: 'Enable or disable a method and set its bounds and fee rule (fee = fee_fixed + amount × fee_bps / 10000; pass: added to what the reseller pays; absorb: the platform pays it) (audited)',
    params: Type.Object({ code: MethodCode }, { additionalProperties: false }),
    body: Type.Object({
      enabled: Type.Optional(Type.Boolean()), min_amount: Type.Optional(Money()), max_amount: Type.Optional(Money()), fee_fixed: Type.Optional(Money()),
      fee_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })), fee_mode: Type.Optional(FeeModeSchema),
    }, { additionalProperties: false }),
    response: MethodRuleSchema, errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
    handler: async ({ params, body, who }) => ({ data: methodRule(await config.saveMethod(params.code, body, who.operatorId), methodLabel(params.code), decimals) }),
  });
  kit.route({
    method: 'GET', url: '/gateway-payments', tag: 'Deposits', paged: true, summary: 'Gateway payments (deposits by Midtrans), newest first',
    query: Type.Object({ state: Type.Optional(StringEnum(DEPOSIT_STATES)), reseller_id: Type.Optional(Type.String({ maxLength: 100 })), ...PageQueryProps }, { additionalProperties: false }),
    response: Type.Object({ payments: Type.Array(Payment) }), errors: ['INVALID_PAGINATION', 'VALIDATION_ERROR'],
    handler: async ({ query }) => {
      const r = await payments.list(query);
      return { data: { payments: r.items.map(payment) }, meta: pageMeta(r.total, r.page) };
    },
  });
  kit.route({
    method: 'GET', url: '/gateway-payments/unmatched-notifications', tag: 'Deposits', summary: 'Signed notifications that matched no payment (another app\'s order ids on the same merchant account), newest 50',
    response: Type.Object({ notifications: Type.Array(Notification) }),
    handler: async () => ({ data: { notifications: (await payments.unmatched()).map(notification) } }),
  });
  kit.route({
    method: 'GET', url: '/gateway-payments/:id', tag: 'Deposits', summary: 'One gateway payment with every notification received for it (raw, with its outcome) and its refund, if any',
    params: IdParams,
    response: Type.Object({
      payment: Payment, notifications: Type.Array(Notification),
      refund: Nullable(Type.Object({ attention_item_id: Type.String(), reported_at: IsoTime(), transaction_status: Type.String(), refund_amount: Nullable(Type.String()), resolved_at: Nullable(IsoTime()) })),
    }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => {
      const r = await payments.detail(params.id);
      const details = (r.refund?.details ?? {}) as { transaction_status?: string; refund_amount?: unknown };
      return {
        data: {
          payment: payment(r.deposit), notifications: r.notifications.map(notification),
          refund: r.refund && {
            attention_item_id: r.refund.id, reported_at: new Date(r.refund.createdAt).toISOString(), transaction_status: details.transaction_status ?? 'refund',
            refund_amount: details.refund_amount === undefined || details.refund_amount === null ? null : String(details.refund_amount),
            resolved_at: r.refund.resolvedAt === null ? null : new Date(r.refund.resolvedAt).toISOString(),
          },
        },
      };
    },
  });
  kit.route({
    method: 'POST', url: '/gateway-payments/:id/reverse', tag: 'Deposits',
    summary: 'After the gateway refunded a credited payment: debit the credit back (once; amount defaults to the whole credit, required for a partial refund). Never below zero: a short balance is refused and nothing is debited (audited)',
    params: IdParams,
    body: Type.Object({ amount: Type.Optional(Money()), note: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }),
    response: Type.Object({ deposit_id: Type.String(), reseller_id: Type.String(), amount: Money('debited'), balance: Money('after the debit') }),
    errors: ['NOT_FOUND', 'INVALID_STATE', 'INSUFFICIENT_BALANCE', 'VALIDATION_ERROR'],
    handler: async ({ params, body, who }) => {
      const r = await payments.reverse(params.id, body, who.operatorId);
      return { data: { deposit_id: r.depositId, reseller_id: r.resellerId, amount: toMajor(r.amount, decimals), balance: toMajor(r.balanceAfter, decimals) } };
    },
  });
}
