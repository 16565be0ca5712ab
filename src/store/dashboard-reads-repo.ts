import { sql, type Kysely } from 'kysely';
import type { OrderRecord, OrderStatus } from '../domain/order.js';
import type { Dialect } from './db.js';
import { toRecord } from './order-row.js';
import { ALL_ORDERS, type DB } from './schema.js';

export interface OrderSearch {
  resellerId: string;
  statuses: OrderStatus[] | null;
  from: number | null;
  to: number | null;
  productCode: string | null;
  /** Orders whose ref_id starts with this (case-sensitive, as ref_ids are). */
  refPrefix: string | null;
}

const DAY_MS = 86_400_000;

/**
 * The dashboard's reads that API v1 does not have: its order search (product, ref_id
 * prefix), exports, and the overview's per-day figures. Every query is scoped to one
 * reseller and walks that reseller's index ranges.
 */
export class DashboardReadsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private searched(f: OrderSearch) {
    let q = this.db.selectFrom('orders').where('reseller_id', '=', f.resellerId);
    if (f.statuses) q = q.where('status', 'in', f.statuses);
    // With a ref_id prefix on SQLite, the date range must not steer the planner to the
    // (reseller_id, created_at) index: over a long history that walks every order of the
    // range, where the prefix's range on the ref_id index reads only its matches (B5).
    // `+created_at` is SQLite's way to keep a term out of index choice.
    const createdAt = f.refPrefix !== null && this.dialect === 'sqlite' ? sql<number>`+created_at` : sql<number>`created_at`;
    if (f.from !== null) q = q.where(createdAt, '>=', f.from);
    if (f.to !== null) q = q.where(createdAt, '<=', f.to);
    if (f.productCode !== null) q = q.where('product_code', '=', f.productCode);
    if (f.refPrefix !== null) {
      // A range in code point order: SQLite's (reseller_id, ref_id) unique index is binary
      // already; on PostgreSQL the range is on ref_id under "C" (migration 019's index).
      const ref = this.dialect === 'sqlite' ? sql<string>`ref_id` : sql<string>`(ref_id collate "C")`;
      q = q.where(ref, '>=', f.refPrefix).where(ref, '<', `${f.refPrefix}\u{10FFFF}`);
      q = q.where(sql<string>`substr(ref_id, 1, ${[...f.refPrefix].length})`, '=', f.refPrefix); // characters (code points), as substr counts
    }
    return q;
  }

  /** Newest first, ties by id (stable pages), with the exact total. */
  async searchOrders(f: OrderSearch, page: { limit: number; offset: number }): Promise<{ orders: OrderRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.searched(f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      this.searched(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { orders: rows.map(toRecord), total: Number(count.n) };
  }

  /** At most `cap` orders of the search, newest first, and whether more matched. */
  async exportOrders(f: OrderSearch, cap: number): Promise<{ orders: OrderRecord[]; truncated: boolean }> {
    const rows = await this.searched(f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(cap + 1).execute();
    return { orders: rows.slice(0, cap).map(toRecord), truncated: rows.length > cap };
  }

  /**
   * Orders placed in [fromHour, toHour] (UTC hours) by current status, from order_counts
   * (migration 012: `*` is every order, terminal statuses have rows, processing is the rest).
   */
  async statusCounts(resellerId: string, fromHour: number, toHour: number): Promise<Record<OrderStatus, number>> {
    const rows = await this.db
      .selectFrom('order_counts')
      .select(['status', sql<number | string>`sum(n)`.as('n')])
      .where('reseller_id', '=', resellerId)
      .where('hour', '>=', fromHour)
      .where('hour', '<=', toHour)
      .groupBy('status')
      .execute();
    const n = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
    const [success, failed, refunded] = [n('success'), n('failed'), n('refunded')];
    return { processing: n(ALL_ORDERS) - success - failed - refunded, success, failed, refunded };
  }

  /** Orders placed per UTC day from `fromDay` (epoch days) on, from order_counts' `*` rows. */
  async ordersPerDay(resellerId: string, fromDay: number): Promise<Map<number, number>> {
    const day = sql<number>`hour / 24`;
    const rows = await this.db
      .selectFrom('order_counts')
      .select([day.as('day'), sql<number | string>`sum(n)`.as('n')])
      .where('reseller_id', '=', resellerId)
      .where('status', '=', ALL_ORDERS)
      .where('hour', '>=', fromDay * 24)
      .groupBy(day)
      .execute();
    return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  }

  /**
   * Spend per UTC day in [fromDay, toDay]: the prices of the orders placed that day that
   * kept their money (processing or success; failed and refunded orders gave it back). On
   * the (reseller_id, status, created_at) index, one range per status.
   */
  async spendPerDay(resellerId: string, fromDay: number, toDay: number): Promise<Map<number, number>> {
    const day = sql<number>`created_at / ${sql.lit(DAY_MS)}`;
    const rows = await this.db
      .selectFrom('orders')
      .select([day.as('day'), sql<number | string>`sum(price)`.as('amount')])
      .where('reseller_id', '=', resellerId)
      .where('status', 'in', ['processing', 'success'])
      .where('created_at', '>=', fromDay * DAY_MS)
      .where('created_at', '<', (toDay + 1) * DAY_MS)
      .groupBy(day)
      .execute();
    return new Map(rows.map((r) => [Number(r.day), Number(r.amount)]));
  }
}
