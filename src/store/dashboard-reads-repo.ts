import { sql, type Kysely, type RawBuilder } from 'kysely';
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

  /**
   * The search's orders. `by` says which index serves the walk, as a plan must not be left
   * to the planner here (a prefix's matches lie together on the ref_id index, newest-first
   * pages on the created_at index, and a plan that picks the wrong one walks the history):
   * 'ref' reads the prefix's range on the ref_id index; 'time' walks the (reseller_id,
   * created_at, id) index with the prefix as a filter only.
   */
  private searched(f: OrderSearch, by: 'ref' | 'time') {
    let q = this.db.selectFrom('orders').where('reseller_id', '=', f.resellerId);
    if (f.statuses) q = q.where('status', 'in', f.statuses);
    // On the ref_id range the date terms are filters only, on both stores: PostgreSQL too
    // chose the created_at index for the count and walked the range's millions of orders.
    const createdAt = by === 'ref' ? this.unindexedCreatedAt() : sql<number>`created_at`;
    if (f.from !== null) q = q.where(createdAt, '>=', f.from);
    if (f.to !== null) q = q.where(createdAt, '<=', f.to);
    if (f.productCode !== null) q = q.where('product_code', '=', f.productCode);
    if (f.refPrefix !== null) {
      if (by === 'ref') {
        // A range in code point order: SQLite's (reseller_id, ref_id) unique index is binary
        // already; on PostgreSQL the range is on ref_id under "C" (migration 019's index).
        const ref = this.dialect === 'sqlite' ? sql<string>`ref_id` : sql<string>`(ref_id collate "C")`;
        q = q.where(ref, '>=', f.refPrefix).where(ref, '<', `${f.refPrefix}\u{10FFFF}`);
      }
      q = q.where(startsWith(sql.ref('ref_id'), f.refPrefix));
    }
    return q;
  }

  /**
   * Newest first, ties by id (stable pages), with the count of matches up to `cap` and
   * whether more matched. The page lies within the first `cap` matches (the service
   * refuses deeper pages). See plan() for what each read walks.
   */
  async searchOrders(f: OrderSearch, page: { limit: number; offset: number }, cap: number): Promise<{ orders: OrderRecord[]; total: number; capped: boolean }> {
    const n = await this.countUpTo(f, cap);
    const total = Math.min(n, cap);
    if (page.offset >= total) return { orders: [], total, capped: n > cap };
    return { orders: (await this.newest(f, n, cap, page)).map(toRecord), total, capped: n > cap };
  }

  /** At most `cap` orders of the search, newest first, and whether more matched. */
  async exportOrders(f: OrderSearch, cap: number): Promise<{ orders: OrderRecord[]; truncated: boolean }> {
    const n = await this.countUpTo(f, cap);
    const rows = n === 0 ? [] : await this.newest(f, n, cap, { offset: 0, limit: Math.min(n, cap) });
    return { orders: rows.map(toRecord), truncated: n > cap };
  }

  /**
   * The matches, counted up to cap + 1: with a ref_id prefix on the prefix's range of the
   * ref_id index (at most cap + 1 entries, however long the history); without one walking
   * the (reseller_id, created_at, id) index until cap + 1 matches or the range's end.
   */
  private async countUpTo(f: OrderSearch, cap: number): Promise<number> {
    const counted = await this.db
      .selectFrom(this.searched(f, f.refPrefix !== null ? 'ref' : 'time').select(sql<number>`1`.as('one')).limit(cap + 1).as('m'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(counted.n);
  }

  /**
   * The page (within the first `cap` of n matches), by the cheaper of two walks. A prefix
   * with at most `cap` matches: they are all on its ref_id range, read and sorted. More:
   * first the newest 2 × cap orders of the range (the created_at index, the prefix a filter
   * on them), which hold the page where the matches are common among the newest, as a
   * broad prefix's usually are; only if they do not (a broad prefix whose orders are all
   * old) the prefix's whole range is read and sorted, as before this bound.
   */
  private async newest(f: OrderSearch, n: number, cap: number, page: { offset: number; limit: number }) {
    if (f.refPrefix === null || n <= cap) return this.newestFirst(f, f.refPrefix === null ? 'time' : 'ref').limit(page.limit).offset(page.offset).execute();
    // Where the newest 2 × cap orders of the range end: an index-only walk (no row read).
    const edge = await this.searched({ ...f, refPrefix: null }, 'time').select('created_at')
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).offset(2 * cap - 1).executeTakeFirst();
    const newest = { ...f, from: edge ? Math.max(f.from ?? edge.created_at, Number(edge.created_at)) : f.from };
    const walked = await this.newestFirst(newest, 'time').limit(page.limit).offset(page.offset).execute();
    // More than cap match, so the page is full (offset + limit ≤ cap): a short one was cut by the budget.
    if (walked.length === page.limit) return walked;
    return this.newestFirst(f, 'ref').limit(page.limit).offset(page.offset).execute();
  }

  /** created_at kept out of index choice: `+created_at` (SQLite), `created_at + 0` (PostgreSQL). */
  private unindexedCreatedAt() {
    return this.dialect === 'sqlite' ? sql<number>`+created_at` : sql<number>`created_at + 0`;
  }

  /** The search newest first on the index `by` names (see searched()). */
  private newestFirst(f: OrderSearch, by: 'ref' | 'time') {
    // On the ref_id range no index may deliver the order: its rows are read and sorted.
    const createdAt = by === 'time' ? sql<number>`created_at` : this.unindexedCreatedAt();
    return this.searched(f, by).selectAll().orderBy(createdAt, 'desc').orderBy('id', 'desc');
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

/** ref_id starts with `prefix`, in characters (code points), as substr counts them on both stores. */
function startsWith(refId: RawBuilder<unknown>, prefix: string) {
  return sql<boolean>`substr(${refId}, 1, ${[...prefix].length}) = ${prefix}`;
}
