import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_APIS, documentUrl } from '../../src/http/routes/docs.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest, type ApiResponse } from '../support/client.js';
import { approve, registerAccount } from '../support/dashboard.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { findOperation, inlineRefs, operationsOf, undeclaredHeaders } from '../support/openapi.js';
import { storeKinds } from '../support/stores.js';

type Doc = Record<string, any>;

/**
 * Every header a response carries is declared on that response in its OpenAPI document, and
 * every required one is sent. The test clients check both on every response of every suite
 * (test/support/openapi.ts); this walk makes sure the whole surface is covered: every GET of
 * the three APIs without a path parameter, plus the answers with headers of their own.
 */
describe.each(storeKinds())('response headers as the documents declare them (%s)', (kind) => {
  let t: TestApp;
  const docs: Record<string, Doc> = {};
  let op: JsonClient;
  let shop: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const api of DOCUMENTED_APIS) docs[api.prefix] = (await rawRequest(`${t.origin}${documentUrl(api.prefix)}`, { method: 'GET' })).body;
    op = await operatorClient(t);
    const account = await registerAccount(t);
    await approve(t, account.id, { balance: 100_000 });
    shop = account.client;
  });
  afterAll(async () => t?.close());

  /** The declared headers of the response the document gives for this answer's status. */
  function declared(prefix: string, method: string, path: string, status: number): Record<string, Doc> {
    const found = findOperation(docs[prefix]!, method, path)!;
    const responses = found.op.responses as Record<string, Doc>;
    return inlineRefs(docs[prefix]!, responses[String(status)]).headers ?? {};
  }
  const sentAndDeclared = (prefix: string, method: string, path: string, r: ApiResponse, names: string[]) => {
    expect(undeclaredHeaders(docs[prefix]!, method, path, r), `${method} ${path} → ${r.status}`).toEqual([]);
    const names2 = Object.keys(declared(prefix, method, path, r.status));
    for (const n of names) {
      expect(r.headers[n.toLowerCase()], `${n} sent on ${method} ${path} → ${r.status}`).toBeDefined();
      expect(names2, `${n} declared on ${method} ${path} → ${r.status}`).toContain(n);
    }
  };

  it('walks every GET without a path parameter of the three APIs: nothing sent undeclared', async () => {
    let walked = 0;
    for (const [prefix, client] of [['/admin/v1', op], ['/dashboard/v1', shop]] as const) {
      for (const { method, path } of operationsOf(docs[prefix]!)) {
        if (method !== 'get' || path.includes('{')) continue;
        // The clients throw "OpenAPI drift: … sent but not declared" on any undeclared header.
        const r = await client.get(path);
        expect(undeclaredHeaders(docs[prefix]!, 'GET', `${prefix}${path}`, r)).toEqual([]);
        walked++;
      }
    }
    for (const { method, path } of operationsOf(docs['/api/v1']!)) {
      if (method !== 'get') continue;
      const r = await t.client.get(path === '/order-status' || path === '/callbacks' ? `${path}?ref_id=none` : path);
      expect(undeclaredHeaders(docs['/api/v1']!, 'GET', `/api/v1${path}`, r)).toEqual([]);
      walked++;
    }
    expect(walked).toBeGreaterThan(40);
  });

  it('POST /check-status says Deprecation and Link on every answer, refusals included, and declares them on each', async () => {
    const ref = uniqueRef('dep');
    expect((await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '1' })).status).toBe(200);
    const ok = await t.client.post('/check-status', { ref_id: ref });
    const missing = await t.client.post('/check-status', { ref_id: 'never-placed' });
    const unsigned = await t.client.post('/check-status', { ref_id: ref }, { headers: { 'x-signature': 'f'.repeat(64) } });
    expect([ok.status, missing.status, unsigned.status]).toEqual([200, 404, 401]);
    for (const r of [ok, missing, unsigned]) {
      expect(r.headers.link).toBe('</api/v1/order-status>; rel="successor-version"');
      sentAndDeclared('/api/v1', 'POST', '/api/v1/check-status', r, ['Deprecation', 'Link']);
    }
  });

  it('sign-in, the session and sign-out declare Set-Cookie and Cache-Control; CSV exports Content-Disposition', async () => {
    for (const prefix of ['/admin/v1', '/dashboard/v1'] as const) {
      const client = prefix === '/admin/v1' ? op : shop;
      const session = await client.get('/auth/session');
      sentAndDeclared(prefix, 'GET', `${prefix}/auth/session`, session, ['Cache-Control']);
    }
    const email = `hdr-${uniqueRef()}@example.com`;
    const fresh = new JsonClient(`${t.origin}/dashboard/v1`);
    const registered = await fresh.post('/auth/register', { name: 'Header Shop', email, password: 'a long passphrase' });
    sentAndDeclared('/dashboard/v1', 'POST', '/dashboard/v1/auth/register', registered, ['Set-Cookie', 'Cache-Control']);
    const signedIn = await fresh.signIn(email, 'a long passphrase');
    sentAndDeclared('/dashboard/v1', 'POST', '/dashboard/v1/auth/sign-in', signedIn, ['Set-Cookie', 'Cache-Control']);
    expect(signedIn.headers['set-cookie']).toMatch(/HttpOnly; SameSite=Strict/);
    const out = await fresh.post('/auth/sign-out', {});
    sentAndDeclared('/dashboard/v1', 'POST', '/dashboard/v1/auth/sign-out', out, ['Set-Cookie']);

    for (const path of ['/orders/export.csv', '/wallet-history/export.csv', '/products/export.csv']) {
      const r = await shop.get(path);
      expect(r.status, r.text).toBe(200);
      sentAndDeclared('/dashboard/v1', 'GET', `/dashboard/v1${path}`, r, ['Content-Disposition', 'Cache-Control']);
    }
  });

  it('an undeclared header is caught', async () => {
    const r = await t.client.get('/balance');
    expect(undeclaredHeaders(docs['/api/v1']!, 'GET', '/api/v1/balance', r)).toEqual([]);
    expect(undeclaredHeaders(docs['/api/v1']!, 'GET', '/api/v1/balance', { ...r, headers: { ...r.headers, 'x-powered-by': 'x' } })).toEqual(['x-powered-by']);
  });
});
