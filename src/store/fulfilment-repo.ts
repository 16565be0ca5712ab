import { randomUUID } from 'node:crypto';
import { REFUND_CEILING_MINOR } from '../domain/money.js';
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Failure } from '../domain/failure.js';
import { parseRouteOptions, type RouteOptions } from '../domain/route-options.js';
import { SupplierBreakerRepo } from './supplier-breaker-repo.js';
import type { BreakerSettings, BreakerState } from '../domain/supplier-breaker.js';
import { heldJob, type HandedOffJob, type Job } from '../worker/job-contract.js';
import type { Dialect } from './db.js';
import { callbackGroupKeyOf, callbackJob, completeJob, enqueueCallback, JOB_KINDS, jobRow } from './jobs-repo.js';
import { newestKeySecret, openDelivery, readTarget, type Delivery, type PreparedCallback } from './callbacks-repo.js';
import { toRecord } from './order-row.js';
import type { DB, OrdersTable } from './schema.js';

interface SettledExtras {
  job_id: number | string;
  job_group_key: string;
  target_url: string | null;
  target_secret: string | null;
  /** The opened delivery as JSON (its bigints fit in JSON numbers: epoch ms, counts). */
  delivery: Delivery | null;
}

/** What the supplier said about an order, kept on it for disputes (the operator sees it; a reseller never does). */
export interface SupplierSaid {
  serial?: string | null;
  message?: string | null;
  /** What the delivering attempt cost (success only), minor units; null: not known. */
  cost?: number | null;
}

/** The job settling an order: its lease (if the runner gave one) and its row. */
export type SettlingJob = Pick<Job, 'id' | 'lease'> & { payload?: { requestId?: string } };

/** A settled order's callback job, and whether the settling job's row went with it (JobOutcome.written). */
export interface Settled {
  callback: HandedOffJob;
  jobDone: boolean;
}

export interface FulfilmentOrder {
  id: string;
  resellerId: string;
  status: string;
  productCode: string;
  target: string;
  zone: string | null;
  price: number;
  kind: 'instant' | 'voucher';
  limitGated: boolean;
  checkerVerified: boolean;
  supplierId: string | null;
  supplierSku: string | null;
  /** The reference of the attempt in flight at that supplier (null: the order id). */
  supplierRef: string | null;
  /** Routes tried so far, the one in flight included: the next to try is at this index. */
  routesTried: number;
  createdAt: number;
}

export interface UsableRoute {
  supplierId: string;
  supplierName: string;
  adapter: string;
  sku: string;
  /** What the route expects the supplier to charge, minor units (null: route gone). */
  cost: number | null;
  options: RouteOptions;
  /**
   * The supplier's health row showed a run of failures (or an error, or a half-open breaker
   * counting probe answers) when the route was read: only then does a success write it
   * (supplierAnswered). A failure another worker records after that read stays until the
   * next success that reads it.
   */
  failing: boolean;
  /** The supplier's circuit breaker as read with the route (src/domain/supplier-breaker.ts). */
  breaker: BreakerState;
}

/** Store side of fulfilment: read the order and its routes, record progress, finish it. */
export class FulfilmentRepo {
  /** `dialect` enables its one-statement paths; without it every path is portable. */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect?: Dialect,
    breaker?: BreakerSettings,
  ) {
    this.breaker = new SupplierBreakerRepo(db, breaker);
  }

  /** Every health report goes through the supplier's circuit breaker. */
  readonly breaker: SupplierBreakerRepo;

  private orderQuery(id: string) {
    return this.db
      .selectFrom('orders as o')
      .innerJoin('products as p', 'p.code', 'o.product_code')
      .select(['o.id', 'o.reseller_id', 'o.status', 'o.product_code', 'o.target', 'o.zone', 'o.price', 'p.kind', 'p.limit_gated', 'o.checker_verified', 'o.supplier_id', 'o.supplier_sku', 'o.supplier_ref', 'o.routes_tried', 'o.created_at'])
      .where('o.id', '=', id);
  }

  async order(id: string): Promise<FulfilmentOrder | null> {
    const r = await this.orderQuery(id).executeTakeFirst();
    return r ? toFulfilmentOrder(r) : null;
  }

  /** Enabled routes to enabled suppliers the operator has not put in maintenance, best first. */
  private routesQuery(productCode: string | RawBuilder<string>) {
    return this.db
      .selectFrom('product_routes as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .leftJoin('supplier_health as h', 'h.supplier_id', 's.id')
      .select(['s.id', 's.name', 's.adapter', 'r.supplier_sku', 'r.cost', 'r.options'])
      .select(sql<boolean>`coalesce(h.consecutive_failures <> 0 or h.last_error is not null or h.breaker = 'half_open', false)`.as('failing'))
      .select(sql<BreakerState>`coalesce(h.breaker, 'closed')`.as('breaker'))
      .where('r.product_code', '=', productCode)
      .where('r.enabled', '=', 1)
      .where('s.enabled', '=', 1)
      .where('s.status', '=', 'active')
      .orderBy('r.priority')
      .orderBy('r.id');
  }

  /**
   * An order and its product's usable routes (routesQuery). On PostgreSQL one round trip
   * instead of two (the routes as a JSON array beside the order): each is one more wait on
   * the worker's event loop and the two shared cores, per order.
   */
  async orderWithRoutes(id: string): Promise<{ order: FulfilmentOrder; routes: UsableRoute[] } | null> {
    if (this.dialect !== 'postgres') {
      const order = await this.order(id);
      return order && { order, routes: (await this.routesQuery(order.productCode).execute()).map(toUsableRoute) };
    }
    const r = await this.orderQuery(id)
      // The routes as one JSON array column (what kysely/helpers/postgres' jsonArrayFrom
      // writes; that module would load the whole unbundled kysely beside dist/vendor's).
      .select(() => sql<RouteRow[]>`(select coalesce(json_agg(agg), '[]') from ${this.routesQuery(sql.ref<string>('o.product_code'))} as agg)`.as('routes'))
      .executeTakeFirst();
    if (!r) return null;
    return { order: toFulfilmentOrder(r), routes: (r.routes as RouteRow[]).map(toUsableRoute) };
  }

  /** An order's supplier and SKU when its route is no longer usable (disabled, or deleted: then no cost or options). */
  async supplierRoute(supplierId: string, sku: string, productCode: string): Promise<UsableRoute> {
    const s = await this.db.selectFrom('suppliers').select(['id', 'name', 'adapter']).where('id', '=', supplierId).executeTakeFirstOrThrow();
    const r = await this.db.selectFrom('product_routes').select(['cost', 'options']).where('supplier_id', '=', supplierId).where('supplier_sku', '=', sku).where('product_code', '=', productCode).executeTakeFirst();
    return { supplierId: s.id, supplierName: s.name, adapter: s.adapter, sku, cost: r ? Number(r.cost) : null, options: parseRouteOptions(r?.options), failing: true, breaker: 'closed' };
  }

  /** An upstream told us an order moved: run its fulfilment job now instead of at the next poll. */
  async expediteFulfilment(orderId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('jobs')
      .set({ run_at: now })
      .where('kind', '=', JOB_KINDS.fulfilOrder)
      // The payload starts with the order id; the placing request's id may follow (fulfilPayload).
      .where((eb) => eb.or([eb('payload', '=', JSON.stringify({ orderId })), eb('payload', 'like', `${JSON.stringify({ orderId }).slice(0, -1)},%`)]))
      .where('locked_by', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async supplierNames(): Promise<string[]> {
    return (await this.db.selectFrom('suppliers').select('name').execute()).map((r) => r.name);
  }

  /**
   * Written BEFORE submitting, with the attempt's supplier reference: after a crash we ask
   * this supplier about that reference first, never order blindly. Moving on (route null)
   * keeps the last reference, from which the next attempt's is made.
   */
  async markInFlight(orderId: string, route: { supplierId: string; sku: string; reference: string } | null, routesTried: number, now: number) {
    await this.db
      .updateTable('orders')
      .set({ supplier_id: route?.supplierId ?? null, supplier_sku: route?.sku ?? null, routes_tried: routesTried, updated_at: now, ...(route ? { supplier_ref: route.reference } : {}) })
      .where('id', '=', orderId)
      .where('status', '=', 'processing')
      .execute();
  }

  /** Orders still processing that fulfilment flagged for a human, oldest first. */
  async flaggedOrders() {
    return this.db
      .selectFrom('orders as o')
      .leftJoin('suppliers as s', 's.id', 'o.supplier_id')
      .select(['o.id', 'o.ref_id', 'o.reseller_id', 'o.product_code', 'o.price', 'o.created_at', 's.name as supplier'])
      // What the supplier knows the attempt in flight by.
      .select(sql<string>`coalesce(o.supplier_ref, o.id)`.as('supplier_ref'))
      // A literal, not a parameter: it is what lets the planner use the partial index orders_flagged.
      .where(sql<boolean>`o.needs_attention = 1`)
      .where('o.status', '=', 'processing')
      .orderBy('o.created_at')
      .execute();
  }

  async flagForOperator(orderId: string, now: number) {
    await this.db.updateTable('orders').set({ needs_attention: 1, updated_at: now }).where('id', '=', orderId).execute();
  }

  /**
   * success: state, serial, completed_at and the callback job in one transaction, once.
   * Returns the callback job (leased to the settling job's runner when it holds a lease),
   * or null if the order was no longer processing.
   */
  async succeed(orderId: string, serial: string, now: number, job?: SettlingJob, said: SupplierSaid = {}): Promise<Settled | null> {
    if (this.dialect === 'postgres') return this.succeedInOneStatement(orderId, serial, now, job, said);
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('orders')
        .set({ status: 'success', serial_number: serial, completed_at: now, updated_at: now, supplier_serial: said.serial ?? null, supplier_message: said.message ?? null, cost: said.cost ?? null })
        .where('id', '=', orderId)
        .where('status', '=', 'processing')
        .returning('reseller_id')
        .executeTakeFirst();
      if (!res) return null;
      return this.settled(trx, orderId, res.reseller_id, now, job);
    });
  }

  /**
   * The end of a settling transaction: the callback job, and on SQLite also what the first
   * attempt needs and the settling job's row removed. On SQLite every statement outside is
   * a commit of its own (a WAL write) on the one thread that also takes orders, and these
   * cost three (open the delivery, read the target, delete the finished job); inside they
   * share this one. The delivery is opened as the first attempt would open it (round 1, a
   * new callback id), as PostgreSQL's one-statement success does. On PostgreSQL a failure's
   * transaction holds the reseller's row lock: it takes no further round trips there.
   */
  private async settled(trx: Transaction<DB>, orderId: string, resellerId: string, now: number, job?: SettlingJob): Promise<Settled> {
    const callback = await enqueueCallback(trx, { orderId, resellerId, requestId: job?.payload?.requestId }, now, job?.lease);
    if (this.dialect !== 'sqlite') return { callback, jobDone: false };
    const delivery = await openDelivery(trx, orderId, 1, randomUUID(), now);
    const target = await readTarget(trx, orderId);
    const held = job && heldJob(job);
    if (held) await completeJob(trx, held);
    const prepared: PreparedCallback | undefined = delivery && target ? { target, delivery } : undefined;
    return { callback: { ...callback, prepared }, jobDone: held !== undefined };
  }

  /**
   * succeed() on PostgreSQL as one statement, one round trip and an implicit transaction
   * instead of four (begin, update, insert, commit), all of them between the order's
   * completed_at and its callback: the order update, the callback job inserted from its
   * row and the callback's delivery opened (round 1, a new callback id), returning what
   * the attempt needs (order, callback URL, newest key) as the job's `prepared` data, read
   * in the same snapshot. The callback can then leave with no further round trip.
   */
  private async succeedInOneStatement(orderId: string, serial: string, now: number, settling?: SettlingJob, said: SupplierSaid = {}): Promise<Settled | null> {
    const job = callbackJob({ orderId, resellerId: '', requestId: settling?.payload?.requestId }, now, settling?.lease); // group key: from the row, below
    const v = jobRow(job, now);
    // The settling job's own row goes in the same statement (one round trip less per order).
    const held = settling && heldJob(settling);
    const { rows } = await sql<Selectable<OrdersTable> & SettledExtras>`
      with settled as (
        update orders set status = 'success', serial_number = ${serial}, completed_at = ${now}, updated_at = ${now},
          supplier_serial = ${said.serial ?? null}, supplier_message = ${said.message ?? null}, cost = ${said.cost ?? null}
        where id = ${orderId} and status = 'processing'
        returning *
      ), job as (
        insert into jobs (kind, payload, run_at, attempts, locked_until, locked_by, last_error, created_at, group_key)
        select ${v.kind}, ${v.payload}, ${v.run_at}, ${v.attempts}, ${v.locked_until}, ${v.locked_by}, null, ${v.created_at}, ${callbackGroupKeyOf('settled.reseller_id')} from settled
        returning id, group_key
      ), delivery as (
        insert into callback_deliveries (id, order_id, reseller_id, round, status, attempts, next_attempt_at, url, created_at, updated_at)
        select gen_random_uuid()::text, id, reseller_id, 1, 'pending', 0, ${now}, null, ${now}, ${now} from settled
        on conflict (order_id, round) do nothing
        returning *
      ), finished as (
        delete from jobs where id = ${held?.id ?? null} and locked_by = ${held?.holder ?? null} and exists (select 1 from settled)
      )
      select s.*, j.id as job_id, j.group_key as job_group_key, r.callback_url as target_url, ${newestKeySecret('s.reseller_id')} as target_secret, to_jsonb(d) as delivery
      from settled s cross join job j join resellers r on r.id = s.reseller_id left join delivery d on true
    `.execute(this.db);
    const row = rows[0];
    if (!row) return null;
    const { job_id, job_group_key, target_url, target_secret, delivery, ...order } = row;
    // A delivery already open (a rerun after a crash) keeps its own state: read it then.
    const prepared: PreparedCallback | undefined = delivery === null ? undefined : { target: { order: toRecord(order), callbackUrl: target_url, secretEnc: target_secret }, delivery };
    return { callback: { id: Number(job_id), kind: job.kind, payload: job.payload, groupKey: job_group_key, prepared }, jobDone: held !== undefined };
  }

  /**
   * failed: state, failure fields, the refund (balance + ledger entry) and the callback job,
   * once. The reseller row is locked first (the refund), then the order and its
   * order_counts rows (triggers): the lock order of every writer that changes a balance
   * (docs/architecture.md, "Lock order"), so none can deadlock against another.
   * Returns the callback job as succeed() does.
   */
  async fail(orderId: string, failure: Failure, now: number, job?: SettlingJob, said: SupplierSaid = {}): Promise<Settled | null> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const order = await trx.selectFrom('orders').select(['reseller_id', 'price', 'seq']).where('id', '=', orderId).where('status', '=', 'processing').executeTakeFirst();
        if (!order) return null;
        const price = Number(order.price);
        const wallet = await trx
          .updateTable('resellers')
          .set((eb) => ({ balance: eb('balance', '+', price), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now }))
          .where('id', '=', order.reseller_id)
          .where('balance', '<=', REFUND_CEILING_MINOR - price)
          .returning(['balance', 'ledger_seq'])
          .executeTakeFirst();
        // Never an inexact balance: the job fails and is retried; the order stays processing.
        if (!wallet) throw new Error(`refund of order ${orderId} would take the balance past ${REFUND_CEILING_MINOR} minor units`);
        const res = await trx
          .updateTable('orders')
          .set({ status: 'failed', failure_code: failure.code, failure_reason: failure.reason, completed_at: now, updated_at: now, supplier_serial: said.serial ?? null, supplier_message: said.message ?? null })
          .where('id', '=', orderId)
          .where('status', '=', 'processing')
          .executeTakeFirst();
        // Someone else settled it meanwhile: undo the refund with the whole transaction.
        if (Number(res.numUpdatedRows) !== 1) throw new NotProcessing();
        await trx
          .insertInto('ledger_entries')
          .values({ reseller_id: order.reseller_id, type: 'order_refund', amount: price, balance_after: Number(wallet.balance), order_id: orderId, note: failure.code, created_at: now, seq: Number(wallet.ledger_seq), order_seq: Number(order.seq) })
          .execute();
        return this.settled(trx, orderId, order.reseller_id, now, job);
      });
    } catch (e) {
      if (e instanceof NotProcessing) return null;
      throw e;
    }
  }

  /** A supplier that reports itself down or in maintenance opens its breaker at once. */
  async markSupplierUnavailable(supplierId: string, reason: string, now: number) {
    await this.breaker.open(supplierId, reason, now);
  }

  /**
   * A route's supplier answered an order definitely: the success ends its run of failures
   * (and counts as a half-open breaker's probe). Nothing to write when the route's read
   * showed none (UsableRoute.failing): a round trip saved per order.
   */
  async supplierAnswered(route: Pick<UsableRoute, 'supplierId' | 'failing'>, now: number) {
    if (route.failing) await this.breaker.answered(route.supplierId, now);
  }

  /**
   * Supplier health: consecutive transport failures and unknown outcomes, which open the
   * breaker (SupplierBreakerRepo). A success writes only when it ends a run of failures
   * (`updated_at` is when the health last changed): every fulfilment of every worker
   * reports to this one row, and rewriting it unchanged cost a write per fulfilled order
   * (on PostgreSQL a commit with its WAL flush, the row's lock held meanwhile, and a dead
   * row version).
   */
  async recordSupplierResult(supplierId: string, ok: boolean, error: string | null, now: number) {
    if (ok) await this.breaker.healthy(supplierId, now);
    else await this.breaker.failed(supplierId, error, now);
  }
}

class NotProcessing extends Error {}

type OrderRow = Pick<Selectable<OrdersTable>, 'id' | 'reseller_id' | 'status' | 'product_code' | 'target' | 'zone' | 'price' | 'checker_verified' | 'supplier_id' | 'supplier_sku' | 'supplier_ref' | 'routes_tried' | 'created_at'> & { kind: 'instant' | 'voucher'; limit_gated: number };

function toFulfilmentOrder(r: OrderRow): FulfilmentOrder {
  return {
    id: r.id, resellerId: r.reseller_id, status: r.status, productCode: r.product_code, target: r.target, zone: r.zone,
    price: Number(r.price), kind: r.kind, limitGated: r.limit_gated === 1, checkerVerified: r.checker_verified === 1,
    supplierId: r.supplier_id, supplierSku: r.supplier_sku, supplierRef: r.supplier_ref, routesTried: Number(r.routes_tried), createdAt: Number(r.created_at),
  };
}

interface RouteRow {
  id: string;
  name: string;
  adapter: string;
  supplier_sku: string;
  cost: number | string | null;
  options: string | null;
  /** A boolean on PostgreSQL, 0 or 1 on SQLite. */
  failing: boolean | number;
  breaker: BreakerState;
}

const toUsableRoute = (r: RouteRow): UsableRoute => ({
  supplierId: r.id, supplierName: r.name, adapter: r.adapter, sku: r.supplier_sku, cost: Number(r.cost), options: parseRouteOptions(r.options), failing: Boolean(r.failing),
  breaker: r.breaker,
});

/** A supplier's sealed credentials (open them with the secret box). */
export async function supplierCredentials(db: Kysely<DB>, supplierId: string): Promise<string> {
  const row = await db.selectFrom('suppliers').select('credentials_enc').where('id', '=', supplierId).executeTakeFirst();
  if (!row?.credentials_enc) throw new Error(`supplier ${supplierId} has no credentials`);
  return row.credentials_enc;
}
