import type { RateLimiter } from '../adapters/rate-limiter.js';
import { AppError } from '../errors.js';
import type { Clock } from './ports.js';

/**
 * Failed authentications allowed per one-minute window on the reseller API (settings
 * AUTH_FAILURES_PER_IP and AUTH_FAILURES_PER_KEY): per source address (every failure: unknown
 * key, address not whitelisted, stale timestamp, bad signature) and per API key (failures from
 * an address its whitelist allows, so only the reseller's own servers can spend it).
 */
export interface AuthFailureAllowance {
  perIp: number;
  perKey: number;
}

/** Past this many blocked entries the expired ones are swept (bounded memory under a flood). */
const MAX_BLOCKED = 100_000;

/**
 * Makes guessing slow without ever refusing an authenticated request: it is consulted only
 * after authentication failed, so a request with a live key, a whitelisted address, a fresh
 * timestamp and a valid signature never reaches it (and pays no store round trip for it).
 * A failure is counted per address and key, apart from the tier limit; past an allowance the
 * failure is answered 429 TOO_MANY_ATTEMPTS with Retry-After instead of its detailed code,
 * so a guess gets no verdict until the window ends. The blocks this process learned answer
 * at once without counting again; with Redis the counts are shared by every server.
 */
export class AuthFailureGuard {
  private readonly blocked = new Map<string, number>();

  constructor(private readonly deps: { limiter: RateLimiter; clock: Clock; allowance: AuthFailureAllowance }) {}

  /**
   * Counts one failed authentication of `ip` and, when given, of the API key it named. Past
   * an allowance (this failure or an earlier one) TOO_MANY_ATTEMPTS is thrown; otherwise the
   * caller answers the failure itself.
   */
  async failed(ip: string, apiKey?: string): Promise<void> {
    const { perIp, perKey } = this.deps.allowance;
    const counts: [string, number][] = [[`ip:${ip}`, perIp]];
    if (apiKey) counts.push([`key:${apiKey}`, perKey]);
    const now = this.deps.clock.now();
    const known = Math.max(...counts.map(([key]) => this.blockedUntil(key, now)));
    if (known > now) throw tooMany(known - now);
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
  return new AppError('TOO_MANY_ATTEMPTS', `too many failed authentications from this address or for this API key; fix the request's authentication and retry after ${seconds} s`, {
    headers: { 'retry-after': String(seconds) },
  });
}
