import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';

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

function toState(res: RateLimiterRes | null, limit: number, counted: boolean): RateState {
  const used = res?.consumedPoints ?? 0;
  const resetMs = res ? res.msBeforeNext : WINDOW_SECONDS * 1000;
  return {
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    allowed: !counted || used <= limit,
  };
}

/** Counts in process memory (embedded default), or in Redis so every server shares one count. */
export function createRateLimiter(redis: Redis | null): RateLimiter {
  const opts = { keyPrefix: 'topup:rl', points: UNBOUNDED, duration: WINDOW_SECONDS };
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...opts, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(opts) })
    : new RateLimiterMemory(opts);
  return {
    async consume(key, limit) {
      return toState(await limiter.consume(key, 1), limit, true);
    },
    async peek(key, limit) {
      return toState(await limiter.get(key), limit, false);
    },
  };
}
