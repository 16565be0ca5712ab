import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../services/ports.js';
import type { JobsRepo } from '../store/jobs-repo.js';
import type { JobHandler } from './job-contract.js';

export interface RunnerSettings {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
}

/**
 * The durable job runner. It claims due rows of the kinds it has handlers for, runs up to
 * `concurrency` handlers at once (a slow one never holds up the others), and writes each
 * outcome back to the table. Nothing is held only in memory: a killed runner's rows are
 * claimed again after their lease.
 */
export class JobRunner {
  readonly workerId = `w-${randomUUID().slice(0, 8)}`;
  private readonly inflight = new Set<Promise<void>>();
  private running = false;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;

  constructor(
    private readonly deps: { jobs: JobsRepo; handlers: Record<string, JobHandler<any>>; clock: Clock; logger: Logger; settings: RunnerSettings },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Called after work was enqueued in this process, so it starts without waiting for a poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
  }

  private async loop(): Promise<void> {
    const { jobs, clock, logger, settings } = this.deps;
    const kinds = Object.keys(this.deps.handlers);
    while (this.running) {
      let claimed = 0;
      const free = settings.concurrency - this.inflight.size;
      if (free > 0) {
        try {
          const due = await jobs.claimDue(kinds, free, this.workerId, clock.now(), settings.leaseMs);
          claimed = due.length;
          for (const row of due) this.track(this.execute(row));
        } catch (err) {
          logger.error({ err }, 'claiming jobs failed');
        }
      }
      if (claimed > 0 && claimed === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, settings.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private track(p: Promise<void>) {
    this.inflight.add(p);
    void p.finally(() => {
      this.inflight.delete(p);
      this.wake();
    });
  }

  private async execute(row: { id: number; kind: string; payload: string; attempts: number; run_at: number }): Promise<void> {
    const { jobs, clock, logger } = this.deps;
    const handler = this.deps.handlers[row.kind]!;
    try {
      const outcome = await handler({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempts: row.attempts - 1, runAt: row.run_at });
      if (outcome.status === 'done') await jobs.complete(row.id, this.workerId);
      else await jobs.reschedule(row.id, this.workerId, outcome.retryAt, outcome.error ?? null);
    } catch (err) {
      const backoff = Math.min(1000 * 2 ** Math.min(row.attempts, 8), 300_000);
      logger.error({ err, jobId: row.id, kind: row.kind }, 'job failed; rescheduled');
      await jobs.reschedule(row.id, this.workerId, clock.now() + backoff, (err as Error).message?.slice(0, 500) ?? 'error').catch(() => {});
    }
  }
}
