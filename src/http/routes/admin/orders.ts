import { Type } from '@sinclair/typebox';
import { pageMeta, SEARCH_MATCH_CAP } from '../../../domain/list-query.js';
import type { JsonApiKit } from '../../json-api.js';
import { presenters } from '../../presenters.js';
import { IdParams, IsoTime, Nullable, PageQueryProps } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';
import { onceGated } from '../../idempotency.js';
import { ACCEPTED_FOR_APPROVAL, ApprovalRequest, approvalView } from './approval-view.js';
import { LedgerEntry, Order } from '../../openapi/reseller-schemas.js';

const CAP = SEARCH_MATCH_CAP.toLocaleString('en');

const OrderSummary = Type.Object({
  ...Order.properties,
  reseller_id: Type.String(),
  reseller_name: Type.String({ description: "the shop's name" }),
  reseller_email: Type.String({ description: "the shop's email" }),
  needs_attention: Type.Boolean({ description: 'fulfilment got no definite supplier answer in time; a human should look' }),
  supplier: Nullable(Type.String({ description: 'name of the supplier the order was last submitted to' })),
});

const CallbackDelivery = Type.Object({
  callback_id: Type.String(), round: Type.Integer(), status: Type.String(), url: Nullable(Type.String()), attempts: Type.Integer(),
  next_attempt_at: Nullable(IsoTime()),
  attempt_log: Type.Array(Type.Object({
    attempt: Type.Integer(), started_at: IsoTime(), duration_ms: Type.Integer(), http_status: Nullable(Type.Integer()),
    error: Nullable(Type.String()), response_snippet: Nullable(Type.String()),
  })),
});

const OrderDetail = Type.Object({
  ...OrderSummary.properties,
  fulfilment: Type.Object({
    supplier_id: Nullable(Type.String()), supplier: Nullable(Type.String()), supplier_sku: Nullable(Type.String()),
    routes_tried: Type.Integer({ description: 'routes submitted to or passed over so far, the one in flight included' }), needs_attention: Type.Boolean(), checker_verified: Type.Boolean(),
    supplier_serial: Nullable(Type.String({ description: "the supplier's own serial number for the order (Digiflazz: sn), also for instant products; for disputes with the supplier" })),
    supplier_message: Nullable(Type.String({ description: "the supplier's own message with its last answer on the order (e.g. why it refused it); never shown to the reseller" })),
  }),
  ledger: Type.Array(LedgerEntry),
  callbacks: Type.Array(CallbackDelivery),
});

/** /admin/v1/orders: search across resellers, one order in full, manual refund, callback resend. */
export function orderRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { orders } = deps.services;
  const present = presenters(deps.services.currency.decimals);
  type Facts = Awaited<ReturnType<typeof orders.search>>['items'][number];
  const summary = (f: Facts) => ({ ...present.order(f.order), reseller_id: f.order.resellerId, reseller_name: f.resellerName, reseller_email: f.resellerEmail, needs_attention: f.needsAttention, supplier: f.supplierName });
  const detail = (d: Awaited<ReturnType<typeof orders.view>>) => ({
    ...summary(d),
    fulfilment: {
      supplier_id: d.supplierId, supplier: d.supplierName, supplier_sku: d.supplierSku, routes_tried: d.routesTried,
      needs_attention: d.needsAttention, checker_verified: d.checkerVerified, supplier_serial: d.supplierSerial, supplier_message: d.supplierMessage,
    },
    ledger: d.ledger.map(present.ledgerEntry),
    callbacks: present.callbackLog(d.order, d.callbacks).deliveries,
  });

  kit.route({
    method: 'GET', url: '/orders', tag: 'Orders', paged: true,
    summary: 'Search orders across resellers, newest first (date rules as API v1: at most 90 days)',
    description: `meta.total counts at most the first ${CAP} matches; matches_capped says there are more, and a page past the ${CAP}th match answers INVALID_PAGINATION: narrow the filters to reach the rest.`,
    query: Type.Object({
      status: Type.Optional(Type.String({ description: 'processing, success, failed, refunded, or a comma-separated list' })),
      reseller_id: Type.Optional(Type.String({ maxLength: 100 })),
      ref_id: Type.Optional(Type.String({ maxLength: 100 })),
      start_date: Type.Optional(Type.String()), end_date: Type.Optional(Type.String()),
      needs_attention: Type.Optional(Type.String({ description: 'true or false' })),
      ...PageQueryProps,
    }, { additionalProperties: false }),
    response: Type.Object({
      orders: Type.Array(OrderSummary),
      matches_capped: Type.Boolean({ description: `more than ${CAP} orders match: meta.total stops there` }),
    }),
    errors: ['INVALID_PAGINATION', 'INVALID_STATUS_FILTER', 'INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'],
    handler: async ({ query }) => {
      const r = await orders.search(query);
      return { data: { orders: r.items.map(summary), matches_capped: r.capped }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/orders/:id', tag: 'Orders',
    summary: 'One order with its ledger entries, callback delivery log and fulfilment facts',
    description: '`id` is the order id or its `ORD-` code (`order_code`, any case), as the CLI takes it.',
    params: IdParams, response: OrderDetail,
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: detail(await orders.view(params.id)) }),
  });

  kit.route({
    method: 'POST', url: '/orders/:id/refund', tag: 'Orders',
    summary: 'Refund a processing or success order manually (status refunded, order_refund entry; exactly once; no callback)',
    description: '`id` is the order id or its `ORD-` code. failed orders were already refunded and refunded is final: both answer INVALID_STATE. '
      + 'A processing order refunded here is never completed by fulfilment afterwards; if the supplier delivers anyway, settle that with the supplier.',
    params: IdParams,
    body: Type.Object({ note: Type.String({ minLength: 1, maxLength: 500, description: 'required; kept on the refund entry and in the audit log' }) }, { additionalProperties: false }),
    response: OrderDetail, idempotent: true, accepted: { response: ApprovalRequest, description: ACCEPTED_FOR_APPROVAL.replace('the amount is', "the order's price is") },
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who, reply }) => {
      const id = await orders.resolve(params.id);
      return onceGated(deps.services.idempotency, who.operatorId, reply, body, (claim) => deps.services.approvals.refund(id, body.note, who.operatorId, claim), detail,
        (r) => approvalView(r, deps.services.currency.decimals));
    },
  });

  kit.route({
    method: 'POST', url: '/orders/:id/resend-callback', tag: 'Orders',
    summary: 'A new round of callback attempts for a success or failed order',
    description: '`id` is the order id or its `ORD-` code.',
    params: IdParams,
    response: Type.Object({ order_id: Type.String(), round: Type.Integer(), queued: Type.Literal(true) }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, who, reply }) => {
      const r = await orders.resendCallback(await orders.resolve(params.id), who.operatorId, reply.request.id);
      return { data: { order_id: r.orderId, round: r.round, queued: true } };
    },
  });
}
