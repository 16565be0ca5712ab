import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

// The two limiters' own files: the package's index loads all of its ~30 kinds (Mongo,
// DynamoDB, cluster, …), a visible part of every CLI command's start (docs/performance.md).
const require = createRequire(import.meta.url);
const RateLimiterMemory: typeof import('rate-limiter-flexible').RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory');
const RateLimiterRedis: typeof import('rate-limiter-flexible').RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis');

/** Fixed one-minute windows; the limit is applied by the caller, so one counter serves every tier. */
export const WINDOW_SECONDS = 60;

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends and the count starts again. */
  resetSeconds: number;
  allowed: boolean;
}

export interface RateLimiter {
  /** Counts one request against `key` and says whether it is within `limit`. */
  consume(key: string, limit: number): Promise<RateState>;
  /** Reads the current state without counting (for exempt requests). */
  peek(key: string, limit: number): Promise<RateState>;
}

const UNBOUNDED = 1_000_000_000;

/** `countedAfter`: points of the same store call counted after this request (see `consume`). */
function toState(res: RateLimiterRes | null, limit: number, counted: boolean, countedAfter = 0): RateState {
  const used = (res?.consumedPoints ?? 0) - countedAfter;
  const resetMs = res ? res.msBeforeNext : WINDOW_SECONDS * 1000;
  return {
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    allowed: !counted || used <= limit,
  };
}

interface Waiter {
  limit: number;
  resolve(state: RateState): void;
  reject(err: unknown): void;
}

/** Counts in process memory (embedded default), or in Redis so every server shares one count. */
export function createRateLimiter(redis: Redis | null): RateLimiter {
  const opts = { keyPrefix: 'topup:rl', points: UNBOUNDED, duration: WINDOW_SECONDS };
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...opts, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(opts) })
    : new RateLimiterMemory(opts);

  // Redis: one round trip per burst of a hot key, and still an exact shared count. A consume
  // goes out at once unless one for the same key is in flight; then it waits, and all that
  // waited go out together as ONE increment by k when the call returns. The k increments are
  // consecutive in the store, so the i-th of them (1..k) sees used = consumed - k + i, exactly
  // what k back-to-back consumes would have seen. `waiting` has an entry while a key's call
  // is in flight: the consumes that will go out in its next call. If a call rejects, each of
  // its consumes gets that rejection (Redis errors already fell back to the insurance limiter).
  const waiting = new Map<string, Waiter[]>();
  async function send(key: string, batch: Waiter[]) {
    waiting.set(key, []);
    let settle: (w: Waiter, i: number) => void;
    try {
      const res = await limiter.consume(key, batch.length);
      settle = (w, i) => w.resolve(toState(res, w.limit, true, batch.length - 1 - i));
    } catch (err) {
      settle = (w) => w.reject(err);
    }
    // The next call leaves after this turn, so the consumes read in this turn (after the
    // answer) go with it instead of waiting for one more round trip.
    const next = waiting.get(key)!;
    if (next.length) setImmediate(() => void send(key, next));
    else waiting.delete(key);
    batch.forEach(settle);
  }

  return {
    // In memory there is no round trip to save, and each consume counts synchronously in
    // call order, so the plain per-request consume is already exact: no coalescing there.
    consume: redis
      ? (key, limit) =>
          new Promise<RateState>((resolve, reject) => {
            const waiter = { limit, resolve, reject };
            const queue = waiting.get(key);
            if (queue) queue.push(waiter);
            else void send(key, [waiter]);
          })
      : async (key, limit) => toState(await limiter.consume(key, 1), limit, true),
    async peek(key, limit) {
      return toState(await limiter.get(key), limit, false);
    },
  };
}
