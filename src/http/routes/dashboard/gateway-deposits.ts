import { Type } from '@sinclair/typebox';
import type { PaymentServices } from '../../../services/payments/index.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, Money, Nullable, StringEnum } from '../../schemas.js';
import { FeeModeSchema, GatewayDeposit, gatewayDeposit, MethodCode, methodRule, MethodRuleSchema } from '../payments/shapes.js';

/** Deposits by payment gateway: the methods and their fees, a new payment, one payment's state. */
export function gatewayDepositRoutes(kit: JsonApiKit<'dashboard'>, deps: { payments: PaymentServices; decimals: number }) {
  const svc = deps.payments.deposits;
  const { decimals } = deps;

  kit.route({
    method: 'GET', url: '/payment-methods', tag: 'Deposits',
    summary: 'Payment methods offered for gateway deposits; with amount, the fee each adds and what the reseller would pay',
    query: Type.Object({ amount: Type.Optional(Type.String({ maxLength: 30, description: 'major units' })) }, { additionalProperties: false }),
    response: Type.Object({
      available: Type.Boolean({ description: 'false: the gateway is not set up (no method can be paid)' }),
      amount: Nullable(Money()),
      methods: Type.Array(Type.Object({
        ...MethodRuleSchema.properties,
        fee: Nullable(Money('the fee for amount')), payable: Nullable(Money('what the reseller pays for amount')), fee_mode: FeeModeSchema,
        refusal: Nullable(StringEnum(['disabled', 'below_min', 'above_max'] as const, 'why amount cannot be paid this way')),
      })),
    }),
    errors: ['VALIDATION_ERROR'],
    handler: async ({ query }) => {
      const r = await svc.methods(query.amount);
      return {
        data: {
          available: r.available, amount: r.amount === null ? null : r.amount / 10 ** decimals,
          methods: r.offers.map((o) => ({
            ...methodRule(o.rule, o.label, decimals),
            fee: o.quote ? o.quote.fee / 10 ** decimals : null, payable: o.quote ? o.quote.payable / 10 ** decimals : null, refusal: o.refusal,
          })),
        },
      };
    },
  });

  kit.route({
    method: 'POST', url: '/gateway-deposits', tag: 'Deposits',
    summary: 'Start a deposit by payment gateway: answers the deposit (open) with redirect_url, the gateway page to send the browser to. A retry is a new deposit',
    body: Type.Object({ amount: Type.Union([Type.Number(), Type.String({ maxLength: 30 })], { description: 'major units, credited when paid' }), method: MethodCode }, { additionalProperties: false }),
    response: GatewayDeposit,
    errors: ['VALIDATION_ERROR', 'INVALID_STATE', 'GATEWAY_UNAVAILABLE'],
    handler: async ({ who, body, reply }) => {
      const req = reply.request;
      const d = await svc.create(who, body, `${req.protocol}://${req.host}`);
      return { data: gatewayDeposit(d, decimals) };
    },
  });

  kit.route({
    method: 'GET', url: '/gateway-deposits/:id', tag: 'Deposits',
    summary: 'One gateway deposit and its state (the return page polls it until the state is final)',
    params: IdParams, response: GatewayDeposit, errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => ({ data: gatewayDeposit(await svc.get(who, params.id), decimals) }),
  });
}
