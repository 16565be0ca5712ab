import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createAttemptGate, type AttemptGate } from '../../src/adapters/attempt-gate.js';
import { lockSchedule } from '../../src/domain/lockout.js';
import { REDIS_URL } from '../support/stores.js';

describe('lockSchedule', () => {
  it('is free for the allowance, then doubles from the first lock up to the longest, which holds after', () => {
    expect(lockSchedule({ freeFailures: 2, firstLockMs: 1000, maxLockMs: 5000 })).toEqual([0, 0, 1000, 2000, 4000, 5000]);
    expect(lockSchedule({ freeFailures: 0, firstLockMs: 1000, maxLockMs: 1000 })).toEqual([1000]);
  });
});

const run = randomBytes(5).toString('hex');
const key = (name: string) => `unit-gate-${run}:${name}`;
const schedule = lockSchedule({ freeFailures: 2, firstLockMs: 1000, maxLockMs: 4000 });
const HOUR = 3_600_000;

function gateRules(make: () => AttemptGate) {
  it('attempts sent together cannot all pass: each is counted as it is admitted', async () => {
    const gate = make();
    const k = key('burst');
    const now = 1_700_000_000_000;
    const answers = await Promise.all(Array.from({ length: 10 }, () => gate.admit([{ key: k, schedule }], now, HOUR)));
    // Two free, the third earns the first lock: the seven after it are refused until it ends.
    expect(answers.filter((a) => a.lockedUntil === null)).toHaveLength(3);
    expect(answers.filter((a) => a.lockedUntil === now + 1000)).toHaveLength(7);
    expect((await gate.admit([{ key: k, schedule }], now + 1000, HOUR)).lockedUntil).toBeNull();
    expect((await gate.admit([{ key: k, schedule }], now + 1000, HOUR)).lockedUntil).toBe(now + 3000);
  });

  it('a lock on any key refuses the attempt and counts nothing; the longest lock is answered', async () => {
    const gate = make();
    const [a, b] = [key('a'), key('b')];
    const now = 1_700_000_000_000;
    for (let i = 0; i < 3; i++) await gate.admit([{ key: a, schedule }], now, HOUR);
    for (let i = 0; i < 4; i++) await gate.admit([{ key: b, schedule }], now + 5000 * i, HOUR);
    // a is locked until now + 1000, b until now + 15000 + 2000.
    expect((await gate.admit([{ key: a, schedule }, { key: b, schedule }], now + 500, HOUR)).lockedUntil).toBe(now + 17_000);
    expect((await gate.admit([{ key: a, schedule }], now + 1000, HOUR)).lockedUntil).toBeNull(); // a's 4th: 2 s
    expect((await gate.admit([{ key: a, schedule }], now + 1500, HOUR)).lockedUntil).toBe(now + 3000);
  });

  it('uncount takes an attempt back (its lock stays); clear forgets the key', async () => {
    const gate = make();
    const k = key('back');
    const now = 1_700_000_000_000;
    for (let i = 0; i < 50; i++) {
      expect((await gate.admit([{ key: k, schedule }], now + i, HOUR)).lockedUntil).toBeNull();
      await gate.uncount(k);
    }
    const later = now + 100;
    for (let i = 0; i < 3; i++) await gate.admit([{ key: k, schedule }], later, HOUR);
    expect((await gate.admit([{ key: k, schedule }], later, HOUR)).lockedUntil).toBe(later + 1000);
    await gate.clear(k);
    expect((await gate.admit([{ key: k, schedule }], later, HOUR)).lockedUntil).toBeNull();
    await gate.uncount(k);
    await gate.uncount(k); // never below nothing
    for (let i = 0; i < 2; i++) expect((await gate.admit([{ key: k, schedule }], later, HOUR)).lockedUntil).toBeNull();
    expect((await gate.admit([{ key: k, schedule }], later, HOUR)).lockedUntil).toBeNull(); // the 3rd earns the lock
    expect((await gate.admit([{ key: k, schedule }], later, HOUR)).lockedUntil).toBe(later + 1000);
  });
}

describe('attempt gate in memory', () => {
  gateRules(() => createAttemptGate(null));

  it('forgets a key forgetMs after its last attempt', async () => {
    const gate = createAttemptGate(null);
    const k = key('forget');
    for (let i = 0; i < 3; i++) await gate.admit([{ key: k, schedule }], 0, 10_000);
    expect((await gate.admit([{ key: k, schedule }], 9_999, 10_000)).lockedUntil).toBeNull(); // the 4th
    expect((await gate.admit([{ key: k, schedule }], 19_999 + 1, 10_000)).lockedUntil).toBeNull(); // forgotten: a 1st again
    expect((await gate.admit([{ key: k, schedule }], 20_000, 10_000)).lockedUntil).toBeNull();
  });
});

describe.skipIf(!REDIS_URL)('attempt gate on Redis (atomic, shared by every server)', () => {
  const redis = REDIS_URL ? new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }) : null;
  afterAll(async () => {
    const keys = await redis!.keys(`topup:attempts:unit-gate-${run}:*`);
    if (keys.length) await redis!.del(...keys);
    redis?.disconnect();
  });
  gateRules(() => createAttemptGate(redis));

  it('two servers share the counts and locks', async () => {
    const [one, two] = [createAttemptGate(redis), createAttemptGate(redis)];
    const k = key('shared');
    const now = 1_700_000_000_000;
    await one.admit([{ key: k, schedule }], now, HOUR);
    await two.admit([{ key: k, schedule }], now, HOUR);
    await one.admit([{ key: k, schedule }], now, HOUR);
    expect((await two.admit([{ key: k, schedule }], now, HOUR)).lockedUntil).toBe(now + 1000);
    expect(await redis!.pttl(`topup:attempts:${k}`)).toBeGreaterThan(HOUR - 60_000);
  });
});
