import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { HandedOffJob, HeldJob, JobLease } from '../worker/job-contract.js';
import { JOB_KINDS } from './job-kinds.js';
import type { DB, JobsTable } from './schema.js';

/**
 * The durable outbox/queue. Work that must happen later (fulfil an order, deliver a
 * callback) is a row written in the same transaction as the state change that caused it.
 * (The kinds live in a module of their own: the order writer thread needs them, not Kysely.)
 */
export { JOB_KINDS };

export type Executor = Kysely<DB> | Transaction<DB>;

interface NewJob {
  kind: string;
  payload: unknown;
  runAt: number;
  groupKey?: string;
  lease?: JobLease;
}

/** A job's row. With `lease`, written already claimed by that runner (one claim counted). */
export function jobRow(job: NewJob, now: number): Insertable<JobsTable> {
  return {
    kind: job.kind, payload: JSON.stringify(job.payload), run_at: job.runAt, attempts: job.lease ? 1 : 0,
    locked_until: job.lease?.until ?? null, locked_by: job.lease?.holder ?? null, last_error: null, created_at: now, group_key: job.groupKey ?? null,
  };
}

/**
 * Writes a job row. With `lease`, the row is written already claimed by that runner, to be
 * run by it at once as a handoff; without, it waits to be claimed.
 */
export async function enqueueJob(db: Executor, job: NewJob, now: number): Promise<HandedOffJob> {
  const row = await db.insertInto('jobs').values(jobRow(job, now)).returning('id').executeTakeFirstOrThrow();
  return { id: Number(row.id), kind: job.kind, payload: job.payload, groupKey: job.groupKey ?? null };
}

/** Callback jobs are grouped by reseller (per-reseller isolation in the runner). */
const CALLBACK_GROUP_PREFIX = 'reseller:';
const callbackGroupKey = (resellerId: string) => `${CALLBACK_GROUP_PREFIX}${resellerId}`;
/** The same key, computed in SQL from a reseller id column (a job inserted from a query). */
export const callbackGroupKeyOf = (resellerIdColumn: string) => sql<string>`${CALLBACK_GROUP_PREFIX} || ${sql.ref(resellerIdColumn)}`;

type CallbackOf = { orderId: string; resellerId: string; round?: number; requestId?: string };

/** The callback job of an order (a round > 1 is a resend). */
export function callbackJob(c: CallbackOf, now: number, lease?: JobLease): NewJob {
  const payload: { orderId: string; round?: number; requestId?: string } = c.round === undefined ? { orderId: c.orderId } : { orderId: c.orderId, round: c.round };
  // The request that placed the order (or asked for the resend): its id goes in the delivery's logs.
  if (c.requestId !== undefined) payload.requestId = c.requestId;
  return { kind: JOB_KINDS.deliverCallback, payload, runAt: now, groupKey: callbackGroupKey(c.resellerId), lease };
}

export function enqueueCallback(db: Executor, c: CallbackOf, now: number, lease?: JobLease): Promise<HandedOffJob> {
  return enqueueJob(db, callbackJob(c, now, lease), now);
}

/**
 * A finished job's row removed, only while it is still `job.holder`'s (a worker that
 * outlived its lease cannot undo the new owner's work). Usable inside the transaction that
 * records the job's work (JobOutcome.written).
 */
export async function completeJob(db: Executor, job: HeldJob): Promise<void> {
  await completeJobQuery(db, job).execute();
}

export const completeJobQuery = (db: Executor, job: HeldJob) => db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', job.holder);

/** A job's row due again at `runAt`, unleased; only while it is still `job.holder`'s. */
export async function rescheduleJob(db: Executor, job: HeldJob, runAt: number, error: string | null): Promise<void> {
  await rescheduleJobQuery(db, job, runAt, error).execute();
}

export const rescheduleJobQuery = (db: Executor, job: HeldJob, runAt: number, error: string | null) =>
  db.updateTable('jobs').set({ run_at: runAt, locked_until: null, locked_by: null, last_error: error }).where('id', '=', job.id).where('locked_by', '=', job.holder);

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  run_at: number;
  group_key: string | null;
}

/**
 * Claiming, completing and rescheduling jobs. A claim is a lease, renewed by its runner's
 * heartbeat while it holds the row: a worker that dies leaves its rows to be claimed again
 * once locked_until has passed (within one lease of its death). On PostgreSQL the
 * claim skips rows other workers hold (FOR UPDATE SKIP LOCKED), so any number of workers
 * share one queue; on SQLite the single writer makes the claim atomic.
 */
export class JobsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /**
   * Claims up to `limit` due jobs, none of the groups in `skipGroups` (full in this runner).
   * Callback deliveries are claimed before other kinds: an order that reached its terminal
   * state has its outcome ready to tell, and under a backlog of fulfilment jobs (older
   * run_at) the callback would otherwise wait behind all of them. Fulfilment still gets
   * every slot the callbacks leave (at most one callback per terminal order, and each
   * reseller's callbacks are capped per runner), so it cannot starve. Each step walks the
   * (kind, run_at) index (migration 007).
   *
   * `groupedLimit` bounds the callbacks (grouped rows) of one claim: the runner passes what
   * the group with the least room can still take, so it never claims rows only to give
   * them back (under one busy reseller that was ~3 releases and re-claims per order).
   *
   * Returns the claimed rows and the kinds it found everything of (`exhausted`: their step
   * got fewer rows than it asked for, so no more of them were due outside `skipGroups` at
   * `now`).
   */
  async claim(kinds: string[], limit: number, workerId: string, now: number, leaseMs: number, skipGroups: string[] = [], groupedLimit = limit): Promise<{ jobs: ClaimedJob[]; exhausted: string[] }> {
    const first = kinds.filter((k) => k === JOB_KINDS.deliverCallback);
    const rest = kinds.filter((k) => k !== JOB_KINDS.deliverCallback);
    const exhausted: string[] = [];
    const firstLimit = Math.min(limit, groupedLimit);
    const claimed = first.length ? await this.claimKinds(first, firstLimit, workerId, now, leaseMs, skipGroups) : [];
    if (first.length && claimed.length < firstLimit) exhausted.push(...first);
    const restLimit = limit - claimed.length;
    if (rest.length && restLimit > 0) {
      const more = await this.claimKinds(rest, restLimit, workerId, now, leaseMs, skipGroups);
      if (more.length < restLimit) exhausted.push(...rest);
      claimed.push(...more);
    }
    return { jobs: claimed, exhausted };
  }

  private async claimKinds(kinds: string[], limit: number, workerId: string, now: number, leaseMs: number, skipGroups: string[]): Promise<ClaimedJob[]> {
    if (kinds.length === 0 || limit <= 0) return [];
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const groups = skipGroups.length ? sql`and (group_key is null or group_key not in (${sql.join(skipGroups)}))` : sql``;
    const result = await sql<ClaimedJob>`
      update jobs set locked_until = ${now + leaseMs}, locked_by = ${workerId}, attempts = attempts + 1
      where id in (
        select id from jobs
        where kind in (${sql.join(kinds)}) and run_at <= ${now} and (locked_until is null or locked_until < ${now}) ${groups}
        order by run_at, id limit ${limit} ${lock}
      )
      returning id, kind, payload, attempts, run_at, group_key`.execute(this.db);
    return result.rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts), run_at: Number(r.run_at) }));
  }

  async complete(id: number, workerId: string): Promise<void> {
    await completeJob(this.db, { id, holder: workerId });
  }

  /** Gives a claimed job back untouched (its group was full): due again at once, the claim not counted. */
  async release(id: number, workerId: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ locked_until: null, locked_by: null, attempts: eb('attempts', '-', 1) }))
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /**
   * The heartbeat: pushes the leases of `ids` to `until`, only for rows still `workerId`'s
   * (one statement per 500 ids, by primary key).
   */
  async renew(ids: number[], workerId: string, until: number): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.db.updateTable('jobs').set({ locked_until: until }).where('id', 'in', ids.slice(i, i + 500)).where('locked_by', '=', workerId).execute();
    }
  }

  async reschedule(id: number, workerId: string, runAt: number, error: string | null): Promise<void> {
    await rescheduleJob(this.db, { id, holder: workerId }, runAt, error);
  }

  /** When the next job of these kinds becomes due (or its lease runs out), if any. */
  async nextDueAt(kinds: string[]): Promise<number | null> {
    if (kinds.length === 0) return null;
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min(sql<number>`case when locked_until is null then run_at else locked_until end`).as('at'))
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return row?.at == null ? null : Number(row.at);
  }
}
