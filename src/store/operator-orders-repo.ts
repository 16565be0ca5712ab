import { type Kysely, type Selectable, type Transaction } from 'kysely';
import { SEARCH_MATCH_CAP } from '../domain/list-query.js';
import { REFUND_CEILING_MINOR } from '../domain/money.js';
import { orderCodePrefix, type OrderRecord, type OrderStatus } from '../domain/order.js';
import { isUniqueViolation } from './db.js';
import { toRecord } from './order-row.js';
import type { DB, OrdersTable } from './schema.js';

class NoLongerRefundable extends Error {}

/** A refund that lost a race (refundIn threw it, or the ledger's one-refund-per-order index did). */
export const lostRefundRace = (e: unknown) => e instanceof NoLongerRefundable || isUniqueViolation(e);

/** Operator order search: across resellers, any combination of filters. */
export interface OrderSearch {
  resellerId: string | null;
  refId: string | null;
  statuses: OrderStatus[] | null;
  from: number | null;
  to: number | null;
  needsAttention: boolean | null;
  limit: number;
  offset: number;
}

/** An order with what fulfilment knows about it (operator views only). */
export interface OrderFacts {
  order: OrderRecord;
  supplierId: string | null;
  supplierName: string | null;
  supplierSku: string | null;
  routesTried: number;
  needsAttention: boolean;
  checkerVerified: boolean;
  /** What the supplier said (serial number, message), kept for disputes. */
  supplierSerial: string | null;
  supplierMessage: string | null;
  /** Who placed it, as the operator knows the shop. */
  resellerName: string;
  resellerEmail: string;
}

export type ManualRefundResult =
  | { ok: true; before: OrderRecord; after: OrderRecord; balanceAfter: number }
  | { ok: false; current: OrderRecord | null; pastCeiling?: true };

/** The statuses an operator may refund from: failed is already refunded, refunded is final. */
export const MANUALLY_REFUNDABLE: readonly OrderStatus[] = ['processing', 'success'];

/** The operator's reads of orders across resellers, and the manual refund. */
export class OperatorOrdersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The id of the order named by its id or its ORD- code; null when none or (a code) not exactly one matches. */
  async idOf(idOrCode: string): Promise<string | null> {
    const prefix = orderCodePrefix(idOrCode);
    let q = this.db.selectFrom('orders').select('id').limit(2);
    q = prefix ? q.where('id', 'like', `${prefix}%`) : q.where('id', '=', idOrCode);
    const rows = await q.execute();
    return rows.length === 1 ? rows[0]!.id : null;
  }

  private searched(f: Omit<OrderSearch, 'limit' | 'offset'>) {
    let q = this.db.selectFrom('orders as o');
    if (f.resellerId !== null) q = q.where('o.reseller_id', '=', f.resellerId);
    if (f.refId !== null) q = q.where('o.ref_id', '=', f.refId);
    if (f.statuses) q = q.where('o.status', 'in', f.statuses);
    if (f.from !== null) q = q.where('o.created_at', '>=', f.from);
    if (f.to !== null) q = q.where('o.created_at', '<=', f.to);
    if (f.needsAttention !== null) q = q.where('o.needs_attention', '=', f.needsAttention ? 1 : 0);
    return q;
  }

  /**
   * Newest first, ties broken by id so pages are stable. The page is chosen on the
   * (created_at, id) index alone and only its rows are read (a deep offset skips index
   * entries, not rows); the count stops at SEARCH_MATCH_CAP + 1, so no search walks more
   * than that many orders however large the table (the service refuses pages past it).
   * The page's ids come first and its rows by id after, put back in the ids' order: in one
   * statement (a join ordered again), SQLite with a large table's statistics chose to walk
   * every order on the created_at index for the outer order and look each up in the page.
   */
  async search(f: OrderSearch): Promise<{ orders: OrderFacts[]; total: number; capped: boolean }> {
    const pageIds = async () => {
      const ids = (await this.searched(f).select('o.id').orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(f.limit).offset(f.offset).execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await this.db.selectFrom('orders as o').leftJoin('suppliers as s', 's.id', 'o.supplier_id').innerJoin('resellers as r', 'r.id', 'o.reseller_id')
        .selectAll('o').select(['s.name as supplier_name', 'r.name as reseller_name', 'r.email as reseller_email']).where('o.id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    };
    const [rows, count] = await Promise.all([
      pageIds(),
      this.db.selectFrom(this.searched(f).select('o.id').limit(SEARCH_MATCH_CAP + 1).as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const n = Number(count.n);
    return { orders: rows.map(toFacts), total: Math.min(n, SEARCH_MATCH_CAP), capped: n > SEARCH_MATCH_CAP };
  }

  async facts(id: string): Promise<OrderFacts | null> {
    const row = await this.db
      .selectFrom('orders as o')
      .leftJoin('suppliers as s', 's.id', 'o.supplier_id')
      .innerJoin('resellers as r', 'r.id', 'o.reseller_id')
      .selectAll('o')
      .select(['s.name as supplier_name', 'r.name as reseller_name', 'r.email as reseller_email'])
      .where('o.id', '=', id)
      .executeTakeFirst();
    return row ? toFacts(row) : null;
  }

  /**
   * The operator's manual refund, exactly once: a status-guarded update (only from
   * processing or success) then the wallet credit and its order_refund entry, in one
   * transaction. Concurrent refunds queue on the order row (PostgreSQL) or the single
   * writer (SQLite) and the losers match no row; the ledger's one-refund-per-order index
   * (unique reseller_id, order_seq, type) is the last line of defence. `inTrx` writes what
   * must commit with it: `first` before the order is read (an Idempotency-Key's claim),
   * `last` after the refund (the audit line, the key's answer).
   * completed_at is stamped only if still null; no callback job (callbacks are for success
   * and failed only).
   */
  async refundManually(
    orderId: string, note: string, now: number,
    inTrx: { first(trx: Transaction<DB>): Promise<void>; last(trx: Transaction<DB>, r: { before: OrderRecord; after: OrderRecord; balanceAfter: number }): Promise<void> },
  ): Promise<ManualRefundResult> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await inTrx.first(trx);
        const r = await OperatorOrdersRepo.refundIn(trx, orderId, note, now);
        if (r.ok) await inTrx.last(trx, r);
        return r;
      });
    } catch (e) {
      if (!(e instanceof NoLongerRefundable) && !isUniqueViolation(e)) throw e;
      const row = await this.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
      return { ok: false, current: row ? toRecord(row) : null };
    }
  }

  /**
   * The refund's writes in the caller's transaction (refundManually's, or an approved
   * four-eyes request's). Throws NoLongerRefundable (or the ledger's unique violation) when
   * the order was settled or refunded meanwhile: the caller's transaction must roll back.
   */
  static async refundIn(trx: Transaction<DB>, orderId: string, note: string, now: number): Promise<ManualRefundResult> {
    const row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!row) return { ok: false, current: null } as const;
    const before = toRecord(row);
    if (!(MANUALLY_REFUNDABLE as readonly string[]).includes(before.status)) return { ok: false, current: before } as const;
    // The reseller row first, like every writer of orders and balances (lock order,
    // docs/architecture.md): it serializes concurrent refunds and fulfilment of this order.
    const wallet = await trx
      .updateTable('resellers')
      .set((eb) => ({ balance: eb('balance', '+', before.price), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now }))
      .where('id', '=', before.resellerId)
      .where('balance', '<=', REFUND_CEILING_MINOR - before.price)
      .returning(['balance', 'ledger_seq'])
      .executeTakeFirst();
    if (!wallet) return { ok: false, current: before, pastCeiling: true } as const;
    const updated = await trx
      .updateTable('orders')
      .set((eb) => ({ status: 'refunded', completed_at: eb.fn.coalesce('completed_at', eb.val(now)), updated_at: now }))
      .where('id', '=', orderId)
      .where('status', 'in', [...MANUALLY_REFUNDABLE])
      .returningAll()
      .executeTakeFirst();
    // Settled or refunded by someone else meanwhile: undo the credit with the whole transaction.
    if (!updated) throw new NoLongerRefundable();
    const after = toRecord(updated);
    const balanceAfter = Number(wallet.balance);
    await trx
      .insertInto('ledger_entries')
      .values({ reseller_id: after.resellerId, type: 'order_refund', amount: after.price, balance_after: balanceAfter, order_id: orderId, note, created_at: now, seq: Number(wallet.ledger_seq), order_seq: Number(row.seq) })
      .execute();
    return { ok: true, before, after, balanceAfter } as const;
  }
}

function toFacts(r: Selectable<OrdersTable> & { supplier_name: string | null; reseller_name: string; reseller_email: string }): OrderFacts {
  return {
    resellerName: r.reseller_name, resellerEmail: r.reseller_email,
    order: toRecord(r), supplierId: r.supplier_id, supplierName: r.supplier_name, supplierSku: r.supplier_sku,
    routesTried: Number(r.routes_tried), needsAttention: Number(r.needs_attention) === 1, checkerVerified: Number(r.checker_verified) === 1,
    supplierSerial: r.supplier_serial, supplierMessage: r.supplier_message,
  };
}
