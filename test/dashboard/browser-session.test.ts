import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import type { ApiResponse } from '../support/client.js';
import { accountState, approve, dashboardClient, expectDeclared, registerAccount } from '../support/dashboard.js';
import { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/** A browser: no bearer token, only the cookie the server set, and its own Origin. */
class Browser {
  cookie: string | null = null;
  constructor(readonly c: JsonClient, readonly origin: string) {}
  keep(r: ApiResponse) {
    const set = r.headers['set-cookie'];
    const pair = set ? /^([^=]+=[^;]*)/.exec(set)![1]! : undefined;
    if (pair !== undefined) this.cookie = pair.endsWith('=') ? null : pair;
    return r;
  }
  async send(method: string, path: string, body?: unknown, headers: Record<string, string | null> = {}) {
    return this.keep(await this.c.request(method, path, body, {
      origin: this.origin, 'sec-fetch-site': 'same-origin', ...(this.cookie ? { cookie: this.cookie } : {}), ...headers,
    }));
  }
}

const cookieAttributes = (setCookie: string) => setCookie.split(';').slice(1).map((s) => s.trim());

describe.each(storeKinds())('browser sessions of the dashboard (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const browser = () => new Browser(dashboardClient(t), t.origin);

  async function signedIn() {
    const a = await registerAccount(t);
    await approve(t, a.id);
    const b = browser();
    const r = await b.send('POST', '/auth/sign-in', { email: a.email, password: a.password });
    expectDeclared(t, 'POST', '/auth/sign-in', r);
    return { a, b, csrf: r.body.data.csrf_token as string, signIn: r };
  }

  it('sign-in sets an HttpOnly, SameSite=Strict cookie on the API path (no Secure in test), and answers token and csrf_token', async () => {
    const { b, signIn, csrf } = await signedIn();
    const set = signIn.headers['set-cookie']!;
    expect(set).toMatch(/^topup_dashboard_session=rss_[\w-]+;/);
    expect(set.split(';')[0]).toBe(`topup_dashboard_session=${signIn.body.data.token}`);
    const attrs = cookieAttributes(set);
    expect(attrs).toContain('HttpOnly');
    expect(attrs).toContain('SameSite=Strict');
    expect(attrs).toContain('Path=/dashboard/v1');
    expect(attrs).not.toContain('Secure');
    expect(Number(attrs.find((x) => x.startsWith('Max-Age='))!.slice(8))).toBeGreaterThan(3600);
    expect(csrf).toMatch(/^[\w-]{43}$/);
    expect(signIn.headers['cache-control']).toBe('no-store');

    const s = await b.send('GET', '/auth/session');
    expectDeclared(t, 'GET', '/auth/session', s);
    expect(s.headers['cache-control']).toBe('no-store');
    expect(s.body.data).toMatchObject({ email: expect.stringContaining('@example.com'), csrf_token: csrf, expires_at: signIn.body.data.expires_at });
    expect((await b.send('GET', '/me')).status).toBe(200);
  });

  it('registration signs the browser in the same way', async () => {
    const b = browser();
    const r = await b.send('POST', '/auth/register', { name: 'Cookie Shop', email: `cookie-${Date.now()}@example.com`, password: 'long enough pw' });
    expectDeclared(t, 'POST', '/auth/register', r);
    expect(r.headers['set-cookie']).toMatch(/^topup_dashboard_session=rss_/);
    expect((await b.send('GET', '/auth/session')).body.data.reseller_id).toBe(r.body.data.reseller_id);
  });

  it('a state-changing request by cookie without the CSRF token, or with a wrong one, is refused and changes nothing', async () => {
    const { a, b, csrf } = await signedIn();
    const before = await accountState(t, a.id);
    for (const headers of [{} as Record<string, string>, { 'x-csrf-token': 'forged' }, { 'x-csrf-token': csrf.slice(0, -1) + (csrf.endsWith('A') ? 'B' : 'A') }]) {
      const r = await b.send('POST', '/whitelist', { ip: '203.0.113.9' }, headers);
      expectJsonError(r, 403, 'CSRF_REJECTED');
      expect(r.body.message).toContain('X-CSRF-Token');
      expectJsonError(await b.send('POST', '/api-keys', {}, headers), 403, 'CSRF_REJECTED');
      expectJsonError(await b.send('PUT', '/me/callback-url', { callback_url: 'https://example.com/cb' }, headers), 403, 'CSRF_REJECTED');
      expectJsonError(await b.send('POST', '/auth/sign-out', {}, headers), 403, 'CSRF_REJECTED');
    }
    expect(await accountState(t, a.id)).toEqual(before);
    // The same request with the token goes through.
    expect((await b.send('POST', '/whitelist', { ip: '203.0.113.9' }, { 'x-csrf-token': csrf })).status).toBe(200);
    expect((await accountState(t, a.id)).ips.map((x: { ip: string }) => x.ip)).toEqual(['203.0.113.9']);
  });

  it('a request from another origin or site is refused even with the right token; reads still work', async () => {
    const { a, b, csrf } = await signedIn();
    const before = await accountState(t, a.id);
    const good = { 'x-csrf-token': csrf };
    expectJsonError(await b.send('POST', '/whitelist', { ip: '203.0.113.10' }, { ...good, origin: 'https://evil.example' }), 403, 'CSRF_REJECTED');
    expectJsonError(await b.send('POST', '/whitelist', { ip: '203.0.113.10' }, { ...good, origin: 'null' }), 403, 'CSRF_REJECTED');
    expectJsonError(await b.send('POST', '/whitelist', { ip: '203.0.113.10' }, { ...good, origin: null, 'sec-fetch-site': 'cross-site' }), 403, 'CSRF_REJECTED');
    expectJsonError(await b.send('POST', '/whitelist', { ip: '203.0.113.10' }, { ...good, origin: null, 'sec-fetch-site': 'same-site' }), 403, 'CSRF_REJECTED');
    expect(await accountState(t, a.id)).toEqual(before);
    // Sign-in from another site is refused too (login CSRF).
    expectJsonError(await b.send('POST', '/auth/sign-in', { email: a.email, password: a.password }, { origin: 'https://evil.example' }), 403, 'CSRF_REJECTED');
    // Without Origin and Sec-Fetch-Site (an older browser) the token alone suffices.
    expect((await b.send('POST', '/whitelist', { ip: '203.0.113.10' }, { ...good, origin: null, 'sec-fetch-site': null })).status).toBe(200);
  });

  it('bearer tokens keep working without a CSRF token, from anywhere', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    const r = await a.client.request('POST', '/whitelist', { ip: '198.51.100.7' }, { origin: 'https://scripts.example' });
    expect(r.status, r.text).toBe(200);
    const s = await a.client.get('/auth/session');
    expectDeclared(t, 'GET', '/auth/session', s);
    expect(s.body.data.reseller_id).toBe(a.id);
  });

  it('sign-out ends the session and clears the cookie; the old cookie is then unauthenticated', async () => {
    const { b, csrf } = await signedIn();
    const stale = b.cookie!;
    const out = await b.send('POST', '/auth/sign-out', {}, { 'x-csrf-token': csrf });
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']).toMatch(/^topup_dashboard_session=; /);
    expect(cookieAttributes(out.headers['set-cookie']!)).toContain('Max-Age=0');
    expect(b.cookie).toBeNull();
    expectJsonError(await b.send('GET', '/auth/session'), 401, 'UNAUTHENTICATED');
    expectJsonError(await b.send('GET', '/auth/session', undefined, { cookie: stale }), 401, 'UNAUTHENTICATED');
  });

  it('an unknown or malformed cookie is unauthenticated, never a 500', async () => {
    const b = browser();
    for (const cookie of ['topup_dashboard_session=rss_nope', 'topup_dashboard_session=', 'topup_dashboard_session="x;y"', 'other=1']) {
      expectJsonError(await b.send('GET', '/auth/session', undefined, { cookie }), 401, 'UNAUTHENTICATED');
    }
  });

  it('the cookie of one API does not open the other', async () => {
    const { b } = await signedIn();
    const admin = new JsonClient(`${t.origin}/admin/v1`);
    expectJsonError(await admin.request('GET', '/me', undefined, { cookie: b.cookie!.replace('topup_dashboard_session', 'topup_admin_session') }), 401, 'UNAUTHENTICATED');
  });
});

describe.each(storeKinds())('browser sessions of the operator API (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('sign-in sets topup_admin_session on /admin/v1; CSRF is required by cookie, not by bearer', async () => {
    const first = (await t.platform.operator.operators.ensureFirst()) ?? (await t.platform.operator.operators.create('cookie-op@example.com', 'Op', undefined, ['owner']));
    const b = new Browser(new JsonClient(`${t.origin}/admin/v1`), t.origin);
    const r = await b.send('POST', '/auth/sign-in', { email: first.email, password: first.password });
    expect(r.status).toBe(200);
    expect(r.headers['set-cookie']).toMatch(/^topup_admin_session=ops_[\w-]+; Path=\/admin\/v1;.*HttpOnly; SameSite=Strict$/);
    const s = await b.send('GET', '/auth/session');
    expect(s.status).toBe(200);
    expect(s.body.data).toMatchObject({ operator_id: r.body.data.operator_id, csrf_token: r.body.data.csrf_token });
    const count = async () => (await t.platform.database.db.selectFrom('operators').select('id').execute()).length;
    const before = await count();
    expectJsonError(await b.send('POST', '/operators', { email: 'x1@example.com', name: 'X' }), 403, 'CSRF_REJECTED');
    expect(await count()).toBe(before);
    expect((await b.send('POST', '/operators', { email: 'x1@example.com', name: 'X' }, { 'x-csrf-token': r.body.data.csrf_token })).status).toBe(200);
    const bearer = new JsonClient(`${t.origin}/admin/v1`, r.body.data.token);
    expect((await bearer.post('/operators', { email: 'x2@example.com', name: 'Y' })).status).toBe(200);
  });
});

describe('session cookie configuration', () => {
  it('Secure outside development and test; PUBLIC_BASE_URL must be a bare origin', () => {
    expect(parseConfig({ NODE_ENV: 'production', MASTER_KEY: 'ab'.repeat(32) }).secureCookies).toBe(true);
    expect(parseConfig({ NODE_ENV: 'development' }).secureCookies).toBe(false);
    expect(parseConfig({ NODE_ENV: 'test' }).secureCookies).toBe(false);
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://topup.example.com/' }).publicBaseUrl).toBe('https://topup.example.com');
    expect(() => parseConfig({ PUBLIC_BASE_URL: 'https://topup.example.com/app' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
