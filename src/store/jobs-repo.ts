import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * The durable outbox/queue. Work that must happen later (fulfil an order, deliver a
 * callback) is a row written in the same transaction as the state change that caused it.
 */
export const JOB_KINDS = {
  fulfilOrder: 'fulfil_order',
  deliverCallback: 'deliver_callback',
} as const;

export type Executor = Kysely<DB> | Transaction<DB>;

export async function enqueueJob(db: Executor, job: { kind: string; payload: unknown; runAt: number }, now: number): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ kind: job.kind, payload: JSON.stringify(job.payload), run_at: job.runAt, attempts: 0, locked_until: null, locked_by: null, last_error: null, created_at: now })
    .execute();
}
