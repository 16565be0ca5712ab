import pg from 'pg';
import type { StoreConfig } from '../../src/config.js';
import { REPORT_MEASURES } from '../../src/store/report-daily-sql.js';

/**
 * The daily aggregates that `orders` orders would leave over the last 365 days (report_daily,
 * migration 036), written directly: the reports read only this table, so its size, not the
 * orders', is what a report costs. Each day's orders fall on (reseller, product, supplier)
 * keys in turn, so a day has min(orders a day, keys) rows: RESELLERS × PRODUCTS × SUPPLIERS
 * keys, every reseller with its tier. Shard 0 (PostgreSQL's later shards would only add rows
 * of the same keys).
 */
export const REPORT_SHAPE = { resellers: 100, products: 20, suppliers: 2, days: 365 };

export async function seedReports(store: StoreConfig, orders: number): Promise<{ rows: number; seconds: number }> {
  const started = Date.now();
  const { resellers, products, suppliers, days } = REPORT_SHAPE;
  const keys = resellers * products * suppliers;
  const perDay = Math.max(1, Math.floor(orders / days));
  const rowsPerDay = Math.min(perDay, keys);
  const today = Math.floor((Date.now() + 7 * 3_600_000) / 86_400_000);
  const tiers = ['gold', 'platinum', 'diamond'];
  const rowAt = (day: number, k: number) => {
    const n = Math.floor(perDay / rowsPerDay) + (k < perDay % rowsPerDay ? 1 : 0);
    const r = k % resellers;
    const p = Math.floor(k / resellers) % products;
    const s = Math.floor(k / (resellers * products));
    const price = 10_000 + p * 1_000;
    // delivered, revenue, cost, cost_unknown, refunds, refunded, manual_refunds, manual_refunded, manual_refunded_delivered
    const failed = Math.floor(n / 10);
    const delivered = n - failed;
    return [day, `P-${p}`, `cat-${p % 5}`, `bench-sup-${s}`, `bench-res-${r}`, tiers[r % 3]!, 0, delivered, delivered * price, delivered * Math.floor(price * 0.93), 0, failed, failed * price, 0, 0, 0];
  };
  const cols = ['day', 'product_code', 'category_slug', 'supplier_id', 'reseller_id', 'tier', 'shard', ...REPORT_MEASURES];
  let rows = 0;
  if (store.kind === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(store.file);
    db.pragma('busy_timeout = 30000');
    const insert = db.prepare(`insert or replace into report_daily (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`);
    const day = db.transaction((d: number) => {
      for (let k = 0; k < rowsPerDay; k++) insert.run(...rowAt(d, k));
    });
    for (let d = today - days + 1; d <= today; d++) {
      day(d);
      rows += rowsPerDay;
    }
    db.exec('analyze');
    db.close();
  } else {
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    try {
      for (let d = today - days + 1; d <= today; d++) {
        const values: unknown[] = [];
        for (let k = 0; k < rowsPerDay; k++) values.push(rowAt(d, k));
        // One day a statement, as unnest arrays (a few thousand rows each).
        const columns = cols.map((_, i) => values.map((v) => (v as unknown[])[i]));
        await client.query(
          `insert into report_daily (${cols.join(', ')}) select * from unnest(${cols.map((c, i) => `$${i + 1}::${['day', 'shard'].includes(c) ? 'int' : ['product_code', 'category_slug', 'supplier_id', 'reseller_id', 'tier'].includes(c) ? 'text' : 'bigint'}[]`).join(', ')})
           on conflict do nothing`,
          columns,
        );
        rows += rowsPerDay;
      }
      await client.query('analyze report_daily');
    } finally {
      await client.end();
    }
  }
  return { rows, seconds: (Date.now() - started) / 1000 };
}
