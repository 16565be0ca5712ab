import type SQLite from 'better-sqlite3';
import { REFUND_CEILING_MINOR } from '../domain/money.js';
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { ORDER_STATUSES, TERMINAL_STATUSES, type OrderRecord, type OrderStatus } from '../domain/order.js';
import { isUniqueViolation, type Dialect } from './db.js';
import { enqueueJob, JOB_KINDS } from './jobs-repo.js';
import { fulfilPayload } from './job-kinds.js';
import { OrderGroupQueue } from './order-group-queue.js';
import type { OrderWriterThread } from './order-writer-thread.js';
import { ALL_ORDERS, type DB, type OrdersTable } from './schema.js';
import { REF_LOOKUP_SQL, sqliteOrderGroup, type GroupOrder, type OrderAnswer } from './sqlite-order-group.js';

export class DuplicateRefId extends Error {}
class NoLongerRefundable extends Error {}
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

export interface OrderListFilter {
  resellerId: string;
  statuses: OrderStatus[] | null;
  from: number | null;
  to: number | null;
  limit: number;
  offset: number;
}

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

  private filtered(f: Omit<OrderListFilter, 'limit' | 'offset'>) {
    let q = this.db.selectFrom('orders').where('reseller_id', '=', f.resellerId);
    if (f.statuses) q = q.where('status', 'in', f.statuses);
    if (f.from !== null) q = q.where('created_at', '>=', f.from);
    if (f.to !== null) q = q.where('created_at', '<=', f.to);
    return q;
  }

  /**
   * Newest first. Unfiltered (the common case): the reseller's order_seq is the exact total
   * and the page is a seq range on the (reseller_id, seq) index, read in the same statement,
   * so page 20,000 costs what page 1 costs. Filtered: the page walks the (reseller,
   * [status,] created_at, id) index (pageRows); the exact total comes from countMatching(),
   * or on a deep page from the bucket sums that find where the page starts (deepPageStart).
   */
  async list(f: OrderListFilter): Promise<{ orders: OrderRecord[]; total: number }> {
    if (!f.statuses && f.from === null && f.to === null) {
      // One statement: the counter (an uncorrelated subquery: no join for the planner to
      // misjudge) and the page below it on the (reseller_id, seq) index. Past the last page there is no row to carry the
      // counter, and it is read alone.
      const counter = this.db.selectFrom('resellers').select('order_seq').where('id', '=', f.resellerId);
      const rows = await this.db
        .selectFrom('orders')
        .selectAll()
        .select(counter.as('page_total'))
        .where('reseller_id', '=', f.resellerId)
        .where('seq', '<=', sql<number>`${counter} - ${f.offset}`)
        .orderBy('seq', 'desc')
        .limit(f.limit)
        .execute();
      const total = Number(rows[0] ? rows[0].page_total : ((await counter.executeTakeFirst())?.order_seq ?? 0));
      return { orders: rows.map(toRecord), total };
    }
    if (f.offset >= BUCKET_SKIP_FROM_OFFSET) {
      const deep = await this.deepPageStart(f);
      if (deep) return { orders: deep.start ? (await this.pageRows(f, deep.start)).map(toRecord) : [], total: deep.total };
    }
    // One statement, as unfiltered: the rows carry the exact total (PostgreSQL: one round
    // trip where the page and the count's parts were up to four in parallel, each a
    // connection, a wake-up and a statement of its own). Past the last page it is read alone.
    const rows = await this.pageRows(f, { to: f.to, offset: f.offset }, this.matchCount(f));
    return { orders: rows.map(toRecord), total: rows[0] ? Number(rows[0].page_total) : await this.countMatching(f) };
  }

  /**
   * The filter's page that starts `start.offset` matches below `start.to`, newest first;
   * with `total`, each row carries it as page_total.
   */
  private pageRows(f: OrderListFilter, start: PageStart, total?: RawBuilder<number | string>) {
    const page = this.filtered({ ...f, to: start.to }).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(start.offset);
    // PostgreSQL: the index scan reads the rows in index order, and a reseller's rows of one
    // hour lie together in the heap (inserted in time order). A join back by id went
    // through the random-keyed primary key instead: 206 buffers against 13 for page 1,
    // 219 against 90 for a deep page (1.1–1.3 ms → 0.7–0.8 ms a query).
    if (this.dialect !== 'sqlite') return page.selectAll().$if(total !== undefined, (q) => q.select(total!.as('page_total'))).execute();
    // SQLite: a deferred join on the row's address. The skipped entries are read from the
    // index only, and each page row is one table seek by rowid (by id it would be a seek in
    // the random-keyed id index first: twice the page reads).
    return this.db.selectFrom('orders').selectAll().$if(total !== undefined, (q) => q.select(total!.as('page_total'))).where(sql<number>`rowid`, 'in', page.select(sql<number>`rowid`.as('k'))).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /**
   * Where a deep filtered page starts, and the exact total, without walking every entry
   * newer than the page: the range's partial edge hours (times inside an hour) are counted
   * on the index; the whole UTC hours between are summed from order_counts by day, newest
   * first, which gives the total and the day the page starts in; that day's hours give the
   * hour. The page then walks at most one hour's entries, at any depth. Null for a range
   * inside one hour (walking it is already bounded). `start` is null past the last match.
   *
   * Days, then hours: two small grouped reads (~90 µs on SQLite for 30 days) where one
   * running sum over every hour (a window function) cost ~195 µs and the total another 40.
   */
  private async deepPageStart(f: OrderListFilter): Promise<{ total: number; start: PageStart | null } | null> {
    const parts = this.rangeParts(f);
    if (!parts) return null;
    const { first, last } = parts;
    const count = (q: ReturnType<OrdersRepo['indexCount']> | null) => (q ? q.executeTakeFirstOrThrow().then((r) => Number(r.n)) : 0);
    // Three statements, not one with the edges as columns of the day rows: PostgreSQL plans
    // that one for its values on every run (~0.4 ms; its generic plan is estimated dearer),
    // where these three settle on generic plans (prepared statements, pg-prepared.ts).
    const [newer, days, older] = await Promise.all([count(parts.newer), this.bucketSums(f, first, last, HOURS_PER_DAY), count(parts.older)]);
    const whole = days.reduce((sum, d) => sum + d.n, 0);
    const total = newer + whole + older;
    let left = f.offset;
    if (left < newer) return { total, start: { to: f.to, offset: left } };
    left -= newer;
    const day = bucketHolding(days, left);
    if (!day) {
      left -= whole;
      return { total, start: left < older ? { to: first! * BUCKET_MS - 1, offset: left } : null };
    }
    const dayFirst = day.bucket * HOURS_PER_DAY;
    const hours = await this.bucketSums(f, Math.max(first ?? dayFirst, dayFirst), Math.min(last ?? Infinity, dayFirst + HOURS_PER_DAY - 1), 1);
    const hour = bucketHolding(hours, left - day.before)!;
    return { total, start: { to: (hour.bucket + 1) * BUCKET_MS - 1, offset: left - day.before - hour.before } };
  }

  /**
   * PostgreSQL: folds order_counts' shards (migration 013) of the hours before the last
   * two into shard 0, so a long range sums about one row an hour and status. One statement:
   * exact against concurrent settlements (one counting into a row being folded waits for
   * its lock, then inserts a row of its own, folded next time). Returns the rows folded.
   */
  async foldCountShards(now: number): Promise<number> {
    if (this.dialect !== 'postgres') return 0;
    const before = Math.floor(now / BUCKET_MS) - 1;
    const { rows } = await sql<{ folded: number | string }>`
      with gone as (
        delete from order_counts where shard <> 0 and hour < ${before} returning reseller_id, hour, status, n
      ), summed as (
        insert into order_counts (reseller_id, hour, status, shard, n)
        select reseller_id, hour, status, 0, sum(n) from gone group by reseller_id, hour, status
        on conflict (reseller_id, hour, status, shard) do update set n = order_counts.n + excluded.n
      )
      select count(*) as folded from gone`.execute(this.db);
    return Number(rows[0]?.folded ?? 0);
  }

  /** Matches in whole hours [first, last] from order_counts, summed by `hoursEach` hours, newest first. */
  private async bucketSums(f: OrderListFilter, first: number | null, last: number | null, hoursEach: number): Promise<{ bucket: number; n: number }[]> {
    const bucket = hoursEach === 1 ? sql<number>`hour` : sql<number>`hour / ${sql.lit(hoursEach)}`;
    const { rows: q, n } = this.buckets(f, first, last);
    const rows = await q.select([bucket.as('bucket'), n.as('n')]).groupBy(bucket).orderBy(bucket, 'desc').execute();
    return rows.map((r) => ({ bucket: Number(r.bucket), n: Number(r.n) }));
  }

  /**
   * The order_counts rows of the filter's reseller and statuses in hours [first, last], and
   * the sum that counts the matches in them. Terminal statuses have rows of their own;
   * `processing` is all orders (`*`) minus the terminal statuses the filter leaves out
   * (migration 012).
   */
  private buckets(f: Omit<OrderListFilter, 'limit' | 'offset'>, first: number | null, last: number | null) {
    let rows = this.db.selectFrom('order_counts').where('reseller_id', '=', f.resellerId);
    const statuses = f.statuses ?? ORDER_STATUSES;
    const signed = statuses.includes('processing');
    rows = rows.where('status', 'in', signed ? [ALL_ORDERS, ...TERMINAL_STATUSES.filter((s) => !statuses.includes(s))] : statuses);
    if (first !== null) rows = rows.where('hour', '>=', first);
    if (last !== null) rows = rows.where('hour', '<=', last);
    const n = signed ? sql<number | string | null>`sum(case when status = ${ALL_ORDERS} then n else -n end)` : sql<number | string | null>`sum(n)`;
    return { rows, n };
  }

  /** Matches in whole hours [first, last], from order_counts: a one-value query (null for none). */
  private bucketSum(f: Omit<OrderListFilter, 'limit' | 'offset'>, first: number | null, last: number | null) {
    const { rows, n } = this.buckets(f, first, last);
    return rows.select(n.as('n'));
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
   * writer (SQLite) and the losers match no row; the ledger's one-refund-per-order index
   * (unique reseller_id, order_seq, type) is the last line of defence. `inTrx` writes what
   * must commit with it (the audit line).
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
        await inTrx(trx, { before, after, balanceAfter });
        return { ok: true, before, after, balanceAfter } as const;
      });
    } catch (e) {
      if (!(e instanceof NoLongerRefundable) && !isUniqueViolation(e)) throw e;
      return { ok: false, current: await this.findById(orderId) };
    }
  }
  /**
   * Exact count of a filtered list. Whole UTC hours inside the range are summed from
   * order_counts (kept by triggers in the writing transactions: at most 2,160 rows a status
   * for the longest range); only the partial hours at the edges of a range given with
   * times are counted on the index, so the cost is bounded by one hour's orders, never by
   * the history.
   */
  async countMatching(f: Omit<OrderListFilter, 'limit' | 'offset'>): Promise<number> {
    const r = await this.db.selectNoFrom(this.matchCount(f).as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** countMatching's count as one SQL expression: the sum of its parts' one-value subqueries. */
  private matchCount(f: Omit<OrderListFilter, 'limit' | 'offset'>): RawBuilder<number | string> {
    if ((f.from ?? 0) > (f.to ?? Number.MAX_SAFE_INTEGER)) return sql`0`;
    const parts = this.rangeParts(f);
    // Inside one hour (both bounds given): counted on the index.
    if (!parts) return sql`${this.indexCount(f, f.from!, f.to!)}`;
    const edges = [parts.newer, parts.older].filter((q) => q !== null).map((q) => sql`${q}`);
    return sql.join([sql`coalesce(${this.bucketSum(f, parts.first, parts.last)}, 0)`, ...edges], sql` + `);
  }

  /**
   * A range's whole UTC hours [first, last] (null: unbounded), whose matches order_counts
   * holds, and the one-value queries counting its partial edge hours' matches on the index,
   * newer and older (null where the range has no such edge). Null for a range inside one hour.
   */
  private rangeParts(f: Omit<OrderListFilter, 'limit' | 'offset'>) {
    const { first, last } = wholeBuckets(f.from, f.to);
    if (first !== null && last !== null && first > last) return null;
    const edge = (on: boolean, from: number, to: number) => (on ? this.indexCount(f, from, to) : null);
    return {
      first,
      last,
      newer: edge(f.to !== null && f.to >= (last! + 1) * BUCKET_MS, (last! + 1) * BUCKET_MS, f.to!),
      older: edge(f.from !== null && f.from < first! * BUCKET_MS, f.from!, first! * BUCKET_MS - 1),
    };
  }

  /** Matches of the filter with created_at in [from, to], counted on the index: a one-value query. */
  private indexCount(f: Omit<OrderListFilter, 'limit' | 'offset'>, from: number, to: number) {
    return this.filtered({ ...f, from, to }).select((eb) => eb.fn.countAll<number>().as('n'));
  }
}

/** The order_counts bucket: one UTC hour (migration 008; its rows since 012: see buckets()). */
const BUCKET_MS = 3_600_000;
/** Below this offset a filtered page walks its index; from it on, whole hours are skipped by their counts. */
const BUCKET_SKIP_FROM_OFFSET = 1_000;
const HOURS_PER_DAY = 24;

/** A page's start: `offset` matches below the upper bound `to` (null: unbounded). */
interface PageStart {
  to: number | null;
  offset: number;
}

/** The bucket (newest first) holding the match `left` matches below the newest, and the matches before it. */
function bucketHolding(buckets: { bucket: number; n: number }[], left: number): { bucket: number; before: number } | null {
  let before = 0;
  for (const b of buckets) {
    if (left < before + b.n) return { bucket: b.bucket, before };
    before += b.n;
  }
  return null;
}

/** The first and last buckets lying wholly inside [from, to] (null: unbounded on that side). */
function wholeBuckets(from: number | null, to: number | null): { first: number | null; last: number | null } {
  return { first: from === null ? null : Math.ceil(from / BUCKET_MS), last: to === null ? null : Math.floor((to + 1) / BUCKET_MS) - 1 };
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
  | { ok: false; current: OrderRecord | null; pastCeiling?: true };

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
