import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OrderRecord } from '../domain/order.js';
import { isUniqueViolation, type Dialect } from './db.js';
import { enqueueJob, JOB_KINDS } from './jobs-repo.js';
import { fulfilPayload } from './job-kinds.js';
import { OrderGroupQueue } from './order-group-queue.js';
import { toRecord } from './order-row.js';
import type { OrderWriterThread } from './order-writer-thread.js';
import type { DB } from './schema.js';
import { REF_LOOKUP_SQL, sqliteOrderGroup, type GroupOrder, type OrderAnswer } from './sqlite-order-group.js';

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
  /** The placing request's id (logs only; carried in the fulfilment job's payload). */
  requestId?: string;
}

/**
 * Placing orders (group commit) and finding one by id or ref. A reseller's order history
 * is order-history-repo.ts; the operator's search and manual refund, operator-orders-repo.ts.
 */
export class OrdersRepo {
  async findByRef(resellerId: string, refId: string): Promise<OrderRecord | null> {
    const row = await this.db.selectFrom('orders').selectAll().where('reseller_id', '=', resellerId).where('ref_id', '=', refId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<OrderRecord | null> {
    const row = await this.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async refExists(resellerId: string, refId: string): Promise<boolean> {
    const sqliteRef = this.sqliteRef;
    // Asked before any refusal of an order (PlaceOrder): on SQLite a kept prepared statement.
    if (sqliteRef) return this.db.connection().execute(async () => sqliteRef.get(resellerId, refId) !== undefined);
    const row = await this.db.selectFrom('orders').select('id').where('reseller_id', '=', resellerId).where('ref_id', '=', refId).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Group commit: concurrent orders are committed together in small groups (one
   * transaction, one WAL flush / fsync for the group), each inside its own savepoint, so
   * every order keeps its own ref_id uniqueness, guarded debit and exact error: an order
   * that fails rolls back to its savepoint and the others commit. If the group's
   * transaction itself fails (a deadlock, a lost connection), nothing of it committed, and
   * each order is retried alone. On SQLite (one writer) one group runs at a time; on
   * PostgreSQL a few, never two of one reseller at once (OrderGroupQueue). A group locks
   * its resellers in id order.
   *
   * How a group runs (the order transaction is the same statements everywhere, see placeIn):
   * - SQLite: prepared statements run synchronously inside one better-sqlite3 transaction,
   *   each order in a nested transaction (a savepoint); no Kysely query building, no await
   *   between statements (sqlite-order-group.ts). In the service it runs on the order
   *   writer thread's own connection (threads/sqlite-order-writer.ts), so the event loop
   *   goes on with HTTP and the worker while a group commits; without that thread, on
   *   the service's connection, holding Kysely's connection mutex meanwhile.
   * - PostgreSQL: one call of `topup_place_orders(jsonb)` (migration 007), one round trip
   *   and one commit for the group; each order runs in its own exception block (a
   *   subtransaction: the savepoint, server-side) and the function answers each order's
   *   outcome. Round trips per order while holding the hot reseller's row lock were what
   *   bounded one reseller's order rate.
   * - Otherwise (no raw handle, e.g. a test building the repo on Kysely alone): Kysely,
   *   a savepoint per order.
   */
  private readonly queue = new OrderGroupQueue<QueuedOrder>();
  private running = 0;
  private pumpScheduled = false;
  /** Groups run and the orders they held, since start: how well group commit groups. */
  readonly groupStats = { groups: 0, orders: 0 };
  private readonly sqliteGroup: ((batch: GroupOrder[]) => OrderAnswer[]) | null;
  private readonly orderWriter: OrderWriterThread | null;
  private readonly sqliteRef: SQLite.Statement | null;
  private readonly dialect: Dialect | null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly group: { maxSize: number; concurrency: number } = { maxSize: 32, concurrency: 1 },
    store?: { dialect: Dialect; sqlite?: SQLite.Database; orderWriter?: OrderWriterThread },
  ) {
    this.sqliteGroup = store?.sqlite ? sqliteOrderGroup(store.sqlite) : null;
    this.orderWriter = store?.orderWriter ?? null;
    this.sqliteRef = store?.sqlite ? store.sqlite.prepare(REF_LOOKUP_SQL) : null;
    this.dialect = store?.dialect ?? null;
  }

  placeWithDebit(o: NewOrder, now: number): Promise<OrderRecord> {
    return new Promise((resolve, reject) => {
      this.queue.push({ o, now, resolve, reject });
      this.schedule();
    });
  }

  /**
   * A SQLite group started at once would hold one order: the requests read in the same
   * turn of the event loop have not queued yet (and a group on the service's connection
   * runs synchronously, so none can arrive meanwhile). It starts after this turn instead
   * (setImmediate), once they have.
   */
  private schedule() {
    if (!this.sqliteGroup) return this.pump();
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.group.concurrency && this.queue.length > 0) {
      const batch = this.queue.take(this.group.maxSize);
      if (batch.length === 0) return; // every waiting order's reseller has a group in flight
      this.groupStats.groups++;
      this.groupStats.orders += batch.length;
      this.running++;
      void this.commitGroup(batch).finally(() => {
        this.queue.done(batch);
        this.running--;
        this.pump();
      });
    }
  }

  private async commitGroup(batch: QueuedOrder[]) {
    batch.sort((x, y) => (x.o.resellerId < y.o.resellerId ? -1 : x.o.resellerId > y.o.resellerId ? 1 : 0));
    let outcomes: Outcome[];
    try {
      outcomes = await this.runGroup(batch);
    } catch (e) {
      // Alone already: its own error is the answer.
      if (batch.length === 1) return batch[0]!.reject(mapOrderError(e));
      // Nothing of the group committed: each order on its own, with its own answer.
      await Promise.all(batch.map((item) => this.runGroup([item]).then((r) => settle(item, r[0]!), (err) => item.reject(mapOrderError(err)))));
      return;
    }
    outcomes.forEach((r, i) => settle(batch[i]!, r));
  }

  private async runGroup(batch: QueuedOrder[]): Promise<Outcome[]> {
    const answers = await this.groupAnswers(batch);
    if (answers) return answers.map((a, i) => outcome(batch[i]!, a));
    return this.db.transaction().execute(async (trx) => {
      const out: Outcome[] = [];
      for (const item of batch) {
        await sql`savepoint one_order`.execute(trx);
        try {
          out.push({ ok: await placeIn(trx, item.o, item.now) });
          await sql`release savepoint one_order`.execute(trx);
        } catch (e) {
          await sql`rollback to savepoint one_order`.execute(trx);
          await sql`release savepoint one_order`.execute(trx);
          out.push({ err: mapOrderError(e) });
        }
      }
      return out;
    });
  }

  /** The group as one statement batch, where the store has one (null: Kysely's path). */
  private groupAnswers(batch: QueuedOrder[]): Promise<OrderAnswer[]> | null {
    const sqliteGroup = this.sqliteGroup;
    const writer = this.orderWriter;
    // Only data crosses to the writer thread (a queued order also holds its promise's
    // resolve and reject).
    if (writer?.alive) return writer.run(batch.map(({ o, now }) => ({ o, now })));
    if (sqliteGroup) return this.db.connection().execute(async () => sqliteGroup(batch));
    if (this.dialect === 'postgres') return postgresOrderGroup(this.db, batch);
    return null;
  }
}

/**
 * The order transaction: the guarded wallet debit (which also takes the order's and the
 * ledger entry's per-reseller sequence numbers), the order row, its ledger entry and the
 * fulfilment job commit together or not at all. The debit comes first: every order of a
 * reseller takes that reseller's row lock before anything else, so concurrent orders of
 * one reseller are serialized there (a duplicate ref_id then fails on the unique index,
 * or, when the balance is short, is recognized as a duplicate before INSUFFICIENT_BALANCE).
 */
async function placeIn(trx: Transaction<DB>, o: NewOrder, now: number): Promise<OrderRecord> {
  const debited = await trx
    .updateTable('resellers')
    .set((eb) => ({ balance: eb('balance', '-', o.price), order_seq: eb('order_seq', '+', 1), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now }))
    .where('id', '=', o.resellerId)
    .where('balance', '>=', o.price)
    .returning(['balance', 'order_seq', 'ledger_seq'])
    .executeTakeFirst();
  if (!debited) {
    // Same answer as before the reorder: a duplicate is a duplicate even when broke.
    const dup = await trx.selectFrom('orders').select('id').where('reseller_id', '=', o.resellerId).where('ref_id', '=', o.refId).executeTakeFirst();
    if (dup) throw new DuplicateRefId();
    const current = await trx.selectFrom('resellers').select('balance').where('id', '=', o.resellerId).executeTakeFirst();
    throw new InsufficientBalance(Number(current?.balance ?? 0));
  }
  await trx
    .insertInto('orders')
    .values({
      id: o.id, reseller_id: o.resellerId, ref_id: o.refId, product_code: o.productCode, product_name: o.productName,
      category_slug: o.categorySlug, target: o.target, zone: o.zone, price: o.price, status: 'processing',
      serial_number: null, failure_code: null, failure_reason: null, created_at: now, completed_at: null, updated_at: now,
      checker_verified: o.checkerVerified ? 1 : 0, seq: Number(debited.order_seq),
    })
    .execute();
  await trx
    .insertInto('ledger_entries')
    .values({ reseller_id: o.resellerId, type: 'order_debit', amount: -o.price, balance_after: Number(debited.balance), order_id: o.id, note: null, created_at: now, seq: Number(debited.ledger_seq), order_seq: Number(debited.order_seq) })
    .execute();
  await enqueueJob(trx, { kind: JOB_KINDS.fulfilOrder, payload: fulfilPayload(o.id, o.requestId), runAt: now }, now);
  return {
    id: o.id, resellerId: o.resellerId, refId: o.refId, productCode: o.productCode, productName: o.productName,
    target: o.target, zone: o.zone, price: o.price, status: 'processing', serialNumber: null, failureCode: null,
    failureReason: null, createdAt: now, completedAt: null,
  } satisfies OrderRecord;
}

type QueuedOrder = GroupOrder & { resolve: (r: OrderRecord) => void; reject: (e: unknown) => void };
type Outcome = { ok: OrderRecord } | { err: unknown };

function settle(item: QueuedOrder, r: Outcome) {
  if ('ok' in r) item.resolve(r.ok);
  else item.reject(r.err);
}

const placedRecord = (o: NewOrder, now: number): OrderRecord => ({
  id: o.id, resellerId: o.resellerId, refId: o.refId, productCode: o.productCode, productName: o.productName,
  target: o.target, zone: o.zone, price: o.price, status: 'processing', serialNumber: null, failureCode: null,
  failureReason: null, createdAt: now, completedAt: null,
});

/** The group on PostgreSQL: one call of topup_place_orders (migration 007), one commit. */
async function postgresOrderGroup(db: Kysely<DB>, batch: GroupOrder[]): Promise<OrderAnswer[]> {
  const input = batch.map(({ o, now }) => ({
    id: o.id, reseller_id: o.resellerId, ref_id: o.refId, product_code: o.productCode, product_name: o.productName,
    category_slug: o.categorySlug, target: o.target, zone: o.zone, price: o.price, now,
    checker_verified: o.checkerVerified ? 1 : 0, job_kind: JOB_KINDS.fulfilOrder, job_payload: JSON.stringify(fulfilPayload(o.id, o.requestId)),
  }));
  // jsonb refuses a lone surrogate's \u escape; as a text parameter the driver's UTF-8
  // encoding stores U+FFFD for it, so the same replacement keeps the stored text as before.
  const json = JSON.stringify(input, (_k, v: unknown) => (typeof v === 'string' ? (v as string & { toWellFormed(): string }).toWellFormed() : v));
  const { rows } = await sql<{ r: OrderAnswer[] }>`select topup_place_orders(${json}::jsonb) as r`.execute(db);
  const results = rows[0]!.r;
  if (results.length !== batch.length) throw new Error(`topup_place_orders answered ${results.length} outcomes for ${batch.length} orders`);
  return results;
}

/** An order's answer from a group (SQLite's or PostgreSQL's) as the repo's outcome. */
function outcome({ o, now }: GroupOrder, a: OrderAnswer): Outcome {
  if (a.e === undefined) return { ok: placedRecord(o, now) };
  if (a.e === 'dup') return { err: new DuplicateRefId() };
  if (a.e === 'balance') return { err: new InsufficientBalance(Number(a.balance ?? 0)) };
  return { err: Object.assign(new Error(a.message), { code: a.code }) };
}

function mapOrderError(e: unknown): unknown {
  return isUniqueViolation(e) ? new DuplicateRefId() : e;
}
