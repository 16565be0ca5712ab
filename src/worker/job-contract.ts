/**
 * The contract between the job runner (src/worker/runner.ts) and the handlers it runs.
 * A handler is a service: it gets the job's payload and says what happens next. The runner
 * claims due rows from the jobs table under a lease, runs many handlers concurrently (one
 * slow handler never blocks the others), and applies the outcome in the table: deleted
 * (or marked done) when finished, or rescheduled at retryAt, never held in memory.
 */
export interface Job<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  /** How many times this row was claimed before (0 on the first run). */
  attempts: number;
  runAt: number;
  /**
   * The runner's lease on this row (absent when a handler is called directly): a handler
   * may write follow-up jobs under it, to hand them back to the runner.
   */
  lease?: JobLease;
  /** A handed-off job's `prepared` data (see HandedOffJob); absent for a claimed row. */
  prepared?: unknown;
  /**
   * The handed-off job waited (its group was full) between its writer's commit and this
   * run: what `prepared` holds may have changed in the store meanwhile, and the handler
   * decides which of it still holds.
   */
  waited?: boolean;
}

export interface JobLease {
  holder: string;
  until: number;
}

/**
 * A job a handler wrote, in its own transaction, already leased to this runner (e.g. the
 * callback of an order it just settled): the runner runs it next, in the same slot, with
 * no claim and no poll in between. Durable like any row: if the runner dies first, the
 * lease runs out and any runner claims it.
 */
export interface HandedOffJob {
  id: number;
  kind: string;
  payload: unknown;
  groupKey: string | null;
  /**
   * What the writing transaction already read for this job, consistent with the state it
   * committed (e.g. a settled order's callback target): its handler may use it instead of
   * reading the store again. A job that had to wait gets it with `Job.waited`.
   */
  prepared?: unknown;
}

/**
 * `written`: the handler already applied this outcome to its own row (deleted, or
 * rescheduled at retryAt), under its lease, in the transaction that recorded its work, so
 * the runner writes nothing more (on SQLite every separate write is a commit of its own).
 */
export type JobOutcome = { status: 'done'; handoff?: HandedOffJob[]; written?: boolean } | { status: 'retry'; retryAt: number; error?: string; written?: boolean };

/** A running job's row and its holder, for a handler that finishes the row in its own transaction. */
export interface HeldJob {
  id: number;
  holder: string;
}

/** The held row of a job the runner gave a lease (none when a handler is called directly). */
export const heldJob = (job: Pick<Job, 'id' | 'lease'>): HeldJob | undefined => (job.lease ? { id: job.id, holder: job.lease.holder } : undefined);

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<JobOutcome>;
