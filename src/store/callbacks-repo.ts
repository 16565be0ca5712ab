import { sql, type Kysely, type Selectable } from 'kysely';
import type { OrderRecord } from '../domain/order.js';
import type { HeldJob } from '../worker/job-contract.js';
import { completeJobQuery, enqueueCallback, rescheduleJobQuery, type Executor } from './jobs-repo.js';
import { toRecord } from './order-row.js';
import type { Dialect } from './db.js';
import type { CallbackDeliveriesTable, DB } from './schema.js';

export type Delivery = Selectable<CallbackDeliveriesTable>;

/** The states an order's callback reports: its terminal states. */
export const DELIVERABLE = ['success', 'failed'] as const;

/** What a callback attempt sends and where: the order, the reseller's URL and newest live key. */
export interface CallbackTarget {
  order: OrderRecord;
  callbackUrl: string | null;
  secretEnc: string | null;
}

/** A callback job's handoff data (HandedOffJob.prepared): its target and opened delivery. */
export interface PreparedCallback {
  target: CallbackTarget;
  delivery: Delivery;
}

/** The sealed secret of a reseller's newest live API key (null when there is none). */
export const newestKeySecret = (resellerIdColumn: string) =>
  sql<string | null>`(select k.secret_enc from api_keys k where k.reseller_id = ${sql.ref(resellerIdColumn)} and k.revoked_at is null order by k.created_at desc limit 1)`;

/** Durable callback delivery state: what a restarted worker continues from. */
export class CallbacksRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** What a callback attempt needs, in one round trip. */
  target(orderId: string): Promise<CallbackTarget | null> {
    return readTarget(this.db, orderId);
  }

  /**
   * The delivery of (order, round), created on first use with a new callback id; null when
   * the order is not in a terminal state (nothing to deliver, and no delivery opened). It
   * reads the order itself, so a callback can open it and read target() at the same time.
   */
  open(orderId: string, round: number, newId: string, now: number): Promise<Delivery | null> {
    return openDelivery(this.db, orderId, round, newId, now);
  }

  /**
   * The attempt, the delivery's new state and, given the callback job's held row, that row
   * deleted (no next attempt) or due at the next attempt: one commit, and the job's state
   * can never lag behind the delivery's.
   */
  async recordAttempt(
    d: Delivery,
    a: { attempt: number; url: string; startedAt: number; durationMs: number; httpStatus: number | null; error: string | null; snippet: string | null },
    next: { status: Delivery['status']; nextAttemptAt: number | null },
    now: number,
    job?: HeldJob,
    /** Written in the same transaction when the round is given up (the shop's notice). */
    onGaveUp?: (db: Executor) => Promise<void>,
  ) {
    const steps = (db: Executor) => ({
      attempt: db
        .insertInto('callback_attempts')
        .values({ delivery_id: d.id, attempt: a.attempt, started_at: a.startedAt, duration_ms: a.durationMs, http_status: a.httpStatus, error: a.error, response_snippet: a.snippet })
        .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing()),
      delivery: db
        .updateTable('callback_deliveries')
        .set({ attempts: a.attempt, status: next.status, next_attempt_at: next.nextAttemptAt, url: a.url, updated_at: now })
        .where('id', '=', d.id),
      job: job && (next.nextAttemptAt === null ? completeJobQuery(db, job) : rescheduleJobQuery(db, job, next.nextAttemptAt, null)),
    });
    const gaveUp = next.status === 'failed' && onGaveUp ? onGaveUp : null;
    if (this.dialect === 'postgres' && !gaveUp) {
      // One statement (data-modifying CTEs): one round trip and an implicit transaction
      // instead of five (begin, three statements, commit) per attempt. Its commit does not
      // wait for the WAL flush (synchronous_commit off for this transaction alone): lost in a
      // crash, it only makes the attempt happen again, with the same callback id, which the
      // settlement's commit made durable (docs/architecture.md, "Callback attempts").
      const { attempt, delivery, job: jobStep } = steps(this.db);
      await sql`with attempt as (${attempt}), delivery as (${delivery})${jobStep ? sql`, job as (${jobStep})` : sql``} select set_config('synchronous_commit', 'off', true)`.execute(this.db);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const { attempt, delivery, job: jobStep } = steps(trx);
      await attempt.execute();
      await delivery.execute();
      await jobStep?.execute();
      await gaveUp?.(trx);
    });
  }

  async skip(d: Delivery, now: number) {
    await this.db.updateTable('callback_deliveries').set({ status: 'skipped', next_attempt_at: null, updated_at: now }).where('id', '=', d.id).execute();
  }

  /**
   * A new round of up to four attempts (resend): its delivery opened and its job enqueued in
   * one transaction. The round is taken from the opened deliveries, so it is opened here,
   * not when its job runs: two resends in a row are two rounds (the order's row lock on
   * PostgreSQL, and SQLite's one writer, keep two from reading the same last round).
   */
  async startRound(orderId: string, newId: string, now: number, requestId?: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let order = trx.selectFrom('orders').select('reseller_id').where('id', '=', orderId);
      if (this.dialect === 'postgres') order = order.forUpdate();
      const { reseller_id } = await order.executeTakeFirstOrThrow();
      const last = await trx.selectFrom('callback_deliveries').select((eb) => eb.fn.max('round').as('r')).where('order_id', '=', orderId).executeTakeFirst();
      const round = Number(last?.r ?? 1) + 1;
      await openDelivery(trx, orderId, round, newId, now);
      await enqueueCallback(trx, { orderId, resellerId: reseller_id, round, requestId }, now);
      return round;
    });
  }

  /** The delivery log of one order: every round with every attempt. */
  async log(orderId: string) {
    const deliveries = await this.db.selectFrom('callback_deliveries').selectAll().where('order_id', '=', orderId).orderBy('round').execute();
    const attempts = deliveries.length
      ? await this.db.selectFrom('callback_attempts').selectAll().where('delivery_id', 'in', deliveries.map((d) => d.id)).orderBy('delivery_id').orderBy('attempt').execute()
      : [];
    return deliveries.map((d) => ({ ...d, attempt_log: attempts.filter((a) => a.delivery_id === d.id) }));
  }
}

/** CallbacksRepo.target on any executor (the settling transaction reads it too). */
export async function readTarget(db: Executor, orderId: string): Promise<CallbackTarget | null> {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('resellers as r', 'r.id', 'o.reseller_id')
    .selectAll('o')
    .select(['r.callback_url', newestKeySecret('o.reseller_id').as('secret_enc')])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  if (!row) return null;
  const { callback_url, secret_enc, ...order } = row;
  return { order: toRecord(order), callbackUrl: callback_url, secretEnc: secret_enc };
}

/** CallbacksRepo.open on any executor (the settling transaction opens it too). */
export async function openDelivery(db: Executor, orderId: string, round: number, newId: string, now: number): Promise<Delivery | null> {
  // One statement either way: an existing delivery comes back through a no-op update.
  const row = await db
    .insertInto('callback_deliveries')
    .columns(['id', 'order_id', 'reseller_id', 'round', 'status', 'attempts', 'next_attempt_at', 'url', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('orders as o')
        .select([
          eb.val(newId).as('id'), 'o.id', 'o.reseller_id', eb.val(round).as('round'), eb.val('pending').as('status'), eb.val(0).as('attempts'),
          eb.val(now).as('next_attempt_at'), eb.val(null).as('url'), eb.val(now).as('created_at'), eb.val(now).as('updated_at'),
        ])
        .where('o.id', '=', orderId)
        .where('o.status', 'in', DELIVERABLE),
    )
    .onConflict((oc) => oc.columns(['order_id', 'round']).doUpdateSet((eb) => ({ updated_at: eb.ref('callback_deliveries.updated_at') })))
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}
