import { sql, type Kysely } from 'kysely';
import { bucketStart, type Granularity } from '../domain/report-calendar.js';
import { ZERO_SUMS, type ProfitGroup, type ProfitSums } from '../domain/profit-report.js';
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
   * Sums per (period, group) over the days fromDay..toDay. SQL sums per (day, group), the
   * day range of the primary key read in order; the days are folded into their week or
   * month here (a CASE over the month starts per row cost more than the scan itself).
   */
  async profit(fromDay: number, toDay: number, granularity: Granularity, groupBy: ProfitGroup): Promise<ProfitRow[]> {
    const group = GROUP_COLUMN[groupBy];
    const { rows } = await sql<Record<string, string | number>>`
      select day, ${sql.raw(group)} as grp,
        sum(delivered) as delivered, sum(revenue) as revenue, sum(cost) as cost, sum(cost_unknown) as cost_unknown,
        sum(refunds) as refunds, sum(refunded) as refunded, sum(manual_refunds) as manual_refunds,
        sum(manual_refunded) as manual_refunded, sum(manual_refunded_delivered) as manual_refunded_delivered
      from report_daily where day >= ${fromDay} and day <= ${toDay}
      group by 1, 2`.execute(this.db);
    const cells = new Map<string, ProfitRow>();
    for (const r of rows) {
      const period = bucketStart(Number(r.day), granularity);
      const key = `${period}\u0000${r.grp}`;
      const c = cells.get(key) ?? { period, group: String(r.grp), ...ZERO_SUMS };
      c.delivered += Number(r.delivered); c.revenue += Number(r.revenue); c.cost += Number(r.cost); c.costUnknown += Number(r.cost_unknown);
      c.refunds += Number(r.refunds); c.refunded += Number(r.refunded); c.manualRefunds += Number(r.manual_refunds);
      c.manualRefunded += Number(r.manual_refunded); c.manualRefundedDelivered += Number(r.manual_refunded_delivered);
      cells.set(key, c);
    }
    return [...cells.values()];
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
