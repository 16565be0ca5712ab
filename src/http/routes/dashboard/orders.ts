import { Type } from '@sinclair/typebox';
import { csvDocument } from '../../../domain/csv.js';
import { pageMeta, SEARCH_MATCH_CAP } from '../../../domain/list-query.js';
import { isoMillis, orderCode } from '../../../domain/order.js';
import { EXPORT_MAX_ROWS } from '../../../services/account/orders.js';
import { orderTimeline } from '../../../services/account/order-timeline.js';
import { CallbackDelivery as CallbackDeliveryShape, LedgerEntry as LedgerEntryShape, Order as OrderShape } from '../../openapi/reseller-schemas.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Money, Nullable, PageQueryProps } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

const DateProps = {
  start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD or ISO 8601 with a zone' })),
  end_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD (whole day) or ISO 8601 with a zone; at most 90 days after start_date' })),
};
const OrderFilterProps = {
  ...DateProps,
  status: Type.Optional(Type.String({ description: 'a status or a comma-separated list' })),
  product_code: Type.Optional(Type.String({ description: 'exact product code' })),
  ref_id: Type.Optional(Type.String({ description: 'ref_id prefix (case-sensitive): orders whose ref_id starts with this' })),
};
const WalletFilterProps = { ...DateProps, type: Type.Optional(Type.String({ description: 'order_debit, order_refund, credit, debit, or a comma-separated list' })) };
const LIST_ERRORS = ['INVALID_PAGINATION', 'INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'] as const;
const EXPORT_NOTE = `At most ${EXPORT_MAX_ROWS.toLocaleString('en')} rows, newest first; when more matched, the response has \`X-Export-Truncated: true\` (narrow the date range). Cells starting with = + - @ are prefixed with a quote (CSV injection).`;

const EXPORT_HEADERS = { 'X-Export-Truncated': { description: 'present when more rows matched than the export holds', schema: { const: 'true' } } };

const TimelineItem = Type.Object({
  at: IsoTime(),
  event: Type.String({ description: 'placed, debited, refunded_to_wallet, succeeded, failed, refunded, callback_round, callback_attempt' }),
  detail: Type.String({ description: 'the event in English words' }),
  params: Type.Object({
    product_code: Type.Optional(Type.String()), target: Type.Optional(Type.String()), zone: Type.Optional(Nullable(Type.String())), ref_id: Type.Optional(Type.String()),
    amount: Type.Optional(Money()), balance_after: Type.Optional(Money()), note: Type.Optional(Nullable(Type.String())),
    serial_number: Type.Optional(Nullable(Type.String())), failure_code: Type.Optional(Nullable(Type.String())), failure_reason: Type.Optional(Nullable(Type.String())),
    round: Type.Optional(Type.Integer()), status: Type.Optional(Type.String({ description: 'the callback round\'s state' })), attempts: Type.Optional(Type.Integer()), attempt: Type.Optional(Type.Integer()),
    http_status: Type.Optional(Nullable(Type.Integer())), error: Type.Optional(Nullable(Type.String())), duration_ms: Type.Optional(Type.Integer()),
  }, { description: 'what the sentence is made of, by event (placed: product_code, target, zone, ref_id; debited and refunded_to_wallet: amount, balance_after, note; succeeded: serial_number; failed: failure_code, failure_reason; callback_round: round, status, attempts; callback_attempt: round, attempt, http_status, error, duration_ms), so an app can say it in its own language' }),
});

/** The reseller's own orders and wallet, with the filters and errors of API v1, and their CSV exports. */
export function orderRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { orders } = deps.services;
  const { present } = deps;

  kit.route({
    method: 'GET', url: '/orders', tag: 'Orders', paged: true,
    summary: 'The account\'s orders, newest first (filters as GET /api/v1/orders, plus product_code and ref_id prefix)',
    description: `Without product_code and ref_id, meta.total is exact at any depth. A search (product_code or ref_id) counts at most the first ${SEARCH_MATCH_CAP.toLocaleString('en')} matches: matches_capped says there are more, and a page past the ${SEARCH_MATCH_CAP.toLocaleString('en')}th match answers INVALID_PAGINATION; narrow the filters to reach the rest.`,
    query: Type.Object({ ...PageQueryProps, ...OrderFilterProps }, { additionalProperties: false }),
    response: Type.Object({
      orders: Type.Array(OrderShape),
      matches_capped: Type.Boolean({ description: `a search matched more than ${SEARCH_MATCH_CAP.toLocaleString('en')} orders: meta.total stops there` }),
    }),
    errors: [...LIST_ERRORS, 'INVALID_STATUS_FILTER'],
    handler: async ({ who, query }) => {
      const r = await orders.list(who, query);
      return { data: { orders: r.items.map(present.order), matches_capped: r.capped }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/orders/export.csv', tag: 'Orders', produces: 'csv',
    summary: 'The filtered order list as CSV (same filters as GET /orders)',
    description: EXPORT_NOTE,
    query: Type.Object(OrderFilterProps, { additionalProperties: false }),
    response: Type.String(),
    errors: [...LIST_ERRORS, 'INVALID_STATUS_FILTER'],
    headers: EXPORT_HEADERS,
    handler: async ({ who, query, reply }) => {
      const r = await orders.exportOrders(who, query);
      if (r.truncated) reply.header('x-export-truncated', 'true');
      const header = ['order_code', 'order_id', 'ref_id', 'product_code', 'product_name', 'target_id', 'zone_id', 'price', 'status', 'serial_number', 'failure_code', 'failure_reason', 'created_at', 'completed_at'];
      const rows = r.orders.map((o) => {
        const p = present.order(o);
        return [p.order_code, p.order_id, p.ref_id, p.product_code, p.product_name, p.target_id, p.zone_id, p.price, p.status, p.serial_number, p.failure_code, p.failure_reason, p.created_at, p.completed_at];
      });
      return { file: { filename: 'orders.csv', body: csvDocument(header, rows) } };
    },
  });

  kit.route({
    method: 'GET', url: '/orders/:id', tag: 'Orders',
    summary: 'One order by order_id: every field, its ledger entries, a timeline, and its callback delivery log',
    params: IdParams,
    response: Type.Object({
      ...OrderShape.properties,
      ledger_entries: Type.Array(LedgerEntryShape, { description: 'its debit and at most one refund, oldest first' }),
      timeline: Type.Array(TimelineItem, { description: 'oldest first' }),
      callbacks: Type.Array(CallbackDeliveryShape, { description: 'every round with every attempt: started_at, http_status, duration_ms, response_snippet' }),
    }),
    errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => {
      const r = await orders.get(who, params.id);
      return {
        data: {
          ...present.order(r.order),
          ledger_entries: r.ledger.map(present.ledgerEntry),
          timeline: orderTimeline(r.order, r.ledger, r.deliveries, present.money).map((t) => ({ at: isoMillis(t.at), event: t.event, detail: t.detail, params: t.params })),
          callbacks: present.callbackLog(r.order, r.deliveries).deliveries,
        },
      };
    },
  });

  kit.route({
    method: 'POST', url: '/orders/:id/resend-callback', tag: 'Orders',
    summary: 'Queue a new round of up to four callback attempts (success and failed orders only)',
    params: IdParams,
    body: Type.Object({}, { additionalProperties: false }),
    response: Type.Object({ order_id: Type.String(), order_code: Type.String(), ref_id: Type.String(), round: Type.Integer() }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ who, params, reply }) => {
      const r = await orders.resendCallback(who, params.id, reply.request.id);
      return { data: { order_id: r.order.id, order_code: orderCode(r.order.id), ref_id: r.order.refId, round: r.round } };
    },
  });

  kit.route({
    method: 'GET', url: '/wallet-history', tag: 'Wallet', paged: true,
    summary: 'Ledger entries, newest first (filters as GET /api/v1/wallet-history)',
    query: Type.Object({ ...PageQueryProps, ...WalletFilterProps }, { additionalProperties: false }),
    response: Type.Object({ entries: Type.Array(LedgerEntryShape) }),
    errors: [...LIST_ERRORS],
    handler: async ({ who, query }) => {
      const r = await orders.walletHistory(who, query);
      return { data: { entries: r.items.map(present.ledgerEntry) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/wallet-history/export.csv', tag: 'Wallet', produces: 'csv',
    summary: 'The filtered ledger as CSV (same filters as GET /wallet-history)',
    description: EXPORT_NOTE,
    query: Type.Object(WalletFilterProps, { additionalProperties: false }),
    response: Type.String(),
    errors: [...LIST_ERRORS],
    headers: EXPORT_HEADERS,
    handler: async ({ who, query, reply }) => {
      const r = await orders.exportWallet(who, query);
      if (r.truncated) reply.header('x-export-truncated', 'true');
      const header = ['id', 'created_at', 'type', 'source', 'amount', 'balance_after', 'order_code', 'order_id', 'ref_id', 'deposit_code', 'note'];
      const rows = r.entries.map((e) => {
        const p = present.ledgerEntry(e);
        return [p.id, p.created_at, p.type, p.source, p.amount, p.balance_after, p.order_code, p.order_id, p.ref_id, p.deposit_code, p.note];
      });
      return { file: { filename: 'wallet-history.csv', body: csvDocument(header, rows) } };
    },
  });
}
