import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { orderCode } from '../../../domain/order.js';
import { CallbackDelivery as CallbackDeliveryShape, LedgerEntry as LedgerEntryShape, Order as OrderShape } from '../../openapi/reseller-schemas.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, PageQueryProps } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

const DateProps = {
  start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD or ISO 8601 with a zone' })),
  end_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD (whole day) or ISO 8601 with a zone; at most 90 days after start_date' })),
};
const LIST_ERRORS = ['INVALID_PAGINATION', 'INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'] as const;

/** The reseller's own orders and wallet, with the filters and errors of API v1. */
export function orderRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { orders } = deps.services;
  const { present } = deps;

  kit.route({
    method: 'GET', url: '/orders', tag: 'Orders', paged: true,
    summary: 'The account\'s orders, newest first (filters as GET /api/v1/orders)',
    query: Type.Object({ ...PageQueryProps, ...DateProps, status: Type.Optional(Type.String({ description: 'a status or a comma-separated list' })) }, { additionalProperties: false }),
    response: Type.Object({ orders: Type.Array(OrderShape) }),
    errors: [...LIST_ERRORS, 'INVALID_STATUS_FILTER'],
    handler: async ({ who, query }) => {
      const r = await orders.list(who, query);
      return { data: { orders: r.items.map(present.order) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/orders/:id', tag: 'Orders',
    summary: 'One order by order_id, with its callback delivery log',
    params: IdParams,
    response: Type.Object({ ...OrderShape.properties, callbacks: Type.Array(CallbackDeliveryShape) }),
    errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => {
      const r = await orders.get(who, params.id);
      return { data: { ...present.order(r.order), callbacks: present.callbackLog(r.order, r.deliveries).deliveries } };
    },
  });

  kit.route({
    method: 'POST', url: '/orders/:id/resend-callback', tag: 'Orders',
    summary: 'Queue a new round of up to four callback attempts (success and failed orders only)',
    params: IdParams,
    body: Type.Object({}, { additionalProperties: false }),
    response: Type.Object({ order_id: Type.String(), order_code: Type.String(), ref_id: Type.String(), round: Type.Integer() }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ who, params }) => {
      const r = await orders.resendCallback(who, params.id);
      return { data: { order_id: r.order.id, order_code: orderCode(r.order.id), ref_id: r.order.refId, round: r.round } };
    },
  });

  kit.route({
    method: 'GET', url: '/wallet-history', tag: 'Wallet', paged: true,
    summary: 'Ledger entries, newest first (filters as GET /api/v1/wallet-history)',
    query: Type.Object({ ...PageQueryProps, ...DateProps, type: Type.Optional(Type.String({ description: 'order_debit, order_refund, credit, debit, or a comma-separated list' })) }, { additionalProperties: false }),
    response: Type.Object({ entries: Type.Array(LedgerEntryShape) }),
    errors: [...LIST_ERRORS],
    handler: async ({ who, query }) => {
      const r = await orders.walletHistory(who, query);
      return { data: { entries: r.items.map(present.ledgerEntry) }, meta: pageMeta(r.total, r.page) };
    },
  });
}
