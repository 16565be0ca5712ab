import { createHash } from 'node:crypto';
import type { AttemptGate } from '../adapters/attempt-gate.js';
import { lockSchedule, type LockoutRule } from '../domain/lockout.js';
import { AppError } from '../errors.js';
import type { Clock } from './ports.js';

/**
 * Who is throttled at sign-in: the address that keeps failing, never the account from
 * everywhere, so nobody can lock an owner out by failing on its email from elsewhere
 * (docs/dashboard-api.md, "Sign-in throttle"). Failures are forgotten `forgetMs` after the
 * last one.
 */
export const SIGN_IN_THROTTLE: { addressAccount: LockoutRule; address: LockoutRule; forgetMs: number } = {
  /** One email from one address: a person who mistypes gets a few tries; a guesser waits ever longer. */
  addressAccount: { freeFailures: 5, firstLockMs: 1000, maxLockMs: 15 * 60_000 },
  /** One address over every email: room for many people behind one NAT, none for spraying emails. */
  address: { freeFailures: 20, firstLockMs: 1000, maxLockMs: 15 * 60_000 },
  forgetMs: 60 * 60_000,
};

const SCHEDULES = { addressAccount: lockSchedule(SIGN_IN_THROTTLE.addressAccount), address: lockSchedule(SIGN_IN_THROTTLE.address) };

/**
 * Counts wrong sign-ins per source address and per address and account, with growing locks.
 * An attempt is admitted (or refused while a lock holds, without its password being
 * checked) before the check and counted as a failure; a successful one is taken back and
 * clears its address and account, so successes never count.
 */
export class SignInThrottle {
  constructor(private readonly deps: { gate: AttemptGate; clock: Clock }) {}

  async admit(kind: 'operator' | 'reseller', email: string, ip: string): Promise<{ succeeded(): Promise<void> }> {
    const address = `signin:ip:${ip}`;
    // The email only as a digest: keys must not spread addresses of people.
    const account = `signin:${kind}:${ip}:${createHash('sha256').update(email).digest('base64url').slice(0, 22)}`;
    const now = this.deps.clock.now();
    const { gate } = this.deps;
    const { lockedUntil } = await gate.admit([{ key: address, schedule: SCHEDULES.address }, { key: account, schedule: SCHEDULES.addressAccount }], now, SIGN_IN_THROTTLE.forgetMs);
    if (lockedUntil !== null) {
      const seconds = Math.max(1, Math.ceil((lockedUntil - now) / 1000));
      throw new AppError('TOO_MANY_ATTEMPTS', `too many failed sign-ins from this address; retry after ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
    }
    return {
      async succeeded() {
        await Promise.all([gate.uncount(address), gate.clear(account)]);
      },
    };
  }
}
