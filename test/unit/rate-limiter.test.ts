import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, type RateLimiter, type RateState } from '../../src/adapters/rate-limiter.js';
import { REDIS_URL } from '../support/stores.js';

/**
 * createRateLimiter: concurrent consumes of one key share one store call (Redis) and each
 * still sees the exact state it would have had alone, in the order it was asked.
 */
const run = randomBytes(5).toString('hex');
const uniqueKey = (name: string) => `unit-rl-${run}:${name}:${randomBytes(3).toString('hex')}`;
const storeKey = (key: string) => `topup:rl:${key}`;

/** The j-th request (1-based) of a fresh window, with limit L. */
const expected = (j: number, limit: number) => ({ limit, remaining: Math.max(0, limit - j), allowed: j <= limit });
const shape = (s: RateState) => ({ limit: s.limit, remaining: s.remaining, allowed: s.allowed });

/** Consumes that arrive in waves, each wave while the previous ones may still be in flight. */
async function waves(limiter: RateLimiter, key: string, limit: number, sizes: number[]) {
  const all: Promise<RateState>[] = [];
  for (const n of sizes) {
    for (let i = 0; i < n; i++) all.push(limiter.consume(key, limit));
    await new Promise((r) => setImmediate(r));
  }
  return Promise.all(all);
}

/** Exactness checks every variant must pass. */
function exactness(make: () => RateLimiter) {
  it('N concurrent consumes with limit L < N: remaining L-1 … 0, 0 …, exactly L allowed, in asking order', async () => {
    const limiter = make();
    const key = uniqueKey('burst');
    const got = await Promise.all(Array.from({ length: 50 }, () => limiter.consume(key, 20)));
    expect(got.map(shape)).toEqual(got.map((_, i) => expected(i + 1, 20)));
    expect(got.filter((s) => s.allowed)).toHaveLength(20);
    expect(new Set(got.map((s) => s.resetSeconds)).size).toBe(1);
    expect(got[0]!.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(got[0]!.resetSeconds).toBeLessThanOrEqual(60);
    // peek does not count
    expect(shape(await limiter.peek(key, 20))).toEqual({ limit: 20, remaining: 0, allowed: true });
    expect((await limiter.consume(key, 60)).remaining).toBe(60 - 51);
  });

  it('waves arriving while earlier calls are in flight are still counted exactly, in order', async () => {
    const limiter = make();
    const key = uniqueKey('waves');
    const got = await waves(limiter, key, 25, [1, 7, 12, 3, 20, 1, 6]);
    expect(got.map(shape)).toEqual(got.map((_, i) => expected(i + 1, 25)));
  });

  it('each request is judged with its own limit', async () => {
    const limiter = make();
    const key = uniqueKey('limits');
    const got = await Promise.all([limiter.consume(key, 10), limiter.consume(key, 1), limiter.consume(key, 3), limiter.consume(key, 2)]);
    expect(got.map(shape)).toEqual([
      { limit: 10, remaining: 9, allowed: true },
      { limit: 1, remaining: 0, allowed: false },
      { limit: 3, remaining: 0, allowed: true },
      { limit: 2, remaining: 0, allowed: false },
    ]);
  });

  it('two keys are counted independently', async () => {
    const limiter = make();
    const [a, b] = [uniqueKey('a'), uniqueKey('b')];
    const asks: [string, Promise<RateState>][] = [];
    for (let i = 0; i < 30; i++) asks.push([a, limiter.consume(a, 10)], [b, limiter.consume(b, 20)]);
    const got = await Promise.all(asks.map(async ([k, p]) => [k, await p] as const));
    const ofA = got.filter(([k]) => k === a).map(([, s]) => shape(s));
    const ofB = got.filter(([k]) => k === b).map(([, s]) => shape(s));
    expect(ofA).toEqual(ofA.map((_, i) => expected(i + 1, 10)));
    expect(ofB).toEqual(ofB.map((_, i) => expected(i + 1, 20)));
  });

  it('a lone consume is unchanged', async () => {
    const limiter = make();
    const key = uniqueKey('lone');
    const first = await limiter.consume(key, 5);
    expect(shape(first)).toEqual({ limit: 5, remaining: 4, allowed: true });
    expect(first.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(first.resetSeconds).toBeLessThanOrEqual(60);
    expect(shape(await limiter.consume(key, 5))).toEqual({ limit: 5, remaining: 3, allowed: true });
  });
}

describe('rate limiter in memory (no Redis)', () => {
  exactness(() => createRateLimiter(null));
});

describe('rate limiter with Redis not ready: the in-memory insurance limiter counts, exactly', () => {
  const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const sent = vi.spyOn(redis, 'sendCommand');
  afterAll(() => {
    expect(sent).not.toHaveBeenCalled();
    redis.disconnect();
  });
  exactness(() => createRateLimiter(redis));
});

describe.skipIf(!REDIS_URL)('rate limiter on Redis: one round trip per burst of a key, exact shared count', () => {
  let redis: Redis;
  let other: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await Promise.all([redis.ping(), other.ping()]);
  });
  afterAll(async () => {
    if (other) {
      const keys = await other.keys(storeKey(`unit-rl-${run}:*`));
      if (keys.length) await other.del(...keys);
    }
    redis?.disconnect();
    other?.disconnect();
  });
  /** Commands the limiter's connection sends while `fn` runs. */
  async function counting<T>(fn: (sent: () => number) => Promise<T>) {
    const spy = vi.spyOn(redis, 'sendCommand');
    try {
      return { result: await fn(() => spy.mock.calls.length), commands: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  exactness(() => createRateLimiter(redis));

  it('50 concurrent consumes of one key: two Redis calls (the first at once, then one for the 49 that waited), count 50', async () => {
    const limiter = createRateLimiter(redis);
    const key = uniqueKey('coalesce');
    const { result, commands } = await counting(async (sent) => {
      const asks = Array.from({ length: 50 }, () => limiter.consume(key, 20));
      expect(sent()).toBe(1); // the first went out at once, without waiting for anything
      return Promise.all(asks);
    });
    expect(commands).toBe(2);
    expect(result.map(shape)).toEqual(result.map((_, i) => expected(i + 1, 20)));
    expect(await other.get(storeKey(key))).toBe('50');
  });

  it('consumes asked in the turn the answer came back in go out with the ones that waited (one call, not two)', async () => {
    const limiter = createRateLimiter(redis);
    const key = uniqueKey('same-turn');
    const { result, commands } = await counting(async () => {
      const first = limiter.consume(key, 20);
      const waited = Array.from({ length: 4 }, () => limiter.consume(key, 20));
      // Requests read in the same turn as the first answer, after it.
      const sameTurn = first.then(() => Array.from({ length: 4 }, () => limiter.consume(key, 20)));
      return Promise.all([first, ...waited, ...(await sameTurn)]);
    });
    expect(commands).toBe(2);
    expect(result.map(shape)).toEqual(result.map((_, i) => expected(i + 1, 20)));
    expect(await other.get(storeKey(key))).toBe('9');
  });

  it('bursts in waves: far fewer calls than requests, and Redis holds the exact count', async () => {
    const limiter = createRateLimiter(redis);
    const key = uniqueKey('waves-count');
    const sizes = [10, 10, 10, 10, 10, 10];
    const { result, commands } = await counting(() => waves(limiter, key, 40, sizes));
    expect(commands).toBeLessThanOrEqual(2 * sizes.length);
    expect(result.map(shape)).toEqual(result.map((_, i) => expected(i + 1, 40)));
    expect(await other.get(storeKey(key))).toBe('60');
  });

  it('two keys: each has its own call in flight (the second key does not wait behind the first)', async () => {
    const limiter = createRateLimiter(redis);
    const [a, b] = [uniqueKey('ind-a'), uniqueKey('ind-b')];
    const { commands } = await counting(async (sent) => {
      const asks = [limiter.consume(a, 10), limiter.consume(b, 10)];
      expect(sent()).toBe(2);
      for (let i = 0; i < 29; i++) asks.push(limiter.consume(a, 10), limiter.consume(b, 10));
      return Promise.all(asks);
    });
    expect(commands).toBe(4);
    expect(await other.get(storeKey(a))).toBe('30');
    expect(await other.get(storeKey(b))).toBe('30');
  });

  it('a lone consume is one call, sent at once; two servers share the count', async () => {
    const [one, two] = [createRateLimiter(redis), createRateLimiter(other)];
    const key = uniqueKey('lone-shared');
    const { result, commands } = await counting(async (sent) => {
      const p = one.consume(key, 5);
      expect(sent()).toBe(1);
      return p;
    });
    expect(commands).toBe(1);
    expect(shape(result)).toEqual({ limit: 5, remaining: 4, allowed: true });
    expect(shape(await two.consume(key, 5))).toEqual({ limit: 5, remaining: 3, allowed: true });
    expect(await other.get(storeKey(key))).toBe('2');
  });

  it('when a batched call rejects, every consume of that batch gets the rejection, and the key is not stuck', async () => {
    // The only rejection a reachable Redis gives: the store-side bound (UNBOUNDED = 1e9) crossed.
    const limiter = createRateLimiter(redis);
    const key = uniqueKey('reject');
    await other.set(storeKey(key), 1_000_000_000 - 10, 'EX', 60);
    const settled = await Promise.allSettled(Array.from({ length: 50 }, () => limiter.consume(key, 20)));
    expect(settled[0]!.status).toBe('fulfilled'); // went out alone, within the bound
    const rest = settled.slice(1);
    expect(rest.every((s) => s.status === 'rejected')).toBe(true);
    const reasons = new Set(rest.map((s) => (s as PromiseRejectedResult).reason));
    expect(reasons.size).toBe(1);
    const [reason] = reasons;
    expect(reason).toBeInstanceOf(RateLimiterRes);
    expect((reason as RateLimiterRes).consumedPoints).toBe(1_000_000_000 - 10 + 50);
    await other.del(storeKey(key));
    expect(shape(await limiter.consume(key, 20))).toEqual({ limit: 20, remaining: 19, allowed: true });
  });
});
