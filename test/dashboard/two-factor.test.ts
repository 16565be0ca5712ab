import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';
import { enrolTwoFactor, steppingClock } from '../support/two-factor.js';

/** A reseller's own two-factor sign-in: the operators' rule (services/two-factor.ts) on the dashboard API. */
describe.each(storeKinds())('dashboard two-factor sign-in (%s)', (kind) => {
  let t: TestApp;
  const clock = steppingClock();
  beforeAll(async () => {
    t = await startTestApp(kind, { overrides: { clock } });
  });
  afterAll(async () => t?.close());

  it('is off until the account turns it on; then sign-in asks for a code, once per code', async () => {
    const a = await registerAccount(t);
    expect((await a.client.get('/auth/two-factor')).body.data).toMatchObject({ enabled: false, required: false });
    const { secret, recoveryCodes } = await enrolTwoFactor(a.client, clock);

    const step1 = await dashboardClient(t).post('/auth/sign-in', { email: a.email, password: a.password });
    expect(step1.body.data).toMatchObject({ two_factor_required: true });
    expectJsonError(await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: step1.body.data.challenge, code: '999999' }), 401, 'INVALID_TWO_FACTOR_CODE');

    // The same code sent twice at once: exactly one session (the step is taken in one statement).
    const code = clock.nextCode(secret);
    const both = await Promise.all([1, 2].map(() => dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: step1.body.data.challenge, code })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    const session = both.find((r) => r.status === 200)!.body.data.token as string;
    expect((await dashboardClient(t, session).get('/me')).status).toBe(200);

    // A recovery code works once.
    const step2 = await dashboardClient(t).post('/auth/sign-in', { email: a.email, password: a.password });
    expect((await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: step2.body.data.challenge, recovery_code: recoveryCodes[3] })).status).toBe(200);
    expectJsonError(await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: step2.body.data.challenge, recovery_code: recoveryCodes[3] }), 401, 'INVALID_TWO_FACTOR_CODE');

    // New recovery codes need a current code; the old ones stop working.
    const fresh = await dashboardClient(t, session).post('/auth/two-factor/recovery-codes', { code: clock.nextCode(secret) });
    expect(fresh.body.data.recovery_codes).toHaveLength(10);
    expectJsonError(await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: step2.body.data.challenge, recovery_code: recoveryCodes[4] }), 401, 'INVALID_TWO_FACTOR_CODE');

    // An operator challenge is no dashboard challenge.
    expectJsonError(await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge: 'abc.def', code: '123456' }), 401, 'UNAUTHENTICATED');

    // Off with a current code: the password alone signs in again.
    expect((await dashboardClient(t, session).post('/auth/two-factor/disable', { code: clock.nextCode(secret) })).status).toBe(200);
    expect((await dashboardClient(t).post('/auth/sign-in', { email: a.email, password: a.password })).body.data.token).toMatch(/^rss_/);
  });

  it('wrong codes count in the sign-in throttle', async () => {
    const a = await registerAccount(t);
    await enrolTwoFactor(a.client, clock);
    const { challenge } = (await dashboardClient(t).post('/auth/sign-in', { email: a.email, password: a.password })).body.data;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await dashboardClient(t).post('/auth/sign-in/two-factor', { challenge, code: '000001' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
  });
});
