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
}

export type JobOutcome = { status: 'done' } | { status: 'retry'; retryAt: number; error?: string };

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<JobOutcome>;
