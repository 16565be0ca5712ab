import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { accountState, approve, dashboardClient, expectDeclared, generateKey, registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('dashboard account (%s)', (kind) => {
  let t: TestApp;
  // Private callback targets refused, as in production, so the SSRF rules are exercised.
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { CALLBACK_ALLOW_PRIVATE_TARGETS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('registers a pending gold account, signed in at once, and signs in again by email in any case', async () => {
    const c = dashboardClient(t);
    const r = await c.post('/auth/register', { name: ' Acme Games ', email: 'Owner@Acme.Example', password: 'correct horse battery' });
    expectDeclared(t, 'POST', '/auth/register', r);
    expect(r.body.data.token).toMatch(/^rss_/);
    expect(r.body.data.status).toBe('pending');
    c.token = r.body.data.token;
    const me = await c.get('/me');
    expectDeclared(t, 'GET', '/me', me);
    expect(me.body.data).toMatchObject({
      id: r.body.data.reseller_id, name: 'Acme Games', email: 'owner@acme.example', tier: 'gold', status: 'pending',
      balance: 0, currency: 'IDR', callback_url: null, whitelist: [], api_keys: [],
    });
    const row = await t.platform.repos.resellers.get(r.body.data.reseller_id);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('correct horse');

    const again = dashboardClient(t);
    expect((await again.signIn('OWNER@acme.example', 'correct horse battery')).status).toBe(200);
    expect((await again.get('/me')).body.data.id).toBe(r.body.data.reseller_id);
  });

  it('refuses a taken email, a short password, a bad email and unknown fields, creating nothing', async () => {
    const a = await registerAccount(t);
    const count = async () => Number((await t.platform.database.db.selectFrom('resellers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const c = dashboardClient(t);
    expectJsonError(await c.post('/auth/register', { name: 'Copy', email: a.email.toUpperCase(), password: 'long enough pw' }), 409, 'CONFLICT');
    const short = await c.post('/auth/register', { name: 'X', email: 'x@example.com', password: 'short' });
    expectJsonError(short, 400, 'VALIDATION_ERROR');
    expect(short.body.message).toContain('password');
    expectJsonError(await c.post('/auth/register', { name: 'X', email: 'not-an-email', password: 'long enough pw' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await c.post('/auth/register', { name: '   ', email: 'y@example.com', password: 'long enough pw' }), 400, 'VALIDATION_ERROR');
    const extra = await c.post('/auth/register', { name: 'X', email: 'z@example.com', password: 'long enough pw', tier: 'diamond' });
    expectJsonError(extra, 400, 'VALIDATION_ERROR');
    expect(extra.body.message).toContain("unknown field 'tier'");
    expect(await count()).toBe(before);
  });

  it('every account route needs a reseller session', async () => {
    const anon = dashboardClient(t);
    for (const [m, p] of [['GET', '/me'], ['POST', '/me/password'], ['PUT', '/me/callback-url'], ['GET', '/api-keys'], ['POST', '/api-keys'], ['DELETE', '/api-keys/x'],
      ['GET', '/whitelist'], ['POST', '/whitelist'], ['DELETE', '/whitelist/1.2.3.4'], ['GET', '/orders'], ['GET', '/orders/x'], ['POST', '/orders/x/resend-callback'], ['GET', '/wallet-history']] as const) {
      expectJsonError(await anon.request(m, p, m === 'GET' || m === 'DELETE' ? undefined : {}), 401, 'UNAUTHENTICATED');
    }
    const first = await t.platform.operator.operators.ensureFirst();
    const op = dashboardClient(t);
    if (first) {
      const s = await t.platform.core.sessions.signIn('operator', first.email, first.password, '127.0.0.1');
      op.token = 'session' in s ? s.session.token : '';
      expectJsonError(await op.get('/me'), 401, 'UNAUTHENTICATED');
    }
  });

  it('changes the password with the current one, ending the other sessions but not this one', async () => {
    const a = await registerAccount(t);
    const other = dashboardClient(t);
    expect((await other.signIn(a.email, a.password)).status).toBe(200);

    const before = await accountState(t, a.id);
    expectJsonError(await a.client.post('/me/password', { current_password: 'wrong password', new_password: 'a new password 1' }), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await a.client.post('/me/password', { current_password: a.password, new_password: 'short' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/me/password', { current_password: a.password, new_password: a.password }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/me/password', { current_password: a.password, new_password: 'a new password 1', logout: true }), 400, 'VALIDATION_ERROR');
    expect(await accountState(t, a.id)).toEqual(before);
    expect((await other.get('/me')).status).toBe(200);

    const r = await a.client.post('/me/password', { current_password: a.password, new_password: 'a new password 1' });
    expectDeclared(t, 'POST', '/me/password', r);
    expect((await a.client.get('/me')).status).toBe(200);
    expectJsonError(await other.get('/me'), 401, 'UNAUTHENTICATED');
    expectJsonError(await dashboardClient(t).post('/auth/sign-in', { email: a.email, password: a.password }), 401, 'INVALID_CREDENTIALS');
    expect((await dashboardClient(t).signIn(a.email, 'a new password 1')).status).toBe(200);
  });

  it('sets and clears the callback URL under the SSRF rules', async () => {
    const a = await registerAccount(t);
    const set = await a.client.put('/me/callback-url', { callback_url: 'https://93.184.216.34/topup/callback' });
    expectDeclared(t, 'PUT', '/me/callback-url', set);
    expect(set.body.data.callback_url).toBe('https://93.184.216.34/topup/callback');

    const before = await accountState(t, a.id);
    for (const url of ['http://127.0.0.1:8080/cb', 'http://10.0.0.5/cb', 'http://[::1]/cb', 'ftp://93.184.216.34/cb', 'not a url']) {
      const r = await a.client.put('/me/callback-url', { callback_url: url });
      expectJsonError(r, 400, 'VALIDATION_ERROR');
    }
    expectJsonError(await a.client.put('/me/callback-url', {}), 400, 'VALIDATION_ERROR');
    // Raw spaces, quotes and angle brackets: refused as invalid, never stored percent-encoded.
    for (const url of ['https://93.184.216.34/top up', 'https://93.184.216.34/cb?x="1"', 'https://93.184.216.34/<script>']) {
      const r = await a.client.put('/me/callback-url', { callback_url: url });
      expectJsonError(r, 400, 'VALIDATION_ERROR');
      expect(r.body.message, url).toMatch(/callback URL is not a valid URL/);
    }
    expect(await accountState(t, a.id)).toEqual(before);

    const cleared = await a.client.put('/me/callback-url', { callback_url: null });
    expect(cleared.body.data.callback_url).toBeNull();
    expect((await a.client.get('/me')).body.data.callback_url).toBeNull();
  });

  it('API v1 refuses a pending or suspended account even with a valid dashboard key', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id, { balance: 5_000_000 });
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    const { api } = await generateKey(t, a.client);
    expect((await api.get('/balance')).status).toBe(200);

    await t.platform.repos.resellers.setStatus(a.id, 'suspended', Date.now());
    expectError(await api.get('/balance'), 403, 'RESELLER_INACTIVE');
    await t.platform.repos.resellers.setStatus(a.id, 'pending', Date.now());
    expectError(await api.get('/balance'), 403, 'RESELLER_INACTIVE');
    // The dashboard still answers: the account can see why (status) while it waits.
    expect((await a.client.get('/me')).body.data.status).toBe('pending');
  });

  it('a second reseller never sees the first one\'s profile; each session is its own account', async () => {
    const a = await registerAccount(t, 'Shop A');
    const b = await registerAccount(t, 'Shop B');
    await a.client.put('/me/callback-url', { callback_url: 'https://93.184.216.34/a' });
    const meB = await b.client.get('/me');
    expect(meB.body.data.id).toBe(b.id);
    expect(meB.body.data.callback_url).toBeNull();
    expect(JSON.stringify(meB.body)).not.toContain(a.id);
    const stateA = await accountState(t, a.id);
    await b.client.put('/me/callback-url', { callback_url: 'https://93.184.216.34/b' });
    await b.client.post('/me/password', { current_password: b.password, new_password: 'b new password' });
    expect(await accountState(t, a.id)).toEqual(stateA);
  });
});

describe('dashboard throttles what can be guessed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('registrations from one address past 20 a minute, and wrong current passwords past 10, get TOO_MANY_ATTEMPTS', async () => {
    for (let i = 0; i < 20; i++) await registerAccount(t);
    const count = async () => Number((await t.platform.database.db.selectFrom('resellers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const r = await dashboardClient(t).post('/auth/register', { name: 'One more', email: 'one-more@example.com', password: 'long enough password' });
    expectJsonError(r, 429, 'TOO_MANY_ATTEMPTS');
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    expect(await count()).toBe(before);

    const t2 = await startTestApp('sqlite', { seed: false });
    try {
      const a = await registerAccount(t2);
      for (let i = 0; i < 10; i++) expectJsonError(await a.client.post('/me/password', { current_password: `wrong-guess-${i}`, new_password: 'another long password' }), 401, 'INVALID_CREDENTIALS');
      // Even the right password is refused now: the allowance is spent.
      expectJsonError(await a.client.post('/me/password', { current_password: a.password, new_password: 'another long password' }), 429, 'TOO_MANY_ATTEMPTS');
    } finally {
      await t2.close();
    }
  });
});
