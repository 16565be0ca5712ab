import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { enrolTwoFactor, setCookie, steppingClock } from '../support/two-factor.js';

/** Operators' two-factor sign-in with OPERATOR_2FA_REQUIRED=roles (production's default). */
describe.each(storeKinds())('operator two-factor sign-in (%s)', (kind) => {
  let t: TestApp;
  const clock = steppingClock();
  let owner: { email: string; password: string };
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { OPERATOR_2FA_REQUIRED: 'roles' }, overrides: { clock } });
    owner = (await t.platform.operator.operators.ensureFirst())!;
  });
  afterAll(async () => t?.close());

  const admin = () => new JsonClient(`${t.origin}/admin/v1`);
  const signIn = (email: string, password: string, cookie?: string) => admin().request('POST', '/auth/sign-in', { email, password }, cookie ? { cookie } : {});

  let secret = '';
  let recoveryCodes: string[] = [];

  it('an owner without two-factor gets a session that can only enrol, then enrols with a code', async () => {
    const c = admin();
    expect((await c.signIn(owner.email, owner.password)).status).toBe(200);
    expectJsonError(await c.get('/overview'), 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
    expectJsonError(await c.post('/resellers', { name: 'x', email: 'x@example.com' }), 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
    const status = await c.get('/auth/two-factor');
    expect(status.body.data).toMatchObject({ enabled: false, required: true, recovery_codes_left: 0 });
    expect((await c.get('/auth/session')).status).toBe(200);

    const start = await c.post('/auth/two-factor/enrolment');
    expect(start.status).toBe(200);
    expect(start.body.data.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(start.body.data.otpauth_uri).toContain(`secret=${start.body.data.secret}`);
    expectJsonError(await c.post('/auth/two-factor/enrolment/confirm', { code: '000000' }), 401, 'INVALID_TWO_FACTOR_CODE');

    // Starting again replaces the unconfirmed secret; the sealed secret is what is stored.
    ({ secret, recoveryCodes } = await enrolTwoFactor(c, clock));
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const row = await t.platform.database.db.selectFrom('two_factor').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_enc.startsWith('v1.')).toBe(true);
    expect(row.secret_enc).not.toContain(secret);
    const hashes = await t.platform.database.db.selectFrom('two_factor_recovery_codes').select('code_hash').execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(recoveryCodes[0]);

    expect((await c.get('/overview')).status).toBe(200);
    expect((await c.get('/auth/two-factor')).body.data).toMatchObject({ enabled: true, required: true, recovery_codes_left: 10 });
    expectJsonError(await c.post('/auth/two-factor/enrolment'), 409, 'INVALID_STATE');
  });

  it('signs in with the password and then a code; a wrong code and a replayed code are refused', async () => {
    const first = await signIn(owner.email, owner.password);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ two_factor_required: true });
    expect(first.body.data.token).toBeUndefined();
    expect(setCookie(first.headers, 'topup_admin_session')).toBeNull();
    const challenge = first.body.data.challenge as string;

    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge, code: '123456' }), 401, 'INVALID_TWO_FACTOR_CODE');
    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge: `${challenge}x`, code: '123456' }), 401, 'UNAUTHENTICATED');
    const code = clock.nextCode(secret);
    const ok = await admin().post('/auth/sign-in/two-factor', { challenge, code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.token).toMatch(/^ops_/);
    expect((await new JsonClient(`${t.origin}/admin/v1`, ok.body.data.token).get('/overview')).status).toBe(200);

    // The same code again, even with a fresh challenge: refused.
    const again = await signIn(owner.email, owner.password);
    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge: again.body.data.challenge, code }), 401, 'INVALID_TWO_FACTOR_CODE');
    // Two steps old: outside the window.
    clock.advance(60_000);
    const old = (await import('../../src/domain/two-factor.js')).totpCode(secret, clock.now() - 60_000);
    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge: again.body.data.challenge, code: old }), 401, 'INVALID_TWO_FACTOR_CODE');
  });

  it('a recovery code signs in once', async () => {
    const { challenge } = (await signIn(owner.email, owner.password)).body.data;
    const ok = await admin().post('/auth/sign-in/two-factor', { challenge, recovery_code: recoveryCodes[0]!.toUpperCase() });
    expect(ok.status, ok.text).toBe(200);
    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge, recovery_code: recoveryCodes[0] }), 401, 'INVALID_TWO_FACTOR_CODE');
    const c = new JsonClient(`${t.origin}/admin/v1`, ok.body.data.token);
    expect((await c.get('/auth/two-factor')).body.data.recovery_codes_left).toBe(9);
  });

  it('a remembered device skips the second step for at most 30 days', async () => {
    const { challenge } = (await signIn(owner.email, owner.password)).body.data;
    expectJsonError(await admin().post('/auth/sign-in/two-factor', { challenge, code: clock.nextCode(secret), remember_device_days: 31 }), 400, 'VALIDATION_ERROR');
    const ok = await admin().post('/auth/sign-in/two-factor', { challenge, code: clock.nextCode(secret), remember_device_days: 30 });
    expect(ok.status, ok.text).toBe(200);
    const device = setCookie(ok.headers, 'topup_admin_device');
    expect(device).not.toBeNull();
    expect(ok.headers['set-cookie']).toContain('Path=/admin/v1/auth');
    const cookie = `topup_admin_device=${device}`;

    const remembered = await signIn(owner.email, owner.password, cookie);
    expect(remembered.body.data.token).toMatch(/^ops_/);
    // Another browser (no cookie) still gets the second step.
    expect((await signIn(owner.email, owner.password)).body.data.two_factor_required).toBe(true);
    clock.advance(31 * 86_400_000);
    expect((await signIn(owner.email, owner.password, cookie)).body.data.two_factor_required).toBe(true);
  });

  it('finance must enrol too; support, catalog and viewer need not', async () => {
    const c = admin();
    const signedIn = await c.post('/auth/sign-in', { email: owner.email, password: owner.password });
    const { challenge } = signedIn.body.data;
    c.token = (await c.post('/auth/sign-in/two-factor', { challenge, code: clock.nextCode(secret) })).body.data.token;
    for (const [roles, required] of [[['finance'], true], [['support'], false], [['catalog', 'viewer'], false]] as const) {
      const made = await t.platform.operator.operators.create(`${roles.join('-')}-${Math.random().toString(16).slice(2, 8)}@example.com`, 'Op', undefined, [...roles]);
      const o = admin();
      expect((await o.signIn(made.email, made.password)).status).toBe(200);
      const r = await o.get('/overview');
      if (required) expectJsonError(r, 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
      else expect(r.status).toBe(200);
    }
  });

  it('turning it off needs a current code or the password; then the password alone signs in (and the owner must enrol again)', async () => {
    const { challenge } = (await signIn(owner.email, owner.password)).body.data;
    const c = new JsonClient(`${t.origin}/admin/v1`, (await admin().post('/auth/sign-in/two-factor', { challenge, code: clock.nextCode(secret) })).body.data.token);
    expectJsonError(await c.post('/auth/two-factor/disable', {}), 400, 'VALIDATION_ERROR');
    expectJsonError(await c.post('/auth/two-factor/disable', { password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await c.post('/auth/two-factor/disable', { code: '000000' }), 401, 'INVALID_TWO_FACTOR_CODE');
    expect((await c.post('/auth/two-factor/disable', { password: owner.password })).status).toBe(200);
    const ownerId = (await c.get('/auth/session')).body.data.operator_id as string;
    const { entries } = await t.platform.core.repos.audit.list({ targetId: ownerId, limit: 10, offset: 0 });
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['operator.two_factor_on', 'operator.two_factor_off']));
    const plain = await signIn(owner.email, owner.password);
    expect(plain.body.data.token).toMatch(/^ops_/);
    expectJsonError(await new JsonClient(`${t.origin}/admin/v1`, plain.body.data.token).get('/overview'), 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
  });
});
