import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';
import { applyReportOffset, DEFAULT_REPORT_OFFSET_MINUTES, REPORT_KEY, REPORT_MEASURES } from '../report-daily-sql.js';

/**
 * Profit reports (issue 38): `orders.cost`, what the supplier charged for the attempt that
 * delivered (written by the success settlement), and `report_daily`, the daily aggregates
 * every report reads, kept by triggers in the settling transaction (src/store/report-daily-sql.ts).
 * Existing orders are counted in (the rebuild) so an upgraded store's reports are right
 * from the start; their cost is unknown (counted in `cost_unknown`).
 */
export function dailyAggregates(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('orders').addColumn('cost', 'bigint').execute();
      let table: CreateTableBuilder<string, string> = db.schema.createTable('report_daily');
      for (const k of REPORT_KEY) table = table.addColumn(k, k === 'day' || k === 'shard' ? 'integer' : 'text', (c) => c.notNull());
      for (const m of REPORT_MEASURES) table = table.addColumn(m, 'bigint', (c) => c.notNull().defaultTo(0));
      table = table.addPrimaryKeyConstraint('report_daily_pk', [...REPORT_KEY]);
      // SQLite: the rows live in the key's B-tree (as order_counts): a day range is one range read.
      if (dialect !== 'postgres') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      await applyReportOffset(db, dialect, DEFAULT_REPORT_OFFSET_MINUTES);
    },
  };
}
