import { sql, type Kysely } from 'kysely';
import { ALL_ORDERS, type DB } from './schema.js';

export interface StatusRow { key: number | string; status: string; n: number }

/**
 * The operator's home page reads, each bounded by something other than the number of
 * orders: order_counts (per reseller and UTC hour, kept by triggers), the
 * (reseller_id, status, created_at) index for processing orders, and small tables.
 */
export class OverviewRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Orders by UTC hour and status (`*`: all) for hours >= fromHour. */
  async countsByHour(fromHour: number): Promise<StatusRow[]> {
    const rows = await this.db
      .selectFrom('order_counts')
      .select(['hour', 'status', sql<number | string>`sum(n)`.as('n')])
      .where('hour', '>=', fromHour)
      .groupBy(['hour', 'status'])
      .execute();
    return rows.map((r) => ({ key: Number(r.hour), status: r.status, n: Number(r.n) }));
  }

  /** Orders by reseller and status (`*`: all) for hours >= fromHour: who has processing orders. */
  async countsByReseller(fromHour: number): Promise<StatusRow[]> {
    const rows = await this.db
      .selectFrom('order_counts')
      .select(['reseller_id', 'status', sql<number | string>`sum(n)`.as('n')])
      .where('hour', '>=', fromHour)
      .groupBy(['reseller_id', 'status'])
      .execute();
    return rows.map((r) => ({ key: r.reseller_id, status: r.status, n: Number(r.n) }));
  }

  /** The oldest processing order and how many need attention, among these resellers (index seeks). */
  async processingOf(resellerIds: string[]): Promise<{ oldest: number | null; attention: number }> {
    if (resellerIds.length === 0) return { oldest: null, attention: 0 };
    const r = await this.db
      .selectFrom('orders')
      .select([sql<number | string | null>`min(created_at)`.as('oldest'), sql<number | string | null>`sum(needs_attention)`.as('attention')])
      .where('reseller_id', 'in', resellerIds)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return { oldest: r?.oldest == null ? null : Number(r.oldest), attention: Number(r?.attention ?? 0) };
  }

  /**
   * Of these resellers' orders placed since `since` and refunded by hand, those the supplier
   * had delivered (they keep their serial number): index seeks, refunds by hand being few.
   */
  async deliveredThenRefunded(resellerIds: string[], since: number): Promise<number> {
    if (resellerIds.length === 0) return 0;
    const r = await this.db
      .selectFrom('orders')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('reseller_id', 'in', resellerIds)
      .where('status', '=', 'refunded')
      .where('created_at', '>=', since)
      .where('serial_number', 'is not', null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Callback rounds still retrying after a failed attempt, and rounds given up since `since`. */
  async failingCallbacks(since: number): Promise<{ retrying: number; failed: number }> {
    const r = await this.db
      .selectFrom('callback_deliveries')
      .select([
        sql<number | string>`sum(case when status = 'pending' and attempts > 0 then 1 else 0 end)`.as('retrying'),
        sql<number | string>`sum(case when status = 'failed' and updated_at >= ${since} then 1 else 0 end)`.as('failed'),
      ])
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'failed'), eb('updated_at', '>=', since)])]))
      .executeTakeFirst();
    return { retrying: Number(r?.retrying ?? 0), failed: Number(r?.failed ?? 0) };
  }

  /** Every supplier with its health (a handful of rows). */
  async suppliers() {
    return this.db
      .selectFrom('suppliers as s')
      .leftJoin('supplier_health as h', 'h.supplier_id', 's.id')
      .select(['s.id', 's.name', 's.enabled', 's.status', 's.balance', 's.balance_flagged_at', 'h.consecutive_failures', 'h.last_error', 'h.updated_at', 'h.breaker'])
      .orderBy('s.name')
      .execute();
  }

  /** Open attention items besides orders (migration 020; the open index). */
  async openAttentionItems(): Promise<number> {
    const r = await this.db.selectFrom('attention_items').select(sql<number | string>`count(*)`.as('n')).where('resolved_at', 'is', null).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** What every reseller holds in its wallet (minor units): the platform's liability. */
  async balanceSum(): Promise<number> {
    const r = await this.db.selectFrom('resellers').select(sql<number | string | null>`sum(balance)`.as('total')).executeTakeFirst();
    return Number(r?.total ?? 0);
  }
}

export { ALL_ORDERS };
