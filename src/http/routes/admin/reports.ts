import { Type } from '@sinclair/typebox';
import { csvDocument, type CsvCell } from '../../../domain/csv.js';
import { toMajor } from '../../../domain/money.js';
import { GRANULARITIES, PROFIT_GROUPS, type ProfitFigures } from '../../../domain/profit-report.js';
import type { JsonApiKit } from '../../json-api.js';
import { Money, Nullable, StringEnum } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const Day = (description: string) => Type.String({ format: 'date', description });

const Figures = {
  delivered: Type.Integer({ description: 'orders delivered (counted on the day of delivery, even if refunded by hand later)' }),
  revenue: Money("reseller prices of the delivered orders"),
  cost: Money('what the suppliers charged for the attempts that delivered (their own answer where it gives one, else the route\'s cost)'),
  cost_unknown: Type.Integer({ description: 'delivered orders whose cost is not known (counted as 0 in cost)' }),
  gross_margin: Money('revenue − cost'),
  margin_bp: Nullable(Type.Integer({ description: 'gross margin ÷ revenue in basis points (1234 = 12.34 %), truncated; null without revenue' })),
  net_margin: Money('gross margin − revenue given back by manual refunds of delivered orders'),
  refunds: Type.Integer({ description: 'failed orders refunded to the wallet' }),
  refunded: Money('their amount'),
  manual_refunds: Type.Integer({ description: 'orders refunded by an operator (counted on the day of the refund)' }),
  manual_refunded: Money('their amount'),
  manual_refunded_delivered: Money('of which orders that had been delivered'),
};

const Query = Type.Object({
  from: Type.Optional(Type.String({ description: 'first day, YYYY-MM-DD in the report time zone; default 29 days before `to`' })),
  to: Type.Optional(Type.String({ description: 'last day (included), YYYY-MM-DD; default today' })),
  granularity: Type.Optional(StringEnum(GRANULARITIES, 'periods: day, week (Monday to Sunday) or month; default day')),
  group_by: Type.Optional(StringEnum(PROFIT_GROUPS, 'breakdown; default none')),
}, { additionalProperties: false });

const ERRORS = ['INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'] as const;

/** /admin/v1/reports: profit and loss from the daily aggregates (docs/operator-api.md, "Reports"). */
export function reportRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { reports, currency } = deps.services;
  const money = (minor: number) => toMajor(minor, currency.decimals);
  const present = (f: ProfitFigures) => ({
    delivered: f.delivered, revenue: money(f.revenue), cost: money(f.cost), cost_unknown: f.costUnknown, gross_margin: money(f.grossMargin),
    margin_bp: f.marginBp, net_margin: money(f.netMargin), refunds: f.refunds, refunded: money(f.refunded),
    manual_refunds: f.manualRefunds, manual_refunded: money(f.manualRefunded), manual_refunded_delivered: money(f.manualRefundedDelivered),
  });

  kit.route({
    method: 'GET', url: '/reports/profit', tag: 'Reports',
    summary: 'Profit and loss: revenue, cost, margins, refunds and manual refunds by day, week or month, broken down by product, category, supplier, reseller or tier',
    description: 'Read from the daily aggregates kept as orders settle (never the orders): the same cost at any size. Days are in the report time zone (REPORT_TIME_ZONE).',
    query: Query,
    response: Type.Object({
      from: Day('first day'), to: Day('last day'), granularity: StringEnum(GRANULARITIES), group_by: StringEnum(PROFIT_GROUPS),
      time_zone: Type.String({ description: 'IANA name of the report time zone' }), utc_offset: Type.String({ description: 'its offset, e.g. +07:00' }),
      currency: Type.String(),
      totals: Type.Object(Figures),
      periods: Type.Array(Type.Object({ start: Day('first day of the period within the range'), end: Day('last day within the range'), ...Figures }), { description: 'every period of the range, oldest first' }),
      groups: Type.Array(Type.Object({ key: Type.String({ description: 'product code, category slug, supplier id, reseller id or tier; "" for none or no supplier' }), name: Nullable(Type.String()), ...Figures }), { description: 'each group over the whole range, largest revenue first' }),
      rows: Type.Array(Type.Object({ period: Day('the period\'s first day within the range'), key: Type.String(), name: Nullable(Type.String()), ...Figures }), { description: 'each (period, group) with any figure' }),
    }),
    errors: [...ERRORS],
    handler: async ({ query }) => {
      const r = await reports.profit(query);
      return {
        data: {
          from: r.from, to: r.to, granularity: r.granularity, group_by: r.groupBy, time_zone: r.timeZone, utc_offset: r.utcOffset, currency: currency.code,
          totals: present(r.totals),
          periods: r.periods.map((p) => ({ start: p.start, end: p.end, ...present(p) })),
          groups: r.groups.map((g) => ({ key: g.key, name: g.name, ...present(g) })),
          rows: r.rows.map((c) => ({ period: c.period, key: c.key, name: c.name, ...present(c) })),
        },
      };
    },
  });

  kit.route({
    method: 'GET', url: '/reports/profit/export.csv', tag: 'Reports', produces: 'csv',
    summary: 'The same report as CSV: one line per (period, group), amounts in major units, margin as a percentage with two decimals',
    query: Query,
    response: Type.String(),
    errors: [...ERRORS],
    handler: async ({ query }) => {
      const r = await reports.profit(query);
      const header = ['period_start', 'group_by', 'key', 'name', 'delivered', 'revenue', 'cost', 'cost_unknown', 'gross_margin', 'margin_percent', 'net_margin', 'refunds', 'refunded', 'manual_refunds', 'manual_refunded', 'manual_refunded_delivered'];
      const line = (period: string, key: string, name: string | null, f: ProfitFigures): CsvCell[] => {
        const p = present(f);
        return [period, r.groupBy, key, name, p.delivered, p.revenue, p.cost, p.cost_unknown, p.gross_margin, percent(f.marginBp), p.net_margin, p.refunds, p.refunded, p.manual_refunds, p.manual_refunded, p.manual_refunded_delivered];
      };
      const rows = r.groupBy === 'none' ? r.periods.map((p) => line(p.start, '', null, p)) : r.rows.map((c) => line(c.period, c.key, c.name, c));
      return { file: { filename: `profit-${r.from}-${r.to}-${r.granularity}-${r.groupBy}.csv`, body: csvDocument(header, rows) } };
    },
  });
}

/** Basis points as a percentage with two decimals, from integers ("12.34", "-0.05"). */
function percent(bp: number | null): string {
  if (bp === null) return '';
  const a = Math.abs(bp);
  return `${bp < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
