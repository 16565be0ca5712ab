import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../services/ports.js';
import type { JobsRepo } from '../store/jobs-repo.js';
import type { JobHandler } from './job-contract.js';

export interface RunnerSettings {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  /** Jobs of one group (one reseller's callbacks) running at once in this runner. */
  perGroup: number;
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
  private readonly groupLoad = new Map<string, number>();
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
          const full = [...this.groupLoad].filter(([, n]) => n >= settings.perGroup).map(([g]) => g);
          const due = await jobs.claimDue(kinds, free, this.workerId, clock.now(), settings.leaseMs, full);
          claimed = due.length;
          for (const row of due) {
            // One claim may hold more of a group than it has room for: give those back.
            if (row.group_key !== null && (this.groupLoad.get(row.group_key) ?? 0) >= settings.perGroup) {
              await jobs.release(row.id, this.workerId);
              continue;
            }
            this.track(this.execute(row), row.group_key);
          }
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

  private track(p: Promise<void>, group: string | null) {
    this.inflight.add(p);
    if (group !== null) this.groupLoad.set(group, (this.groupLoad.get(group) ?? 0) + 1);
    void p.finally(() => {
      this.inflight.delete(p);
      if (group !== null) {
        const left = this.groupLoad.get(group)! - 1;
        if (left > 0) this.groupLoad.set(group, left);
        else this.groupLoad.delete(group);
      }
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
