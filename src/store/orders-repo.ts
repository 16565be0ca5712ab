import type { Kysely, Selectable, Transaction } from 'kysely';
import type { OrderRecord, OrderStatus } from '../domain/order.js';
import { isUniqueViolation } from './db.js';
import { enqueueJob, JOB_KINDS } from './jobs-repo.js';
import type { DB, OrdersTable } from './schema.js';

export class DuplicateRefId extends Error {}
export class InsufficientBalance extends Error {
  constructor(readonly balance: number) {
    super('insufficient balance');
  }
}

export interface NewOrder {
  id: string;
  resellerId: string;
  refId: string;
  productCode: string;
  productName: string;
  categorySlug: string;
  target: string;
  zone: string | null;
  price: number;
  checkerVerified: boolean;
}

export interface OrderListFilter {
  resellerId: string;
  statuses: OrderStatus[] | null;
  from: number | null;
  to: number | null;
  limit: number;
  offset: number;
}

export class OrdersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async findByRef(resellerId: string, refId: string): Promise<OrderRecord | null> {
    const row = await this.db.selectFrom('orders').selectAll().where('reseller_id', '=', resellerId).where('ref_id', '=', refId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<OrderRecord | null> {
    const row = await this.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async refExists(resellerId: string, refId: string): Promise<boolean> {
    const row = await this.db.selectFrom('orders').select('id').where('reseller_id', '=', resellerId).where('ref_id', '=', refId).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The order transaction: the order row, the guarded wallet debit, its ledger entry and the
   * fulfilment job commit together or not at all. The order insert comes first so that
   * concurrent duplicates of one ref_id queue on the unique index and lose there, before
   * they ever touch the balance.
   */
  async placeWithDebit(o: NewOrder, now: number): Promise<OrderRecord> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('orders')
          .values({
            id: o.id, reseller_id: o.resellerId, ref_id: o.refId, product_code: o.productCode, product_name: o.productName,
            category_slug: o.categorySlug, target: o.target, zone: o.zone, price: o.price, status: 'processing',
            serial_number: null, failure_code: null, failure_reason: null, created_at: now, completed_at: null, updated_at: now,
            checker_verified: o.checkerVerified ? 1 : 0,
          })
          .execute();
        const debited = await trx
          .updateTable('resellers')
          .set((eb) => ({ balance: eb('balance', '-', o.price), updated_at: now }))
          .where('id', '=', o.resellerId)
          .where('balance', '>=', o.price)
          .returning('balance')
          .executeTakeFirst();
        if (!debited) {
          const current = await trx.selectFrom('resellers').select('balance').where('id', '=', o.resellerId).executeTakeFirst();
          throw new InsufficientBalance(Number(current?.balance ?? 0));
        }
        await trx
          .insertInto('ledger_entries')
          .values({ reseller_id: o.resellerId, type: 'order_debit', amount: -o.price, balance_after: Number(debited.balance), order_id: o.id, note: null, created_at: now })
          .execute();
        await enqueueJob(trx, { kind: JOB_KINDS.fulfilOrder, payload: { orderId: o.id }, runAt: now }, now);
        return {
          id: o.id, resellerId: o.resellerId, refId: o.refId, productCode: o.productCode, productName: o.productName,
          target: o.target, zone: o.zone, price: o.price, status: 'processing', serialNumber: null, failureCode: null,
          failureReason: null, createdAt: now, completedAt: null,
        } satisfies OrderRecord;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateRefId();
      throw e;
    }
  }

  private filtered(f: Omit<OrderListFilter, 'limit' | 'offset'>) {
    let q = this.db.selectFrom('orders').where('reseller_id', '=', f.resellerId);
    if (f.statuses) q = q.where('status', 'in', f.statuses);
    if (f.from !== null) q = q.where('created_at', '>=', f.from);
    if (f.to !== null) q = q.where('created_at', '<=', f.to);
    return q;
  }

  /**
   * Newest first; ties broken by id so pages are stable. The page is chosen on ids alone
   * (a deferred join): the offset walks the (reseller, created_at, id) index without
   * reading the rows it skips, and only the page's rows are fetched.
   */
  async list(f: OrderListFilter): Promise<{ orders: OrderRecord[]; total: number }> {
    const pageIds = this.filtered(f).select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset);
    const [rows, count] = await Promise.all([
      this.db.selectFrom('orders').selectAll().where('id', 'in', pageIds).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
      this.filtered(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { orders: rows.map(toRecord), total: Number(count.n) };
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

  /** Newest first, ties broken by id so pages are stable. */
  async search(f: OrderSearch): Promise<{ orders: OrderFacts[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.searched(f)
        .leftJoin('suppliers as s', 's.id', 'o.supplier_id')
        .selectAll('o')
        .select('s.name as supplier_name')
        .orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(f.limit).offset(f.offset)
        .execute(),
      this.searched(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { orders: rows.map(toFacts), total: Number(count.n) };
  }

  async facts(id: string): Promise<OrderFacts | null> {
    const row = await this.db
      .selectFrom('orders as o')
      .leftJoin('suppliers as s', 's.id', 'o.supplier_id')
      .selectAll('o')
      .select('s.name as supplier_name')
      .where('o.id', '=', id)
      .executeTakeFirst();
    return row ? toFacts(row) : null;
  }

  /**
   * The operator's manual refund, exactly once: a status-guarded update (only from
   * processing or success) then the wallet credit and its order_refund entry, in one
   * transaction. Concurrent refunds queue on the order row (PostgreSQL) or the single
   * writer (SQLite) and the losers match no row; the unique (order_id, type) ledger index
   * is the last line of defence. `inTrx` writes what must commit with it (the audit line).
   * completed_at is stamped only if still null; no callback job (callbacks are for success
   * and failed only).
   */
  async refundManually(
    orderId: string, note: string, now: number,
    inTrx: (trx: Transaction<DB>, r: { before: OrderRecord; after: OrderRecord; balanceAfter: number }) => Promise<void>,
  ): Promise<ManualRefundResult> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
        if (!row) return { ok: false, current: null } as const;
        const before = toRecord(row);
        const updated = await trx
          .updateTable('orders')
          .set((eb) => ({ status: 'refunded', completed_at: eb.fn.coalesce('completed_at', eb.val(now)), updated_at: now }))
          .where('id', '=', orderId)
          .where('status', 'in', [...MANUALLY_REFUNDABLE])
          .returningAll()
          .executeTakeFirst();
        if (!updated) {
          const current = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
          return { ok: false, current: toRecord(current) } as const;
        }
        const after = toRecord(updated);
        const wallet = await trx
          .updateTable('resellers')
          .set((eb) => ({ balance: eb('balance', '+', after.price), updated_at: now }))
          .where('id', '=', after.resellerId)
          .returning('balance')
          .executeTakeFirstOrThrow();
        const balanceAfter = Number(wallet.balance);
        await trx
          .insertInto('ledger_entries')
          .values({ reseller_id: after.resellerId, type: 'order_refund', amount: after.price, balance_after: balanceAfter, order_id: orderId, note, created_at: now })
          .execute();
        await inTrx(trx, { before, after, balanceAfter });
        return { ok: true, before, after, balanceAfter } as const;
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      return { ok: false, current: await this.findById(orderId) };
    }
  }
}

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
}

export type ManualRefundResult =
  | { ok: true; before: OrderRecord; after: OrderRecord; balanceAfter: number }
  | { ok: false; current: OrderRecord | null };

/** The statuses an operator may refund from: failed is already refunded, refunded is final. */
export const MANUALLY_REFUNDABLE: readonly OrderStatus[] = ['processing', 'success'];

export function toRecord(r: Selectable<OrdersTable>): OrderRecord {
  return {
    id: r.id, resellerId: r.reseller_id, refId: r.ref_id, productCode: r.product_code, productName: r.product_name,
    target: r.target, zone: r.zone, price: Number(r.price), status: r.status, serialNumber: r.serial_number,
    failureCode: r.failure_code, failureReason: r.failure_reason, createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

function toFacts(r: Selectable<OrdersTable> & { supplier_name: string | null }): OrderFacts {
  return {
    order: toRecord(r), supplierId: r.supplier_id, supplierName: r.supplier_name, supplierSku: r.supplier_sku,
    routesTried: Number(r.routes_tried), needsAttention: Number(r.needs_attention) === 1, checkerVerified: Number(r.checker_verified) === 1,
  };
}
