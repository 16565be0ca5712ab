import { sql, type Kysely } from 'kysely';
import type { Granularity } from '../domain/report-calendar.js';
import type { ProfitGroup, ProfitSums } from '../domain/profit-report.js';
import type { DB } from './schema.js';

const GROUP_COLUMN: Record<ProfitGroup, string> = {
  none: `''`, product: 'product_code', category: 'category_slug', supplier: 'supplier_id', reseller: 'reseller_id', tier: 'tier',
};

export interface ProfitRow extends ProfitSums {
  period: number;
  group: string;
}

/** Reads of the daily aggregates (report_daily, migration 036): one range of the primary key, summed. */
export class ReportRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Sums per (period, group) over the days fromDay..toDay. `periods`: every period's first
   * day, ascending (a period is that day up to the next one's).
   */
  async profit(fromDay: number, toDay: number, granularity: Granularity, periods: number[], groupBy: ProfitGroup): Promise<ProfitRow[]> {
    const period = granularity === 'day' ? 'day'
      : granularity === 'week' ? 'day - ((day + 3) % 7)' // Monday: 1970-01-01 was a Thursday
      // Months have no arithmetic rule: the first days, newest first, are listed (integers we computed).
      : `case ${[...periods].reverse().map((p) => `when day >= ${Math.trunc(p)} then ${Math.trunc(p)}`).join(' ')} else ${Math.trunc(periods[0]!)} end`;
    const group = GROUP_COLUMN[groupBy];
    const { rows } = await sql<Record<string, string | number>>`
      select ${sql.raw(period)} as period, ${sql.raw(group)} as grp,
        sum(delivered) as delivered, sum(revenue) as revenue, sum(cost) as cost, sum(cost_unknown) as cost_unknown,
        sum(refunds) as refunds, sum(refunded) as refunded, sum(manual_refunds) as manual_refunds,
        sum(manual_refunded) as manual_refunded, sum(manual_refunded_delivered) as manual_refunded_delivered
      from report_daily where day >= ${fromDay} and day <= ${toDay}
      group by 1, 2`.execute(this.db);
    return rows.map((r) => ({
      period: Number(r.period), group: String(r.grp),
      delivered: Number(r.delivered), revenue: Number(r.revenue), cost: Number(r.cost), costUnknown: Number(r.cost_unknown),
      refunds: Number(r.refunds), refunded: Number(r.refunded), manualRefunds: Number(r.manual_refunds),
      manualRefunded: Number(r.manual_refunded), manualRefundedDelivered: Number(r.manual_refunded_delivered),
    }));
  }

  /** Display names of the groups found (products, categories, suppliers and resellers by key; tiers are their own names). */
  async names(groupBy: ProfitGroup, keys: string[]): Promise<Map<string, string>> {
    const wanted = keys.filter((k) => k !== '');
    if (wanted.length === 0 || groupBy === 'none' || groupBy === 'tier') return new Map();
    const rows = groupBy === 'product' ? await this.db.selectFrom('products').select(['code as key', 'name']).where('code', 'in', wanted).execute()
      : groupBy === 'category' ? await this.db.selectFrom('categories').select(['slug as key', 'name']).where('slug', 'in', wanted).execute()
      : groupBy === 'supplier' ? await this.db.selectFrom('suppliers').select(['id as key', 'name']).where('id', 'in', wanted).execute()
      : await this.db.selectFrom('resellers').select(['id as key', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [r.key, r.name]));
  }
}
