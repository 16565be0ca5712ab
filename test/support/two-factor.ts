import { expect } from 'vitest';
import { totpCode } from '../../src/domain/two-factor.js';
import type { JsonClient } from './json-client.js';

/** A clock the test moves: each new code needs a later 30-second step (no code is accepted twice). */
export function steppingClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    /** Moves to the next time step and answers the code of that step. */
    nextCode(secret: string) {
      now += 30_000;
      return totpCode(secret, now);
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

export type SteppingClock = ReturnType<typeof steppingClock>;

/** Enrols the client's signed-in person in two-factor sign-in; answers the secret and the recovery codes. */
export async function enrolTwoFactor(c: JsonClient, clock: SteppingClock) {
  const start = await c.post('/auth/two-factor/enrolment');
  expect(start.status, start.text).toBe(200);
  const secret = start.body.data.secret as string;
  const done = await c.post('/auth/two-factor/enrolment/confirm', { code: clock.nextCode(secret) });
  expect(done.status, done.text).toBe(200);
  return { secret, recoveryCodes: done.body.data.recovery_codes as string[], qrCode: start.body.data.qr_code as string };
}

/** The value of one cookie a response sets, or null. */
export function setCookie(headers: Record<string, string>, name: string): string | null {
  return new RegExp(`(?:^|, )${name}=([\\w-]+)`).exec(headers['set-cookie'] ?? '')?.[1] ?? null;
}
