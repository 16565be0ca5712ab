import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { enqueueJob, JOB_KINDS, JobsRepo } from '../../src/store/jobs-repo.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { JobHandler } from '../../src/worker/job-contract.js';
import { JobRunner } from '../../src/worker/runner.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

const silent = pino({ level: 'silent' });
// slowMs 0: every running job counts as slow, so perGroup is a plain cap in these tests.
const settings = { concurrency: 4, pollMs: 10, leaseMs: 60_000, perGroup: 4, slowMs: 0 };

/** Resolves when `check` holds, polling the store (no timing assertions, only a safety bound). */
async function until(check: () => Promise<boolean>, what: string, boundMs = 10_000) {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(storeKinds())('job runner (%s)', (kind) => {
  let store: TestStore;
  let database: Database;
  let jobs: JobsRepo;
  beforeAll(async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateToLatest(database);
    jobs = new JobsRepo(database.db, database.dialect);
  });
  afterAll(async () => {
    await database?.close();
    await store?.drop();
  });

  const rows = (k: string) => database.db.selectFrom('jobs').selectAll().where('kind', '=', k).execute();

  it('runs handlers concurrently: a handler that hangs does not hold up the others', async () => {
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((r) => (releaseSlow = r));
    const fastDone: number[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      slow: async () => {
        await slowGate;
        return { status: 'done' };
      },
      fast: async (job) => {
        fastDone.push(job.payload.n);
        return { status: 'done' };
      },
    };
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'slow', payload: {}, runAt: now - 1000 }, now);
    for (let n = 0; n < 5; n++) await enqueueJob(database.db, { kind: 'fast', payload: { n }, runAt: now }, now);
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => Date.now() }, logger: silent, settings });
    runner.start();
    try {
      // Every fast job finishes while the slow one is still held open.
      await until(async () => (await rows('fast')).length === 0, 'fast jobs done while slow is running');
      expect(fastDone.sort()).toEqual([0, 1, 2, 3, 4]);
      const slow = await rows('slow');
      expect(slow).toHaveLength(1);
      expect(slow[0]!.locked_by).toBe(runner.workerId);
      releaseSlow();
      await until(async () => (await rows('slow')).length === 0, 'slow job done after release');
    } finally {
      releaseSlow();
      await runner.stop();
    }
  });

  it('runs at most perGroup jobs of one group at once; other groups and ungrouped jobs go past', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = 0;
    let peak = 0;
    const other: string[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      grouped: async (job) => {
        if (job.payload.g === 'busy') {
          running++;
          peak = Math.max(peak, running);
          await gate;
          running--;
        } else other.push(job.payload.g);
        return { status: 'done' };
      },
    };
    const now = Date.now();
    for (let i = 0; i < 10; i++) await enqueueJob(database.db, { kind: 'grouped', payload: { g: 'busy' }, runAt: now - 1000, groupKey: 'busy' }, now);
    await enqueueJob(database.db, { kind: 'grouped', payload: { g: 'quiet' }, runAt: now, groupKey: 'quiet' }, now);
    await enqueueJob(database.db, { kind: 'grouped', payload: { g: 'none' }, runAt: now }, now);
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, concurrency: 8, perGroup: 2, parkPerGroup: 2 } });
    runner.start();
    try {
      // Both other jobs ran while the busy group held its two slots, though 10 of it were due first.
      await until(async () => other.length === 2, 'other groups ran beside the busy one');
      expect(other.sort()).toEqual(['none', 'quiet']);
      expect(running).toBe(2);
      // Two run; up to two more wait here, still leased; the rest stay in the queue.
      await until(async () => (await rows('grouped')).filter((r) => r.locked_by !== null).length === 4, 'over-fetched rows given back');
      const busy = await rows('grouped');
      // Released claims are given back uncounted.
      expect(busy.filter((r) => r.locked_by === null).every((r) => Number(r.attempts) === 0)).toBe(true);
      release();
      await until(async () => (await rows('grouped')).length === 0, 'busy group drained two at a time');
      expect(peak).toBe(2);
    } finally {
      release();
      await runner.stop();
    }
  });

  it('lets a group whose jobs are quick use up to half the slots, and caps it at perGroup once they run slow', async () => {
    const waiting: (() => void)[] = [];
    let running = 0;
    const handlers: Record<string, JobHandler<any>> = {
      held: async () => {
        running++;
        await new Promise<void>((r) => waiting.push(r));
        running--;
        return { status: 'done' };
      },
    };
    const now = Date.now();
    for (let i = 0; i < 10; i++) await enqueueJob(database.db, { kind: 'held', payload: {}, runAt: now, groupKey: 'quick' }, now);
    let clockNow = Date.now();
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => clockNow }, logger: silent, settings: { ...settings, concurrency: 8, perGroup: 1, slowMs: 60_000 } });
    runner.start();
    try {
      // Not slow yet: half of the 8 slots, though perGroup is 1.
      await until(async () => running === 4, 'half the slots taken');
      // Quick jobs ending make room at once: the next one starts.
      waiting.shift()!();
      await until(async () => waiting.length === 4 && running === 4, 'a quick one replaced');
      // Time passes: the four running now count as slow. One ends; three slow ones are still
      // at least perGroup (1), so nothing new starts in its place.
      clockNow += 61_000;
      waiting.shift()!();
      await until(async () => running === 3, 'one ended');
      await new Promise((r) => setTimeout(r, 100));
      runner.wake();
      await new Promise((r) => setTimeout(r, 100));
      expect(running).toBe(3);
    } finally {
      while (waiting.length) waiting.shift()!();
      await runner.stop();
      while (waiting.length) waiting.shift()!();
    }
  });

  it("claims no more of a group's callbacks than it can start or park: none are claimed only to be given back", async () => {
    await database.db.deleteFrom('jobs').execute();
    const waiting: (() => void)[] = [];
    let running = 0;
    const handlers: Record<string, JobHandler<any>> = {
      [JOB_KINDS.deliverCallback]: async () => {
        running++;
        await new Promise<void>((r) => waiting.push(r));
        running--;
        return { status: 'done' };
      },
    };
    const now = Date.now();
    for (let i = 0; i < 12; i++) await enqueueJob(database.db, { kind: JOB_KINDS.deliverCallback, payload: { i }, runAt: now - 1000 + i, groupKey: 'reseller:busy' }, now);
    let releases = 0;
    const counting = Object.assign(Object.create(jobs) as JobsRepo, {
      release: (id: number, workerId: string) => (releases++, jobs.release(id, workerId)),
    });
    // Half of 8 slots run, one more waits leased (one parking place); not slow within this test.
    const runner = new JobRunner({ jobs: counting, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, concurrency: 8, perGroup: 1, slowMs: 60_000, parkPerGroup: 1 } });
    runner.start();
    try {
      const leased = async () => (await rows(JOB_KINDS.deliverCallback)).filter((r) => r.locked_by !== null).length;
      await until(async () => running === 4 && (await leased()) === 5, 'four running, one parked');
      // Further claims while the group is full, and as it drains one at a time.
      for (let i = 0; i < 3; i++) {
        runner.wake();
        await new Promise((r) => setTimeout(r, 30));
      }
      while ((await rows(JOB_KINDS.deliverCallback)).length > 0) {
        waiting.shift()?.();
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(releases).toBe(0);
    } finally {
      while (waiting.length) waiting.shift()!();
      await runner.stop();
      while (waiting.length) waiting.shift()!();
    }
  });

  it("by default a full group's handed-off jobs wait here, leased, up to twice the slots, rather than go back to the table", async () => {
    await database.db.deleteFrom('jobs').execute();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const ran: string[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      hold: async () => {
        await gate;
        return { status: 'done' };
      },
      parent: async (job) => {
        const child = await enqueueJob(database.db, { kind: 'child3', payload: {}, runAt: Date.now(), groupKey: 'busy', lease: job.lease }, Date.now());
        return { status: 'done', handoff: [child] };
      },
      child3: async () => {
        ran.push('child');
        return { status: 'done' };
      },
    };
    const now = Date.now();
    // 4 slots: the busy group holds its half (2); six parents hand off six of its jobs.
    for (let i = 0; i < 2; i++) await enqueueJob(database.db, { kind: 'hold', payload: {}, runAt: now - 1000, groupKey: 'busy' }, now);
    for (let i = 0; i < 6; i++) await enqueueJob(database.db, { kind: 'parent', payload: {}, runAt: now }, now);
    let releases = 0;
    const counting = Object.assign(Object.create(jobs) as JobsRepo, {
      release: (id: number, workerId: string) => (releases++, jobs.release(id, workerId)),
    });
    const runner = new JobRunner({ jobs: counting, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, concurrency: 4, perGroup: 1, slowMs: 60_000 } });
    runner.start();
    try {
      await until(async () => (await rows('parent')).length === 0, 'parents done');
      expect((await rows('child3')).map((r) => r.locked_by)).toEqual(Array(6).fill(runner.workerId));
      expect(ran).toEqual([]);
      open();
      await until(async () => ran.length === 6, 'children ran once the group had room');
      expect(releases).toBe(0);
    } finally {
      open();
      await runner.stop();
    }
  });

  it('a finished job claims again only if the last claim may have left rows behind, or a full group has room again', async () => {
    await database.db.deleteFrom('jobs').execute();
    let claims = 0;
    const counting = Object.assign(Object.create(jobs) as JobsRepo, {
      claim: (...args: Parameters<JobsRepo['claim']>) => (claims++, jobs.claim(...args)),
    });
    const waiting: (() => void)[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      quick: async () => ({ status: 'done' }),
      [JOB_KINDS.deliverCallback]: async () => {
        await new Promise<void>((r) => waiting.push(r));
        return { status: 'done' };
      },
    };
    const now = Date.now();
    for (let i = 0; i < 3; i++) await enqueueJob(database.db, { kind: 'quick', payload: { i }, runAt: now }, now);
    // No poll within the test: only claims that finished jobs ask for.
    const runner = new JobRunner({ jobs: counting, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, concurrency: 4, perGroup: 1, slowMs: 60_000, pollMs: 60_000 } });
    runner.start();
    try {
      await until(async () => (await rows('quick')).length === 0, 'quick jobs done');
      // The first claim took all three and found nothing more: their ends claimed nothing.
      expect(claims).toBe(1);
      // A group capped at 2 running (half of 4 slots) and 1 parked: the rest stay in the
      // table while it is full, and are claimed as it gets room, with no poll.
      for (let i = 0; i < 6; i++) await enqueueJob(database.db, { kind: JOB_KINDS.deliverCallback, payload: { i }, runAt: now + i, groupKey: 'reseller:busy' }, now);
      runner.wake();
      await until(async () => {
        waiting.shift()?.();
        return (await rows(JOB_KINDS.deliverCallback)).length === 0;
      }, 'the group drained as it got room');
    } finally {
      while (waiting.length) waiting.shift()!();
      await runner.stop();
    }
  });

  it("a wake for one kind claims that kind only, while the others' last claim found all that was due; a plain wake claims every kind", async () => {
    await database.db.deleteFrom('jobs').execute();
    const asked: string[][] = [];
    const counting = Object.assign(Object.create(jobs) as JobsRepo, {
      claim: (...args: Parameters<JobsRepo['claim']>) => (asked.push([...args[0]].sort()), jobs.claim(...args)),
    });
    const ran: string[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      [JOB_KINDS.fulfilOrder]: async () => (ran.push('fulfil'), { status: 'done' }),
      [JOB_KINDS.deliverCallback]: async () => (ran.push('callback'), { status: 'done' }),
    };
    const runner = new JobRunner({ jobs: counting, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, pollMs: 60_000 } });
    runner.start();
    try {
      await until(async () => asked.length === 1, 'the first claim');
      expect(asked[0]).toEqual([JOB_KINDS.deliverCallback, JOB_KINDS.fulfilOrder]);
      await enqueueJob(database.db, { kind: JOB_KINDS.fulfilOrder, payload: {}, runAt: Date.now() }, Date.now());
      runner.wake([JOB_KINDS.fulfilOrder]);
      await until(async () => ran.length === 1, 'the fulfilment job ran');
      expect(asked[1]).toEqual([JOB_KINDS.fulfilOrder]);
      await enqueueJob(database.db, { kind: JOB_KINDS.deliverCallback, payload: {}, runAt: Date.now(), groupKey: 'reseller:r' }, Date.now());
      runner.wake();
      await until(async () => ran.length === 2, 'the callback ran');
      expect(ran).toEqual(['fulfil', 'callback']);
      expect(asked.at(-1)).toEqual([JOB_KINDS.deliverCallback, JOB_KINDS.fulfilOrder]);
    } finally {
      await runner.stop();
    }
  });

  it('runs a handed-off job next in the same slot, under the lease it was written with, with what its writer prepared', async () => {
    const seen: { attempts: number; lockedBy: string | null; prepared: unknown }[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      parent: async (job) => {
        // Written leased to this runner: no claim can take it while the lease lasts, so only
        // the handoff can run it within this test.
        const child = await enqueueJob(database.db, { kind: 'child', payload: { from: job.id }, runAt: Date.now(), lease: job.lease }, Date.now());
        return { status: 'done', handoff: [{ ...child, prepared: { read: 'by the parent' } }] };
      },
      child: async (job) => {
        const [row] = await database.db.selectFrom('jobs').select('locked_by').where('id', '=', job.id).execute();
        seen.push({ attempts: job.attempts, lockedBy: row?.locked_by ?? null, prepared: job.prepared });
        return { status: 'done' };
      },
    };
    await enqueueJob(database.db, { kind: 'parent', payload: {}, runAt: Date.now() }, Date.now());
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => Date.now() }, logger: silent, settings });
    runner.start();
    try {
      await until(async () => seen.length === 1, 'the handed-off child ran');
      expect(seen).toEqual([{ attempts: 0, lockedBy: runner.workerId, prepared: { read: 'by the parent' } }]);
      await until(async () => (await rows('child')).length === 0 && (await rows('parent')).length === 0, 'both rows completed');
    } finally {
      await runner.stop();
    }
  });

  it('parks a handed-off job while its group is full, still leased, and runs it once the group has room (its prepared data marked as waited)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const handlers: Record<string, JobHandler<any>> = {
      hold: async () => {
        await gate;
        ran.push('hold');
        return { status: 'done' };
      },
      parent: async (job) => {
        const child = await enqueueJob(database.db, { kind: 'child2', payload: {}, runAt: Date.now(), groupKey: 'full', lease: job.lease }, Date.now());
        return { status: 'done', handoff: [{ ...child, prepared: 'read by the parent' }] };
      },
      child2: async (job) => {
        ran.push(`child ${String(job.prepared)} waited=${job.waited}`);
        return { status: 'done' };
      },
    };
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'hold', payload: {}, runAt: now - 1000, groupKey: 'full' }, now);
    await enqueueJob(database.db, { kind: 'parent', payload: {}, runAt: now }, now);
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, perGroup: 1 } });
    runner.start();
    try {
      await until(async () => (await rows('parent')).length === 0, 'parent done');
      const [child] = await rows('child2');
      expect(child).toMatchObject({ locked_by: runner.workerId });
      expect(ran).toEqual([]);
      release();
      await until(async () => ran.length === 2, 'child ran after the group had room');
      expect(ran).toEqual(['hold', 'child read by the parent waited=true']);
    } finally {
      release();
      await runner.stop();
    }
  });

  it('leaves kinds it has no handler for untouched, and keeps retries in the table', async () => {
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'someone_elses', payload: { x: 1 }, runAt: now }, now);
    await enqueueJob(database.db, { kind: 'flaky', payload: {}, runAt: now }, now);
    const retryAt = now + 3_600_000;
    const seen: number[] = [];
    const runner = new JobRunner({
      jobs,
      handlers: { flaky: async (job) => (seen.push(job.attempts), { status: 'retry', retryAt, error: 'upstream said later' }) },
      clock: { now: () => Date.now() },
      logger: silent,
      settings,
    });
    runner.start();
    try {
      await until(async () => (await rows('flaky'))[0]?.last_error === 'upstream said later', 'retry written back');
    } finally {
      await runner.stop();
    }
    const [flaky] = await rows('flaky');
    expect(flaky).toMatchObject({ attempts: 1, locked_by: null, locked_until: null });
    expect(Number(flaky!.run_at)).toBe(retryAt);
    expect(seen).toEqual([0]);
    const [other] = await rows('someone_elses');
    expect(other).toMatchObject({ attempts: 0, locked_by: null, locked_until: null, last_error: null });
    await database.db.deleteFrom('jobs').where('kind', 'in', ['flaky', 'someone_elses']).execute();
  });

  it("a dead worker's claim is taken again once its lease runs out, and the dead worker can no longer finish it", async () => {
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'leased', payload: {}, runAt: now }, now);
    const first = (await jobs.claim(['leased'], 10, 'dead-worker', now, 1000)).jobs;
    expect(first).toHaveLength(1);
    expect((await jobs.claim(['leased'], 10, 'other', now + 500, 1000)).jobs).toHaveLength(0);
    const again = (await jobs.claim(['leased'], 10, 'other', now + 1500, 1000)).jobs;
    expect(again.map((j) => j.id)).toEqual([first[0]!.id]);
    expect(again[0]!.attempts).toBe(2);
    // The late original worker's outcome must not overwrite the new owner's claim.
    await jobs.complete(first[0]!.id, 'dead-worker');
    expect(await rows('leased')).toHaveLength(1);
    await jobs.complete(first[0]!.id, 'other');
    expect(await rows('leased')).toHaveLength(0);
  });

  it('renews the leases of the rows it holds while they run, so no other runner takes a long job', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const now = Date.now();
    const { id } = await enqueueJob(database.db, { kind: 'long', payload: {}, runAt: now }, now);
    // The holder polls once an hour: only its heartbeat, not a claim of its own poll, can keep the row.
    const holder = new JobRunner({ jobs, handlers: { long: async () => (await gate, { status: 'done' }) }, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, pollMs: 3_600_000, leaseMs: 3000, heartbeatMs: 50 } });
    let takenOver = 0;
    const other = new JobRunner({ jobs, handlers: { long: async () => (takenOver++, { status: 'done' }) }, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, leaseMs: 3000 } });
    const lockedUntil = async () => Number((await rows('long'))[0]?.locked_until);
    holder.start();
    try {
      await until(async () => (await rows('long'))[0]?.locked_by === holder.workerId, 'claimed');
      const first = await lockedUntil();
      other.start();
      await until(async () => (await lockedUntil()) > first, 'the heartbeat renewed the lease before the first one ended', Math.max(0, first - Date.now()));
      // The other runner keeps polling past the end of the first lease and never gets the row.
      await until(async () => (other.lastTurnAt ?? 0) > first + 300, 'the other runner polled after the first lease ended');
      expect(takenOver).toBe(0);
      expect((await rows('long'))[0]?.locked_by).toBe(holder.workerId);
      // The handler's lease (what it writes handoffs under) follows the renewals.
      await until(async () => holder.heldLeases().get(id)!.until === (await lockedUntil()), 'in-memory lease follows the store');
      release();
      await until(async () => (await rows('long')).length === 0, 'done');
      expect(holder.heldLeases().size).toBe(0);
      expect(takenOver).toBe(0);
    } finally {
      release();
      await holder.stop();
      await other.stop();
    }
  });

  it('a running job whose lease lapsed (a stalled heartbeat) and is claimed again by its own runner does not run twice', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'lapsing', payload: {}, runAt: now }, now);
    const handlers: Record<string, JobHandler<any>> = { lapsing: async () => (runs++, await gate, { status: 'done' }) };
    // No heartbeat within the test: the 20 ms lease lapses at once and every poll claims the row again.
    const runner = new JobRunner({ jobs, handlers, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, leaseMs: 20, heartbeatMs: 3_600_000 } });
    runner.start();
    try {
      await until(async () => Number((await rows('lapsing'))[0]?.attempts) >= 3, 'claimed again twice while running');
      expect(runs).toBe(1);
      release();
      await until(async () => (await rows('lapsing')).length === 0, 'done');
      expect(runs).toBe(1);
    } finally {
      release();
      await runner.stop();
    }
  });

  it('a planned stop gives back at once the rows it holds and has not run, rather than letting their leases run out', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const now = Date.now();
    await enqueueJob(database.db, { kind: 'stop_hold', payload: {}, runAt: now - 1000, groupKey: 'stopping' }, now);
    await enqueueJob(database.db, { kind: 'stop_hold', payload: {}, runAt: now, groupKey: 'stopping' }, now);
    const runner = new JobRunner({ jobs, handlers: { stop_hold: async () => (await gate, { status: 'done' }) }, clock: { now: () => Date.now() }, logger: silent, settings: { ...settings, perGroup: 1, concurrency: 2, parkPerGroup: 1 } });
    runner.start();
    await until(async () => (await rows('stop_hold')).every((r) => r.locked_by === runner.workerId), 'one running, one parked, both leased here');
    const stopping = runner.stop();
    release();
    await stopping;
    const left = await rows('stop_hold');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ locked_by: null, locked_until: null, attempts: 0 });
    expect(runner.heldLeases().size).toBe(0);
    await database.db.deleteFrom('jobs').where('kind', '=', 'stop_hold').execute();
  });

  it('claims callback deliveries before older fulfilment jobs, and fills the remaining slots with fulfilment', async () => {
    const now = Date.now();
    await database.db.deleteFrom('jobs').execute();
    for (let i = 0; i < 3; i++) await enqueueJob(database.db, { kind: 'fulfil_order', payload: { i }, runAt: now - 1000 + i }, now);
    await enqueueJob(database.db, { kind: 'deliver_callback', payload: { c: 1 }, runAt: now - 10, groupKey: 'reseller:x' }, now);
    const kinds = ['fulfil_order', 'deliver_callback'];
    const first = (await jobs.claim(kinds, 2, 'w-prio', now, 60_000)).jobs;
    expect(first.map((j) => j.kind)).toEqual(['deliver_callback', 'fulfil_order']);
    expect(JSON.parse(first[1]!.payload)).toEqual({ i: 0 }); // the oldest fulfilment job
    // A full group's callbacks are skipped; fulfilment is still claimed in run_at order.
    await enqueueJob(database.db, { kind: 'deliver_callback', payload: { c: 2 }, runAt: now - 5, groupKey: 'reseller:x' }, now);
    const next = (await jobs.claim(kinds, 5, 'w-prio', now, 60_000, ['reseller:x'])).jobs;
    expect(next.map((j) => JSON.parse(j.payload)).sort((x, y) => x.i - y.i)).toEqual([{ i: 1 }, { i: 2 }]); // a claim's rows come in no set order
    await database.db.deleteFrom('jobs').execute();
  });

  it('two concurrent claimers never get the same row', async () => {
    const now = Date.now();
    for (let i = 0; i < 40; i++) await enqueueJob(database.db, { kind: 'shared', payload: { i }, runAt: now }, now);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, w) => jobs.claim(['shared'], 5, `w${w}`, now, 60_000).then((c) => c.jobs)));
    const ids = claims.flat().map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(40);
  });
});
