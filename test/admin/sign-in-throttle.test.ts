import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_THROTTLE } from '../../src/services/sign-in-throttle.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { registerAccount } from '../support/dashboard.js';
import { JsonClient } from '../support/json-client.js';
import { REDIS_URL, storeKinds } from '../support/stores.js';

/** An address of this run alone: with Redis the counts outlive the test. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe.each(storeKinds())('sign-in throttle: the guesser waits, the owner signs in (%s, Redis when set)', (kind) => {
  let t: TestApp;
  let now = Date.now();
  beforeAll(async () => {
    // Behind a trusted proxy, so each sign-in comes from an address of the test's choice; the
    // clock is the test's, so the locks' ends are reached without waiting.
    t = await startTestApp(kind, { env: { TRUSTED_PROXIES: '127.0.0.1', REDIS_URL }, overrides: { clock: { now: () => now } } });
  });
  afterAll(async () => t?.close());

  const signIn = (api: 'admin' | 'dashboard', email: string, password: string, ip: string) =>
    new JsonClient(`${t.origin}/${api}/v1`).request('POST', '/auth/sign-in', { email, password }, { 'x-forwarded-for': ip });

  /** An operator or a shop with a password, on its sign-in API. */
  async function owner(api: 'admin' | 'dashboard') {
    if (api === 'admin') {
      const o = await t.platform.operator.operators.create(`op-${randomInt(1e9)}@example.com`, 'Owner');
      return { email: o.email, password: o.password };
    }
    const a = await registerAccount(t);
    return { email: a.email, password: a.password };
  }

  it.each(['admin', 'dashboard'] as const)('%s: 12 wrong passwords from A; the right one from B signs in at once; A waits longer after each failure', async (api) => {
    const { email, password } = await owner(api);
    const [a, b] = [freshIp(), freshIp()];
    const { freeFailures } = SIGN_IN_THROTTLE.addressAccount;
    // The free failures, and the one that earns the first lock, get their answer.
    for (let i = 0; i <= freeFailures; i++) expectJsonError(await signIn(api, email, `wrong ${i}`, a), 401, 'INVALID_CREDENTIALS');
    const waits = [];
    for (let failures = freeFailures + 1; failures < 12; failures++) {
      const locked = await signIn(api, email, 'wrong again', a);
      expectJsonError(locked, 429, 'TOO_MANY_ATTEMPTS');
      waits.push(Number(locked.headers['retry-after']));
      // While locked even the right password gets no verdict from A...
      expectJsonError(await signIn(api, email, password, a), 429, 'TOO_MANY_ATTEMPTS');
      // ...and the owner from an address that has not been failing signs in at once.
      const fromB = await signIn(api, email, password, b);
      expect(fromB.status, fromB.text).toBe(200);
      now += waits[waits.length - 1]! * 1000;
      expectJsonError(await signIn(api, email, 'wrong again', a), 401, 'INVALID_CREDENTIALS');
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
    // A's lock ends; the right password from A then signs in and clears A's count for the account.
    now += 64_000;
    expect((await signIn(api, email, password, a)).status).toBe(200);
    expectJsonError(await signIn(api, email, 'wrong', a), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await signIn(api, email, 'wrong', a), 401, 'INVALID_CREDENTIALS');
  });

  it.each(['admin', 'dashboard'] as const)('%s: successful sign-ins never count, however many', async (api) => {
    const { email, password } = await owner(api);
    const ip = freshIp();
    for (let i = 0; i < 40; i++) {
      const r = await signIn(api, email, password, ip);
      expect(r.status, r.text).toBe(200);
    }
  });

  it('one address trying many emails is locked past its allowance, for every email; other addresses are not', async () => {
    const { email, password } = await owner('dashboard');
    const [sprayer, other] = [freshIp(), freshIp()];
    const { freeFailures } = SIGN_IN_THROTTLE.address;
    for (let i = 0; i <= freeFailures; i++) expectJsonError(await signIn('dashboard', `nobody-${i}-${randomInt(1e9)}@example.com`, 'guess', sprayer), 401, 'INVALID_CREDENTIALS');
    const locked = await signIn('dashboard', email, password, sprayer);
    expectJsonError(locked, 429, 'TOO_MANY_ATTEMPTS');
    expect(locked.headers['retry-after']).toBe('1');
    expectJsonError(await signIn('admin', 'admin@localhost', 'guess', sprayer), 429, 'TOO_MANY_ATTEMPTS');
    expect((await signIn('dashboard', email, password, other)).status).toBe(200);
  });
});
