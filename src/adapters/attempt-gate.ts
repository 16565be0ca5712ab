import type { Redis } from 'ioredis';

/** A key to admit an attempt against, and the lock (ms) each count of failures earns (lockSchedule). */
export interface GateKey {
  key: string;
  schedule: readonly number[];
}

/**
 * Attempts at something guessable, counted per key with growing locks. An attempt is
 * admitted only when none of its keys is locked, and is then counted at once as if it
 * failed (its keys locked for what that count earns), so attempts sent together cannot all
 * pass before the first failure is recorded. One that did not fail is taken back.
 */
export interface AttemptGate {
  /** Admits and counts one attempt against every key, or answers when the longest lock ends (ms). */
  admit(keys: GateKey[], now: number, forgetMs: number): Promise<{ lockedUntil: number | null }>;
  /** Takes back one admitted attempt (its count; a lock it set stays until it ends). */
  uncount(key: string): Promise<void>;
  /** Forgets a key's failures and lock. */
  clear(key: string): Promise<void>;
}

const at = (schedule: readonly number[], count: number) => schedule[Math.min(count, schedule.length) - 1] ?? 0;

/** Past this many keys the forgotten ones are swept, then the oldest dropped (bounded memory under a spray). */
const MAX_KEYS = 100_000;

class MemoryAttemptGate implements AttemptGate {
  private readonly entries = new Map<string, { count: number; until: number; forgetAt: number }>();

  private live(key: string, now: number) {
    const e = this.entries.get(key);
    if (e && e.forgetAt <= now) this.entries.delete(key);
    return e && e.forgetAt > now ? e : undefined;
  }

  async admit(keys: GateKey[], now: number, forgetMs: number) {
    const until = Math.max(0, ...keys.map(({ key }) => this.live(key, now)?.until ?? 0));
    if (until > now) return { lockedUntil: until };
    for (const { key, schedule } of keys) {
      const e = this.live(key, now) ?? { count: 0, until: 0, forgetAt: 0 };
      e.count += 1;
      e.until = Math.max(e.until, now + at(schedule, e.count));
      e.forgetAt = now + forgetMs;
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    if (this.entries.size > MAX_KEYS) {
      for (const [k, e] of this.entries) if (e.forgetAt <= now) this.entries.delete(k);
      for (const k of this.entries.keys()) {
        if (this.entries.size <= MAX_KEYS) break;
        this.entries.delete(k);
      }
    }
    return { lockedUntil: null };
  }

  async uncount(key: string) {
    const e = this.entries.get(key);
    if (e && e.count > 0) e.count -= 1;
  }

  async clear(key: string) {
    this.entries.delete(key);
  }
}

// KEYS: the keys; ARGV: now, forgetMs, then per key its schedule's length and elements.
// Answers 0 when admitted, else when the longest lock ends.
const ADMIT = `
local now = tonumber(ARGV[1])
local locked = 0
for i = 1, #KEYS do
  local u = tonumber(redis.call('HGET', KEYS[i], 'u') or '0')
  if u > now and u > locked then locked = u end
end
if locked > 0 then return locked end
local pos = 3
for i = 1, #KEYS do
  local len = tonumber(ARGV[pos])
  local n = redis.call('HINCRBY', KEYS[i], 'n', 1)
  local lock = tonumber(ARGV[pos + math.min(n, len)])
  local u = tonumber(redis.call('HGET', KEYS[i], 'u') or '0')
  if now + lock > u then redis.call('HSET', KEYS[i], 'u', string.format('%d', now + lock)) end
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
  pos = pos + len + 1
end
return 0`;

const UNCOUNT = `
if tonumber(redis.call('HGET', KEYS[1], 'n') or '0') > 0 then redis.call('HINCRBY', KEYS[1], 'n', -1) end
return 0`;

const PREFIX = 'topup:attempts:';

/**
 * In process memory (embedded default), or in Redis so every server shares the counts and
 * locks; when Redis cannot be reached, each process falls back to its own memory, as the
 * rate limiter does.
 */
export function createAttemptGate(redis: Redis | null): AttemptGate {
  const memory = new MemoryAttemptGate();
  if (!redis) return memory;
  return {
    async admit(keys, now, forgetMs) {
      const args = [now, forgetMs, ...keys.flatMap(({ schedule }) => [schedule.length, ...schedule])];
      try {
        const locked = Number(await redis.eval(ADMIT, keys.length, ...keys.map(({ key }) => PREFIX + key), ...args));
        return { lockedUntil: locked > 0 ? locked : null };
      } catch {
        return memory.admit(keys, now, forgetMs);
      }
    },
    async uncount(key) {
      await redis.eval(UNCOUNT, 1, PREFIX + key).catch(() => memory.uncount(key));
    },
    async clear(key) {
      await redis.del(PREFIX + key).catch(() => memory.clear(key));
    },
  };
}
