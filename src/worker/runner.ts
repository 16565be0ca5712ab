import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../services/ports.js';
import type { JobsRepo } from '../store/jobs-repo.js';
import type { HandedOffJob, JobHandler, JobLease, JobOutcome } from './job-contract.js';

interface RunnableJob {
  id: number;
  kind: string;
  /** Read inside the handler's try: a claimed row's payload is parsed there. */
  payload: () => unknown;
  attempts: number;
  runAt: number;
  groupKey: string | null;
  /** The live lease: the heartbeat moves `until` on, and handlers write handoffs under it. */
  lease: JobLease;
  prepared?: unknown;
  waited?: boolean;
}

export interface RunnerSettings {
  concurrency: number;
  pollMs: number;
  /** How long a claim holds a row without renewal: a dead runner's rows are free this long after its last heartbeat. */
  leaseMs: number;
  /** How often the leases of the rows this runner holds are renewed (default: a third of `leaseMs`). */
  heartbeatMs?: number;
  /** Slow jobs of one group (one reseller's callbacks) running at once in this runner. */
  perGroup: number;
  /** A job running longer than this counts towards its group's `perGroup`. */
  slowMs: number;
  /** Rows of one group that may wait here, leased, for a slot of their group (default: twice `concurrency`). */
  parkPerGroup?: number;
}

/**
 * The durable job runner. It claims due rows of the kinds it has handlers for, runs up to
 * `concurrency` handlers at once (a slow one never holds up the others), and writes each
 * outcome back to the table. Nothing is held only in memory: a killed runner's rows are
 * claimed again after their lease. Leases are short and renewed while the runner holds the
 * row (a heartbeat every `heartbeatMs` renews them all in one statement), so a killed
 * runner's rows are free within one lease of its death, however long a job runs; a
 * stopped runner gives back what it still holds.
 *
 * Groups (one reseller's callbacks) share the slots fairly: a group is full when
 * `perGroup` of its jobs have run longer than `slowMs` (a receiver that hangs), or when it
 * holds half the slots whatever their speed. So a busy reseller whose receiver answers at
 * once is not throttled, and one whose receiver hangs holds few slots. A claimed row whose
 * group is full waits here, still leased, and starts when one of its group ends; up
 * to `parkPerGroup` rows of a group wait at a time, and any beyond are given back
 * uncounted. (Giving a row back sends it to a later claim: a write now and a claim again
 * later, each a commit of its own on SQLite. With only `perGroup` (4) places, one busy
 * reseller's callbacks were given back ~0.8 times per order under B3; the default of
 * twice the slots took B3/B4 on SQLite from ~530 to ~600 accepted orders/s.) A job a handler hands off (written already leased to
 * this runner) runs next in the same slot, or waits the same way when its group is full.
 * Waiting rows hold no slot, so other groups' jobs are claimed beside them.
 */
export class JobRunner {
  readonly workerId = `w-${randomUUID().slice(0, 8)}`;
  private readonly inflight = new Set<Promise<void>>();
  /** Start times of each group's running jobs. */
  private readonly groupRuns = new Map<string, number[]>();
  private readonly waiting = new Map<string, RunnableJob[]>();
  private running = false;
  private wakeUp: (() => void) | null = null;
  private wakeRequested = false;
  private loopDone: Promise<void> | null = null;
  /** Kinds whose last claim found all that was due (outside the groups it skipped as full). */
  private readonly exhausted = new Set<string>();
  /** wake() calls so far, and per kind the count at its last one. */
  private wakes = 0;
  private readonly lastWake = new Map<string, number>();
  /** The full groups the last claim skipped, and when it last claimed every kind. */
  private lastClaim = { full: '', allAt: -Infinity };
  /** Under full load, claim once this many slots are free rather than after every job. */
  private readonly claimBatch: number;
  /** Jobs one group may run at once here, whatever their speed: half the slots. */
  private readonly groupCap: number;
  private readonly parkCap: number;
  /** Every row this runner holds (running, parked, handed off), with its live lease. */
  private readonly held = new Map<number, JobLease>();
  private heartbeat: NodeJS.Timeout | null = null;
  private renewing = false;
  private turnedAt: number | null = null;

  constructor(
    private readonly deps: { jobs: JobsRepo; handlers: Record<string, JobHandler<any>>; clock: Clock; logger: Logger; settings: RunnerSettings },
  ) {
    this.claimBatch = Math.max(1, Math.floor(deps.settings.concurrency / 8));
    this.groupCap = Math.max(deps.settings.perGroup, Math.floor(deps.settings.concurrency / 2));
    this.parkCap = deps.settings.parkPerGroup ?? deps.settings.concurrency * 2;
  }

  /**
   * The kinds this runner has handlers for (the only ones it claims). Read at each use: the
   * composition root fills the handlers in after the runner is built.
   */
  private get kinds(): string[] {
    return Object.keys(this.deps.handlers);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const { leaseMs, heartbeatMs } = this.deps.settings;
    this.heartbeat = setInterval(() => void this.renewLeases(), heartbeatMs ?? Math.max(1, Math.floor(leaseMs / 3)));
    this.loopDone = this.loop();
  }

  /**
   * Called after work was enqueued in this process, so it starts without waiting for a
   * poll: work of `kinds` (any kind when absent).
   */
  wake(kinds?: readonly string[]): void {
    this.wakes++;
    for (const k of kinds ?? this.kinds) {
      this.exhausted.delete(k);
      this.lastWake.set(k, this.wakes);
    }
    this.wakeLoop();
  }

  private wakeLoop(): void {
    // During a claim nobody waits yet: the loop claims again instead of waiting (the claim
    // may have looked before the work was there).
    if (this.wakeUp) this.wakeUp();
    else this.wakeRequested = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
    // Rows still waiting for their group go back to the queue for whoever runs next, at
    // once rather than when their lease would end; then nothing is held and renewal stops.
    const left = [...this.waiting.values()].flat();
    this.waiting.clear();
    await Promise.allSettled(left.map((job) => this.giveBack(job.id)));
    await Promise.allSettled([...this.held.keys()].map((id) => this.giveBack(id)));
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /**
   * When the claim loop last began a turn (null before start): it turns at least every
   * pollMs, so an old time means a loop stuck (a claim that never returns) or stopped.
   * Readiness (/readyz) reads it.
   */
  get lastTurnAt(): number | null {
    return this.turnedAt;
  }

  /** Leases this runner holds now (for tests and diagnostics). */
  heldLeases(): ReadonlyMap<number, Readonly<JobLease>> {
    return this.held;
  }

  /** Takes a row into this runner's keeping (renewed by the heartbeat until let go). */
  private hold(id: number, until: number): JobLease {
    const lease = { holder: this.workerId, until };
    this.held.set(id, lease);
    return lease;
  }

  /** Gives a held row back untouched: due again at once, for any runner. */
  private giveBack(id: number): Promise<void> {
    this.held.delete(id);
    return this.deps.jobs.release(id, this.workerId).catch(() => {});
  }

  /**
   * The heartbeat: every held row's lease is pushed to now + leaseMs in one statement (only
   * rows still this runner's). A failed renewal is retried at the next beat; the in-memory
   * leases move only when the store did.
   */
  private async renewLeases(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const { jobs, clock, logger, settings } = this.deps;
    const leases = [...this.held];
    const until = clock.now() + settings.leaseMs;
    try {
      await jobs.renew(leases.map(([id]) => id), this.workerId, until);
      for (const [, lease] of leases) if (lease.until < until) lease.until = until;
    } catch (err) {
      logger.warn({ err }, 'renewing job leases failed; retried at the next heartbeat');
    } finally {
      this.renewing = false;
    }
  }

  private freeSlots(): number {
    return this.deps.settings.concurrency - this.inflight.size;
  }

  private async loop(): Promise<void> {
    const { jobs, clock, logger, settings } = this.deps;
    const kinds = this.kinds;
    let polled = true;
    while (this.running) {
      this.turnedAt = clock.now();
      this.wakeRequested = false;
      let claimed = 0;
      const free = this.freeSlots();
      if (free > 0) {
        try {
          const { full, groupedLimit } = this.groupCapacity();
          const claimedAt = clock.now();
          const fullKey = full.join('\n');
          // Every kind at least once a poll interval (rows come due with time) and when a
          // full group has room again; in between only kinds that may have more due.
          const all = polled || claimedAt - this.lastClaim.allAt >= settings.pollMs || fullKey !== this.lastClaim.full;
          const asked = all ? kinds : kinds.filter((k) => !this.exhausted.has(k));
          if (asked.length) {
            const wakesBefore = this.wakes;
            const { jobs: due, exhausted } = await jobs.claim(asked, free, this.workerId, claimedAt, settings.leaseMs, full, groupedLimit);
            for (const k of asked) {
              // A kind woken while the claim ran may have work that the claim did not see.
              if (exhausted.includes(k) && (this.lastWake.get(k) ?? 0) <= wakesBefore) this.exhausted.add(k);
              else this.exhausted.delete(k);
            }
            this.lastClaim = { full: fullKey, allAt: all ? claimedAt : this.lastClaim.allAt };
            claimed = due.length;
            for (const row of due) {
              const mine = this.held.get(row.id);
              // Still running or parked here, its lease lapsed (a stalled heartbeat): the
              // claim only renewed it; it must not run a second time beside itself.
              if (mine) {
                mine.until = Math.max(mine.until, claimedAt + settings.leaseMs);
                continue;
              }
              this.admit({ id: row.id, kind: row.kind, payload: () => JSON.parse(row.payload), attempts: row.attempts, runAt: row.run_at, groupKey: row.group_key, lease: this.hold(row.id, claimedAt + settings.leaseMs) });
            }
          }
        } catch (err) {
          logger.error({ err }, 'claiming jobs failed');
        }
      }
      polled = false;
      if ((claimed > 0 && claimed === free) || this.wakeRequested) continue;
      polled = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), settings.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      this.wakeUp = null;
    }
  }

  /**
   * The groups to skip in a claim (full), and how many grouped rows it may take: what the
   * group with the least capacity left can start or park. Any group's rows may come back,
   * so a claim of more would have to give the excess back (a release now, a claim again
   * later). A group not running here can take the half-slot cap and its parking places.
   */
  private groupCapacity(): { full: string[]; groupedLimit: number } {
    const full: string[] = [];
    let groupedLimit = this.groupCap + this.parkCap;
    for (const [group, runs] of this.groupRuns) {
      if (!this.hasRoom(group)) {
        full.push(group);
        continue;
      }
      const parkable = this.parkCap - (this.waiting.get(group)?.length ?? 0);
      groupedLimit = Math.min(groupedLimit, this.groupCap - runs.length + Math.max(0, parkable));
    }
    return { full, groupedLimit };
  }

  private hasRoom(group: string | null): boolean {
    if (group === null) return true;
    const runs = this.groupRuns.get(group);
    if (!runs) return true;
    const { perGroup, slowMs } = this.deps.settings;
    if (runs.length >= this.groupCap) return false;
    const slowSince = this.deps.clock.now() - slowMs;
    let slow = 0;
    for (const startedAt of runs) if (startedAt <= slowSince) slow++;
    return slow < perGroup;
  }

  /** Starts a leased job in a slot of its own, or parks it until its group has room. */
  private admit(job: RunnableJob): void {
    const run = this.runOrPark(job);
    if (run) this.track(run);
  }

  /** Runs a leased job now if its group has room, or parks it (null). */
  private runOrPark(job: RunnableJob): Promise<void> | null {
    if (!this.hasRoom(job.groupKey)) {
      this.park(job);
      return null;
    }
    return this.inGroup(job.groupKey, () => this.execute(job));
  }

  private park(job: RunnableJob): void {
    const queue = this.waiting.get(job.groupKey!) ?? [];
    if (queue.length >= this.parkCap) {
      void this.giveBack(job.id);
      return;
    }
    // What its writer read for it may go stale while it waits: its handler is told.
    queue.push({ ...job, waited: job.prepared !== undefined });
    this.waiting.set(job.groupKey!, queue);
  }

  /** The next parked job of a group that just got room; one whose lease runs low goes back. */
  private unpark(group: string): void {
    const { clock, settings } = this.deps;
    const queue = this.waiting.get(group);
    while (queue?.length && this.running && this.hasRoom(group)) {
      const job = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(group);
      if (job.lease.until - clock.now() < settings.leaseMs / 2) {
        void this.giveBack(job.id);
        continue;
      }
      this.admit(job);
    }
  }

  /** Counts `run` against its group from this very moment (before any await) until it ends. */
  private async inGroup(group: string | null, run: () => Promise<void>): Promise<void> {
    if (group === null) return run();
    const startedAt = this.deps.clock.now();
    const runs = this.groupRuns.get(group) ?? [];
    runs.push(startedAt);
    this.groupRuns.set(group, runs);
    try {
      await run();
    } finally {
      runs.splice(runs.indexOf(startedAt), 1);
      if (runs.length === 0) this.groupRuns.delete(group);
      this.unpark(group);
    }
  }

  private track(p: Promise<void>) {
    this.inflight.add(p);
    void p.finally(() => {
      this.inflight.delete(p);
      if (this.freeSlots() >= this.claimBatch && this.claimMayFindMore()) this.wakeLoop();
    });
  }

  /**
   * Whether a claim now could find rows the last ones did not: some kind's claim stopped at
   * its limit, or a group skipped as full has room now. Otherwise a freed slot waits for
   * the next poll or for work enqueued in this process (wake()). Under one busy reseller
   * every finished job claimed again, and every new order's wake claimed callbacks too:
   * each such claim walks that reseller's due callbacks (skipped while its group is full)
   * on the (kind, run_at) index (~2.4 claims per order).
   */
  private claimMayFindMore(): boolean {
    return this.exhausted.size < this.kinds.length || this.groupCapacity().full.join('\n') !== this.lastClaim.full;
  }

  /**
   * Runs a job, then what it handed off. The handoff starts while the finished job's row is
   * still being deleted: the callback of a settled order waits for no round trip of its own
   * parent's bookkeeping. (A lost delete only means the finished job runs once more, later,
   * and finds nothing to do: handlers are idempotent.)
   */
  private async execute(job: RunnableJob): Promise<void> {
    const run = await this.runOne(job);
    if (!run) return;
    const next = run.outcome.status === 'done' ? (run.outcome.handoff ?? []) : [];
    const handedOff = (async () => {
      for (const h of next) await this.runHandedOff(h, job.lease.until);
    })();
    await Promise.all([run.written, handedOff]);
  }

  private async runHandedOff(next: HandedOffJob, leaseUntil: number): Promise<void> {
    const { clock } = this.deps;
    // Written under the parent's lease as it was then: held (and renewed) from now on.
    const lease = this.hold(next.id, leaseUntil);
    if (!this.deps.handlers[next.kind] || !this.running) {
      await this.giveBack(next.id);
      this.wake();
      return;
    }
    // In the slot of the job that handed it off (not tracked as a slot of its own).
    await this.runOrPark({ id: next.id, kind: next.kind, payload: () => next.payload, attempts: 1, runAt: clock.now(), groupKey: next.groupKey, lease, prepared: next.prepared });
  }

  /**
   * Runs one job's handler; `written` settles once its outcome is in the table. Null when
   * the handler threw (rescheduled with a backoff).
   */
  private async runOne(job: RunnableJob): Promise<{ outcome: JobOutcome; written: Promise<void> } | null> {
    const { jobs, logger } = this.deps;
    const handler = this.deps.handlers[job.kind]!;
    let outcome: JobOutcome;
    try {
      outcome = await handler({ id: job.id, kind: job.kind, payload: job.payload(), attempts: job.attempts - 1, runAt: job.runAt, lease: job.lease, prepared: job.prepared, waited: job.waited });
    } catch (err) {
      await this.rescheduleAfterError(job, err);
      this.held.delete(job.id);
      return null;
    }
    const write = outcome.written
      ? Promise.resolve()
      : outcome.status === 'done'
        ? jobs.complete(job.id, this.workerId)
        : jobs.reschedule(job.id, this.workerId, outcome.retryAt, outcome.error ?? null);
    // Let go either way: a row whose outcome could not be written runs again when its lease ends.
    const written = write
      .catch((err) => logger.error({ err, jobId: job.id, kind: job.kind }, 'job outcome not written; the job runs again when its lease ends'))
      .finally(() => this.held.delete(job.id));
    return { outcome, written };
  }

  private async rescheduleAfterError(job: RunnableJob, err: unknown): Promise<void> {
    const { jobs, clock, logger } = this.deps;
    const backoff = Math.min(1000 * 2 ** Math.min(job.attempts, 8), 300_000);
    logger.error({ err, jobId: job.id, kind: job.kind }, 'job failed; rescheduled');
    await jobs.reschedule(job.id, this.workerId, clock.now() + backoff, (err as Error).message?.slice(0, 500) ?? 'error').catch(() => {});
  }
}
