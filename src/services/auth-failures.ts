import type { RateLimiter } from '../adapters/rate-limiter.js';
import { AppError } from '../errors.js';
import type { Clock } from './ports.js';

/**
 * Failed authentications allowed per one-minute window on the reseller API: per source IP
 * (every failure: unknown key, address not whitelisted, stale timestamp, bad signature) and
 * per API key (failures from an address its whitelist allows, so only the reseller's own
 * servers can spend a key's allowance). The key's allowance is above the address's, so one
 * address guessing against a key is stopped before the key is.
 */
export const AUTH_FAILURES_PER_MINUTE = { ip: 30, key: 60 };

/** Past this many blocked entries the expired ones are swept (bounded memory under a flood). */
const MAX_BLOCKED = 100_000;

/**
 * Makes guessing slow without letting forged requests spend a reseller's tier limit: failed
 * authentications are counted apart from it, and an address or key over its allowance is
 * refused (429 TOO_MANY_ATTEMPTS with Retry-After) until its window ends, whatever it sends.
 * The check is synchronous (the blocks this process learned), so an authenticated request
 * costs no store round trip; with Redis the counts are shared and each process learns a
 * block at the first failure it sees past the allowance.
 */
export class AuthFailureGuard {
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly deps: { limiter: RateLimiter; clock: Clock; perMinute?: { ip: number; key: number } },
  ) {}

  /** Refuses a request from a blocked address or with a blocked key. */
  check(ip: string, apiKey: string | undefined): void {
    if (this.blocked.size === 0) return;
    const now = this.deps.clock.now();
    const until = Math.max(this.blockedUntil(`ip:${ip}`, now), apiKey ? this.blockedUntil(`key:${apiKey}`, now) : 0);
    if (until > now) throw tooMany(until - now);
  }

  /**
   * Counts one failed authentication of `ip` and, when given, of the API key it named. The
   * failure that goes past an allowance is itself answered TOO_MANY_ATTEMPTS (thrown here),
   * and so is every request after it until the window ends.
   */
  async failed(ip: string, apiKey?: string): Promise<void> {
    const limits = this.deps.perMinute ?? AUTH_FAILURES_PER_MINUTE;
    const counts: [string, number][] = [[`ip:${ip}`, limits.ip]];
    if (apiKey) counts.push([`key:${apiKey}`, limits.key]);
    const now = this.deps.clock.now();
    let until = 0;
    await Promise.all(
      counts.map(async ([key, limit]) => {
        // A counter that cannot be reached must not turn the failure's own answer into a 500.
        const state = await this.deps.limiter.consume(`authfail:${key}`, limit).catch(() => null);
        if (state && !state.allowed) until = Math.max(until, this.block(key, now + state.resetSeconds * 1000));
      }),
    );
    if (until > now) throw tooMany(until - now);
  }

  private blockedUntil(key: string, now: number): number {
    const until = this.blocked.get(key);
    if (until === undefined) return 0;
    if (until <= now) this.blocked.delete(key);
    return until;
  }

  private block(key: string, until: number): number {
    if (this.blocked.size >= MAX_BLOCKED) {
      const now = this.deps.clock.now();
      for (const [k, u] of this.blocked) if (u <= now) this.blocked.delete(k);
    }
    const longest = Math.max(until, this.blocked.get(key) ?? 0);
    this.blocked.set(key, longest);
    return longest;
  }
}

function tooMany(ms: number): AppError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new AppError('TOO_MANY_ATTEMPTS', `too many failed authentications from this address or for this API key; retry after ${seconds} s`, {
    headers: { 'retry-after': String(seconds) },
  });
}
