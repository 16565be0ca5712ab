import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import { routesOf } from '../../src/http/app.js';
import type { ApiResponse } from '../support/client.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { accountState, approve, registerAccount } from '../support/dashboard.js';
import { uniqueRef } from '../support/app.js';

/**
 * The only routes of the three APIs anyone may call without credentials. Pinned here, not
 * read from the routes' own `auth` flags: a route wrongly declared public then fails the
 * walk instead of dropping out of it.
 */
const PUBLIC_ROUTES = [
  'GET /api/v1/openapi.json',
  'GET /admin/v1/openapi.json',
  'POST /admin/v1/auth/sign-in',
  'POST /admin/v1/auth/sign-in/two-factor',
  'POST /admin/v1/auth/forgot-password',
  'POST /admin/v1/auth/reset-password',
  'GET /dashboard/v1/openapi.json',
  'POST /dashboard/v1/auth/sign-in',
  'POST /dashboard/v1/auth/sign-in/two-factor',
  'POST /dashboard/v1/auth/forgot-password',
  'POST /dashboard/v1/auth/reset-password',
  'POST /dashboard/v1/auth/register',
  'POST /dashboard/v1/auth/accept-invitation',
];
const PREFIXES = { reseller: '/api/v1', admin: '/admin/v1', dashboard: '/dashboard/v1' } as const;

interface Walked {
  method: string;
  /** Full path in OpenAPI form, e.g. /admin/v1/resellers/{id}. */
  path: string;
}

/** A concrete URL for a documented path: placeholder values for every {param}. */
const concrete = (r: Walked) => r.path.replace(/\{(\w+)\}/g, (_, name) => `walk-${name}`);

/** A refusal with the route named, should it fail. */
function refused(r: ApiResponse, route: string, status: number, code: string) {
  expect(r.status, `${route} answered ${r.text}`).toBe(status);
  expectJsonError(r, status, code);
  expect(r.body.data, route).toBeUndefined();
}

/**
 * The authorization walk: every route Fastify serves under each API (so a route added later
 * is walked too), but the pinned public ones, called with the wrong identities.
 */
describe.each(storeKinds())('authorization walk (%s)', (kind) => {
  let t: TestApp;
  let operator: JsonClient;
  let resellerToken: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    operator = await operatorClient(t);
    resellerToken = (await t.platform.core.sessions.open('reseller', t.demo.resellerId)).token;
  });
  afterAll(async () => t?.close());

  const served = () => routesOf(t.platform.app).filter((r) => r.method !== 'HEAD').map((r) => ({ method: r.method, path: r.url.replace(/:(\w+)/g, '{$1}') }));
  const walk = (api: keyof typeof PREFIXES): Walked[] =>
    served().filter((r) => r.path.startsWith(`${PREFIXES[api]}/`) && !PUBLIC_ROUTES.includes(`${r.method} ${r.path}`));

  it('the public routes are exactly the pinned list: served, and the only routes declared without a session', () => {
    const all = served().map((r) => `${r.method} ${r.path}`);
    for (const route of PUBLIC_ROUTES) expect(all, route).toContain(route);
    const declaredPublic = t.platform.routes.routes.filter((r) => !r.auth).map((r) => `${r.method} ${r.path}`);
    for (const route of declaredPublic) expect(PUBLIC_ROUTES, `${route} is declared auth: false`).toContain(route);
    expect(walk('reseller').length).toBeGreaterThan(8);
    expect(walk('admin').length).toBeGreaterThan(50);
    expect(walk('dashboard').length).toBeGreaterThan(15);
  });

  it('every API v1 route refuses a request without an API key, and a session token in its place', async () => {
    const anonymous = new JsonClient(t.origin);
    const asReseller = new JsonClient(t.origin, resellerToken);
    for (const r of walk('reseller')) {
      const url = concrete(r);
      const body = r.method === 'GET' ? undefined : {};
      refused(await anonymous.request(r.method, url, body), `${r.method} ${url}`, 401, 'INVALID_API_KEY');
      refused(await asReseller.request(r.method, url, body), `${r.method} ${url} (reseller session)`, 401, 'INVALID_API_KEY');
    }
  });

  it('every operator route refuses no session, a forged token, a reseller session (bearer or cookie) and reseller API credentials', async () => {
    const anonymous = new JsonClient(t.origin);
    const forged = new JsonClient(t.origin, 'ops_forged-token');
    const asReseller = new JsonClient(t.origin, resellerToken);
    // The reseller's browser session: its own cookie, and the same token under the operator cookie's name.
    const resellerCookies = [`topup_dashboard_session=${resellerToken}`, `topup_admin_session=${resellerToken}`];
    const csrf = t.platform.core.sessions.csrfToken(resellerToken);
    for (const r of walk('admin')) {
      // Real ids where a route takes a reseller, so a leak would have data to show.
      const url = r.path.replace(/\{id\}/g, t.demo.resellerId).replace(/\{(\w+)\}/g, (_, name) => `walk-${name}`);
      const body = r.method === 'GET' ? undefined : {};
      refused(await anonymous.request(r.method, url, body), `${r.method} ${url}`, 401, 'UNAUTHENTICATED');
      expectJsonError(await forged.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      const asBearer = await asReseller.request(r.method, url, body);
      expectJsonError(asBearer, 401, 'UNAUTHENTICATED');
      expect(asBearer.body.data, `${r.method} ${url}`).toBeUndefined();
      for (const cookie of resellerCookies) {
        const asCookie = await anonymous.request(r.method, url, body, { cookie, 'x-csrf-token': csrf });
        expectJsonError(asCookie, 401, 'UNAUTHENTICATED');
        expect(asCookie.body.data, `${r.method} ${url}`).toBeUndefined();
      }
      // The reseller's HMAC API key is no credential here.
      const ts = String(Date.now());
      const hmac = { 'x-api-key': t.demo.apiKey, 'x-timestamp': ts, 'x-signature': sign(t.demo.apiSecret, ts, body ? '{}' : '') };
      expectJsonError(await anonymous.request(r.method, url, body, hmac), 401, 'UNAUTHENTICATED');
    }
  });

  it('an operator session is not a reseller session: the dashboard does not know it, and its session route says so', async () => {
    const dashboard = new JsonClient(`${t.origin}/dashboard/v1`, operator.token);
    expectJsonError(await dashboard.get('/auth/session'), 401, 'UNAUTHENTICATED');
    expectJsonError(await dashboard.get('/me'), 401, 'UNAUTHENTICATED');
    const cookie = `topup_dashboard_session=${operator.token}`;
    expectJsonError(await new JsonClient(`${t.origin}/dashboard/v1`).request('GET', '/auth/session', undefined, { cookie }), 401, 'UNAUTHENTICATED');
    // And the reseller's session is not an operator session on the operator API's own session route.
    expectJsonError(await new JsonClient(`${t.origin}/admin/v1`, resellerToken).get('/auth/session'), 401, 'UNAUTHENTICATED');
    // Both sessions still work where they belong.
    expect((await new JsonClient(`${t.origin}/admin/v1`, operator.token).get('/auth/session')).status).toBe(200);
    expect((await new JsonClient(`${t.origin}/dashboard/v1`, resellerToken).get('/auth/session')).status).toBe(200);
  });

  it('every dashboard route refuses no session, a forged token and an operator session', async () => {
    const anonymous = new JsonClient(t.origin);
    const forged = new JsonClient(t.origin, 'rss_forged-token');
    const asOperator = new JsonClient(t.origin, operator.token);
    for (const r of walk('dashboard')) {
      const url = concrete(r);
      const body = r.method === 'GET' ? undefined : {};
      refused(await anonymous.request(r.method, url, body), `${r.method} ${url}`, 401, 'UNAUTHENTICATED');
      expectJsonError(await forged.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      expectJsonError(await asOperator.request(r.method, url, body), 401, 'UNAUTHENTICATED');
    }
  });

  it("a reseller's session reaches none of another reseller's data through any dashboard route", async () => {
    // Reseller A: the demo reseller, with an order, a key, a callback URL and an IP only A has.
    const ref = uniqueRef('walk');
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(placed.status).toBe(200);
    const aIp = '10.9.8.7';
    await t.platform.repos.resellers.addWhitelistIp(t.demo.resellerId, aIp, Date.now());
    const { db } = t.platform.database;
    const aKey = await db.selectFrom('api_keys').select('id').where('reseller_id', '=', t.demo.resellerId).executeTakeFirstOrThrow();
    const a = await db.selectFrom('resellers').select(['id', 'email']).where('id', '=', t.demo.resellerId).executeTakeFirstOrThrow();
    // A's open bank-transfer ticket (issue 36).
    const now = Date.now();
    await db.insertInto('bank_accounts').values({ id: 'ba-walk', bank: 'BCA', number: '1234567890', holder: 'PT Walk', active: 1, statement_mapping: null, created_at: now, updated_at: now }).execute();
    const aDeposit = 'DEP-WALK000001';
    await db.insertInto('deposits').values({
      id: aDeposit, reseller_id: a.id, channel: 'bank', state: 'open', amount: 100_000, payable: 100_123, unique_code: 123, fee: 0, bank_account_id: 'ba-walk',
      sender_name: 'A sender', method: null, gateway_order_id: null, gateway_url: null, expires_at: now + 3_600_000, paid_at: null, matched_by: null, reference: null, actor: null,
      created_at: now, updated_at: now,
    }).execute();
    // And A's gateway payment.
    const aGateway = 'DEP-WALKA00002';
    await db.insertInto('deposits').values({
      id: aGateway, reseller_id: a.id, channel: 'gateway', state: 'open', amount: 100_000, payable: 100_000, unique_code: null, fee: 0, bank_account_id: null, sender_name: null,
      method: 'qris', gateway_order_id: aGateway, gateway_url: null, expires_at: now + 3_600_000, paid_at: null, matched_by: null, reference: null, actor: null, created_at: now, updated_at: now,
    }).execute();
    const aMarks = [a.id, a.email, placed.body.data.order_id, ref, aKey.id, aIp, t.demo.apiKey.slice(0, 12), aDeposit, aGateway];
    // A's resource for each kind of path parameter; a route with a new kind must be added here.
    await t.platform.core.sessions.open('reseller', a.id);
    const aSession = await db.selectFrom('sessions').select('id').where('subject_kind', '=', 'reseller').where('subject_id', '=', a.id).where('id', 'is not', null).executeTakeFirstOrThrow();
    const foreign: Record<string, string> = { '/orders/{id}': placed.body.data.order_id, '/api-keys/{id}': aKey.id, '/whitelist/{ip}': aIp, '/deposits/{id}': aDeposit, '/gateway-deposits/{id}': aGateway, '/auth/sessions/{id}': aSession.id! };

    const b = await registerAccount(t, 'Other Shop');
    await approve(t, b.id, { balance: 50_000 });
    const before = await accountState(t, t.demo.resellerId);
    for (const r of walk('dashboard')) {
      const template = Object.keys(foreign).find((k) => r.path.includes(k));
      if (r.path.includes('{')) expect(template, `${r.method} ${r.path}: which of reseller A's resources fits its parameter?`).toBeDefined();
      const url = template ? r.path.replace(template, template.replace(/\{\w+\}/, encodeURIComponent(foreign[template]!))) : r.path;
      if (r.path.endsWith('/auth/sign-out') || r.path.endsWith('/me/password')) continue; // B's own session and password only
      const res = await b.client.request(r.method, url.replace('/dashboard/v1', ''), r.method === 'GET' ? undefined : {});
      if (template) expectJsonError(res, 404, 'NOT_FOUND');
      // Echoing what B itself sent (the id in the URL) reveals nothing.
      for (const mark of aMarks.filter((m) => !decodeURIComponent(url).includes(m))) {
        expect(res.text.includes(mark), `${r.method} ${r.path} shows reseller A's ${mark}`).toBe(false);
      }
    }
    expect(await accountState(t, t.demo.resellerId)).toEqual(before);
    expect(await db.selectFrom('sessions').select('id').where('id', '=', aSession.id).executeTakeFirst(), "A's session survives B's DELETE").toBeDefined();
  });

  it("an operator's session token does not open API v1 either, which takes only its signed API keys", async () => {
    const r = await new JsonClient(`${t.origin}/api/v1`, operator.token).get('/balance');
    expectJsonError(r, 401, 'INVALID_API_KEY');
  });
});
