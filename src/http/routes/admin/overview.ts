import { Type } from '@sinclair/typebox';
import { toMajor } from '../../../domain/money.js';
import { isoMillis } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Money, Nullable } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const Bucket = Type.Object({
  start: IsoTime('start of the UTC hour or day'),
  orders: Type.Integer({ description: 'placed in it' }),
  success: Type.Integer(), failed: Type.Integer(), refunded: Type.Integer(),
});

const OverviewSchema = Type.Object({
  at: IsoTime('when these figures were computed (at most 10 s old)'),
  currency: Type.String(),
  orders_per_minute: Type.Number({ description: 'over the last 60 minutes' }),
  success_rate_24h: Nullable(Type.Number({ description: '0..1: delivered / (success + failed + refunded) of the last 24 hours\' orders, delivered being success plus the orders refunded by hand after the supplier delivered them; null without any' })),
  processing: Type.Object({
    count: Type.Integer({ description: 'orders still processing (placed in the last 30 days)' }),
    oldest_created_at: Nullable(IsoTime()),
    oldest_age_seconds: Nullable(Type.Integer()),
  }),
  needs_attention: Type.Integer({ description: 'processing orders flagged for a person (GET /orders?needs_attention=true)' }),
  attention_items: Type.Integer({ description: 'open attention items besides orders (GET /attention-items), e.g. a sync repriced a product or took a route out of service' }),
  callbacks: Type.Object({
    retrying: Type.Integer({ description: 'rounds retrying after a failed attempt' }),
    failed_24h: Type.Integer({ description: 'rounds given up in the last 24 hours' }),
  }),
  suppliers: Type.Array(Type.Object({
    id: Type.String(), name: Type.String(), enabled: Type.Boolean(), status: Type.String(),
    consecutive_failures: Type.Integer(), last_error: Nullable(Type.String()), checked_at: Nullable(IsoTime()),
    breaker: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')], { description: "the supplier's circuit breaker (GET /suppliers has why and since when)" }),
    balance: Nullable(Money('the deposit as the last refresh read it; null: the adapter reports none (sandbox, upstream-v1) or it was never read')),
    balance_flagged: Type.Boolean({ description: 'below its threshold, or an order was refused for a short deposit (GET /suppliers has the details)' }),
  })),
  reseller_balances: Money('sum of every reseller wallet'),
  hourly: Type.Array(Bucket, { description: 'the last 48 UTC hours, oldest first' }),
  daily: Type.Array(Bucket, { description: 'the last 14 UTC days, oldest first' }),
  today: Type.Object({
    delivered: Type.Integer({ description: 'orders delivered today (report time zone, REPORT_TIME_ZONE)' }),
    revenue: Money('their reseller prices'),
    cost: Money('what the suppliers charged for them'),
    gross_margin: Money('revenue − cost'),
    margin_bp: Nullable(Type.Integer({ description: 'gross margin ÷ revenue in basis points; null without revenue' })),
  }, { description: 'today so far, from the daily aggregates (GET /reports/profit has the rest)' }),
});

/** GET /admin/v1/overview: the operator's home page. */
export function overviewRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { overview, currency } = deps.services;
  kit.route({
    method: 'GET', url: '/overview', tag: 'Overview',
    summary: 'Orders per minute, success rate, processing backlog, attention, failing callbacks, suppliers, reseller balances, charts',
    description: 'Computed from order_counts and indexed reads, never a scan of the orders; cached for 10 seconds.',
    response: OverviewSchema,
    handler: async () => {
      const f = await overview.get();
      const bucket = (b: (typeof f.hourly)[number]) => ({ ...b, start: isoMillis(b.start) });
      return {
        data: {
          at: isoMillis(f.at), currency: currency.code,
          orders_per_minute: f.ordersPerMinute, success_rate_24h: f.successRate24h,
          processing: {
            count: f.processing.count,
            oldest_created_at: f.processing.oldestCreatedAt === null ? null : isoMillis(f.processing.oldestCreatedAt),
            oldest_age_seconds: f.processing.oldestCreatedAt === null ? null : Math.max(0, Math.floor((f.at - f.processing.oldestCreatedAt) / 1000)),
          },
          needs_attention: f.attention, attention_items: f.attentionItems,
          callbacks: { retrying: f.callbacks.retrying, failed_24h: f.callbacks.failed24h },
          suppliers: f.suppliers.map((s) => ({
            id: s.id, name: s.name, enabled: s.enabled, status: s.status, consecutive_failures: s.consecutiveFailures, last_error: s.lastError, breaker: s.breaker,
            checked_at: s.checkedAt === null ? null : isoMillis(s.checkedAt),
            balance: s.balance === null ? null : toMajor(s.balance, currency.decimals), balance_flagged: s.balanceFlagged,
          })),
          reseller_balances: toMajor(f.resellerBalances, currency.decimals),
          hourly: f.hourly.map(bucket), daily: f.daily.map(bucket),
          today: {
            delivered: f.today.delivered, revenue: toMajor(f.today.revenue, currency.decimals), cost: toMajor(f.today.cost, currency.decimals),
            gross_margin: toMajor(f.today.grossMargin, currency.decimals), margin_bp: f.today.marginBp,
          },
        },
      };
    },
  });
}
