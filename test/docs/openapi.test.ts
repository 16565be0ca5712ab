import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/http/app.js';
import { DOCUMENTED_APIS, documentUrl } from '../../src/http/routes/docs.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest, ResellerClient } from '../support/client.js';
import { operatorClient } from '../support/json-client.js';
import { assertMatchesOpenApi, assertMatchesWebhook, compileSchema, inlineRefs, operationsOf, refsOf, resolvePointer } from '../support/openapi.js';
import { storeKinds } from '../support/stores.js';

type Doc = Record<string, any>;

describe.each(storeKinds())('OpenAPI documents (%s)', (kind) => {
  let t: TestApp;
  const docs: Record<string, Doc> = {};
  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const api of DOCUMENTED_APIS) {
      const r = await rawRequest(`${t.origin}${documentUrl(api.prefix)}`, { method: 'GET' });
      expect(r.status, r.text).toBe(200);
      docs[api.prefix] = r.body;
    }
  });
  afterAll(async () => t?.close());

  it('are served without authentication and without counting against the rate limit', async () => {
    const r = await rawRequest(`${t.origin}/api/v1/openapi.json`, { method: 'GET' });
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    expect(r.body.openapi).toBe('3.1.0');
  });

  it('document every route Fastify serves under each API, and nothing it does not serve', () => {
    const served = routesOf(t.platform.app).filter((r) => r.method !== 'HEAD');
    for (const api of DOCUMENTED_APIS) {
      const actual = served
        .filter((r) => r.url.startsWith(`${api.prefix}/`) && r.url !== documentUrl(api.prefix))
        .map((r) => `${r.method} ${r.url.slice(api.prefix.length).replace(/:(\w+)/g, '{$1}')}`)
        .sort();
      const documented = operationsOf(docs[api.prefix]!).map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();
      expect(documented, api.name).toEqual(actual);
      expect(actual.length, api.name).toBeGreaterThan(0);
    }
  });

  it('are valid OpenAPI 3.1: structure, resolvable $refs, schemas that compile under JSON Schema 2020-12', () => {
    for (const [prefix, doc] of Object.entries(docs)) {
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title && doc.info.version, prefix).toBeTruthy();
      expect(doc.servers[0].url).toBe(prefix);
      for (const { at, ref } of refsOf(doc)) expect(resolvePointer(doc, ref), `${prefix} ${at} → ${ref}`).toBeDefined();
      const ids = new Set<string>();
      const tags = new Set((doc.tags ?? []).map((x: { name: string }) => x.name));
      const schemes = Object.keys(doc.components?.securitySchemes ?? {});
      for (const { method, path, op } of operationsOf(doc)) {
        const where = `${prefix} ${method} ${path}`;
        expect(path, where).toMatch(/^\//);
        expect(op.operationId && !ids.has(op.operationId), `${where}: unique operationId`).toBeTruthy();
        ids.add(op.operationId);
        expect(typeof op.summary, where).toBe('string');
        for (const tag of op.tags ?? []) expect(tags.has(tag), `${where}: tag ${tag} is declared`).toBe(true);
        for (const req of op.security ?? doc.security ?? []) for (const name of Object.keys(req)) expect(schemes, where).toContain(name);
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const pathParams = (op.parameters ?? []).filter((p: Doc) => p.in === 'path').map((p: Doc) => p.name);
        expect(pathParams.sort(), `${where}: path parameters`).toEqual(templated.sort());
        for (const p of op.parameters ?? []) {
          expect(['query', 'path', 'header', 'cookie'], where).toContain(p.in);
          compileSchema(doc, p.schema);
        }
        if (op.requestBody) compileSchema(doc, op.requestBody.content['application/json'].schema);
        expect(op.responses['200'] ?? op.responses['202'], where).toBeDefined();
        for (const [status, resp] of Object.entries<Doc>(op.responses)) {
          expect(status, where).toMatch(/^[1-5](\d\d|XX)$/);
          expect(typeof resp.description, `${where} ${status}`).toBe('string');
          const schema = resp.content?.['application/json']?.schema;
          if (schema) compileSchema(doc, schema);
          for (const h of Object.values<Doc>(resp.headers ?? {})) compileSchema(doc, h.schema);
          if (!status.startsWith('2')) expect(schema.properties.error.enum.length, `${where} ${status}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it('spell out the spec where it is precise (POST /order, errors, headers, the callback)', () => {
    const api = inlineRefs(docs['/api/v1']!, docs['/api/v1']!);
    const order = api.paths['/order'].post;
    const body = order.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['price', 'product_code', 'ref_id', 'target', 'zone']);
    expect(body.additionalProperties).toBe(false);
    expect(body.required.sort()).toEqual(['product_code', 'ref_id', 'target']);
    expect([body.properties.ref_id.maxLength, body.properties.product_code.maxLength, body.properties.target.maxLength]).toEqual([64, 128, 128]);
    const codes = (op: Doc) => Object.values<Doc>(op.responses).flatMap((r) => r.content?.['application/json']?.schema?.properties?.error?.enum ?? []);
    expect(codes(order)).toEqual(expect.arrayContaining(['PRICE_NOT_MATCH', 'DUPLICATE_REF_ID', 'INSUFFICIENT_BALANCE', 'PRODUCT_NOT_FOUND', 'ORDER_FAILED_SUPPLIER_GATE', 'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT', 'VALIDATION_ERROR', 'INVALID_API_KEY', 'INVALID_SIGNATURE', 'TIMESTAMP_EXPIRED', 'IP_NOT_WHITELISTED', 'RESELLER_INACTIVE']));
    expect(codes(order)).not.toContain('RATE_LIMIT_EXCEEDED');
    expect(order.responses['411'].content['application/json'].schema.properties.error.enum).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(codes(api.paths['/orders'].get)).toEqual(expect.arrayContaining(['INVALID_PAGINATION', 'INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE', 'INVALID_STATUS_FILTER', 'RATE_LIMIT_EXCEEDED']));
    expect(api.paths['/orders'].get.responses['429'].headers['Retry-After'].required).toBe(true);
    expect(api.paths['/check-status'].post.deprecated).toBe(true);
    expect(Object.keys(api.paths['/products'].get.responses['200'].headers)).toEqual(expect.arrayContaining(['Cache-Control', 'Vary', 'X-RateLimit-Reset']));
    expect(Object.values<Doc>(api.components.securitySchemes).map((s) => [s.type, s.in, s.name])).toEqual([
      ['apiKey', 'header', 'X-Api-Key'], ['apiKey', 'header', 'X-Timestamp'], ['apiKey', 'header', 'X-Signature'],
    ]);
    const hook = api.webhooks.orderCallback.post;
    expect(Object.keys(hook.requestBody.content['application/json'].schema.properties).sort()).toEqual(
      ['failure_code', 'failure_reason', 'message', 'order_code', 'price', 'product_code', 'product_name', 'ref_id', 'serial_number', 'status'],
    );
    expect(hook.parameters.map((p: Doc) => p.name)).toEqual(['X-Signature', 'X-Timestamp', 'X-Callback-Id', 'X-Callback-Attempt']);
    // Receivers are told delivery is at-least-once and to deduplicate on X-Callback-Id.
    expect(hook.description).toMatch(/at-least-once/);
    expect(hook.description).toMatch(/deduplicate on X-Callback-Id/);
  });

  it('catch drift: a response that leaves its document fails with the reason', async () => {
    const api = docs['/api/v1']!;
    const r = await t.client.get('/balance');
    expect(assertMatchesOpenApi(api, 'GET', '/api/v1/balance', r)).toBe(true);
    expect(() => assertMatchesOpenApi(api, 'GET', '/api/v1/balance', { ...r, body: { ...r.body, data: { ...r.body.data, extra: 1 } } })).toThrow(/extra|additional/);
    expect(() => assertMatchesOpenApi(api, 'GET', '/api/v1/balance', { ...r, status: 418 })).toThrow(/status not documented/);
    const err = await t.client.get('/orders?page=0');
    expect(() => assertMatchesOpenApi(api, 'GET', '/api/v1/orders', { ...err, body: { ...err.body, error: 'PRICE_NOT_MATCH' } })).toThrow(/PRICE_NOT_MATCH is not documented/);
    const noRate = { ...r, headers: { ...r.headers } };
    delete noRate.headers['x-ratelimit-remaining'];
    expect(() => assertMatchesOpenApi(api, 'GET', '/api/v1/balance', noRate)).toThrow(/X-RateLimit-Remaining/);
    expect(assertMatchesOpenApi(api, 'GET', '/api/v1/no-such-route', r)).toBe(false);

    const payload = { ref_id: 'r', order_code: 'ORD-0123456789AB', status: 'success', product_code: 'FF-100', product_name: '100 Diamonds', price: 15000, serial_number: 'SRL-7KQ2M9XW4B', message: 'ok', failure_code: null, failure_reason: null };
    const headers = { 'x-signature': 'a'.repeat(64), 'x-timestamp': '1700000000000', 'x-callback-id': 'cb1', 'x-callback-attempt': '1' };
    assertMatchesWebhook(api, 'orderCallback', headers, JSON.stringify(payload));
    expect(() => assertMatchesWebhook(api, 'orderCallback', headers, JSON.stringify({ ...payload, order_id: 'x' }))).toThrow(/order_id|additional/);
    expect(() => assertMatchesWebhook(api, 'orderCallback', { ...headers, 'x-callback-attempt': '5' }, JSON.stringify(payload))).toThrow(/X-Callback-Attempt/);
  });

  it('real responses of every reseller endpoint match (the test clients check each one)', async () => {
    const c = t.client;
    const products = await c.get('/products?limit=5');
    expect(products.status).toBe(200);
    const p = products.body.data.products[0];
    const ref = uniqueRef('doc');
    expect((await c.post('/order', { ref_id: ref, product_code: p.code, target: '12345678', zone: '1234', price: String(p.price) })).status).toBe(200);
    for (const path of ['/categories', `/order-status?ref_id=${ref}`, '/orders?status=processing,success', '/balance', '/wallet-history?type=order_debit', `/callbacks?ref_id=${ref}`]) {
      expect((await c.get(path)).status, path).toBe(200);
    }
    expect((await c.post('/check-status', { ref_id: ref })).status).toBe(200);
    expect((await c.get('/order-status')).body.error).toBe('REF_ID_REQUIRED');
    expect((await c.get('/orders?start_date=2020-01-01&end_date=2021-01-01')).body.error).toBe('DATE_RANGE_TOO_LARGE');
    expect((await c.post('/validation', { category_slug: 'no-such-game', fields: {} })).body.error).toBe('GAME_NOT_SUPPORTED');
    expect((await c.post('/order', { ref_id: ref, product_code: p.code, target: '1' })).body.error).toBe('DUPLICATE_REF_ID');
    expect((await new ResellerClient(t.baseUrl, 'nope', 'x').get('/balance')).body.error).toBe('INVALID_API_KEY');
  });

  it('real responses of the session APIs match, sign-in included', async () => {
    const op = await operatorClient(t);
    expect((await op.get('/me')).status).toBe(200);
    op.token = null;
    expect((await op.get('/me')).body.error).toBe('UNAUTHENTICATED');
  });

  it('serve a reference page per API: Scalar from this origin, a strict CSP, no inline script', async () => {
    const index = await rawRequest(`${t.origin}/docs`, { method: 'GET' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    for (const api of DOCUMENTED_APIS) expect(index.text).toContain(`/docs/${api.name}`);
    for (const api of DOCUMENTED_APIS) {
      const page = await rawRequest(`${t.origin}/docs/${api.name}`, { method: 'GET' });
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self';.*connect-src 'self'/);
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text).not.toMatch(/https?:\/\//);
      expect(page.text).toContain(documentUrl(api.prefix).replace(/\//g, '/'));
    }
    const bundle = await fetch(`${t.origin}/docs/assets/api-reference.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
    expect((await fetch(`${t.origin}/docs/assets/init.js`)).status).toBe(200);
  });
});
