import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest } from '../support/client.js';
import { dashboardClient, registerAccount, type Account } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/**
 * What enters through the three APIs is taken exactly as declared (issue 28, items 1, 4, 5
 * and 20): bodies are never coerced, strings hold no control characters and are well-formed
 * Unicode, and every refusal is a 400 VALIDATION_ERROR naming the field in the client's terms.
 */
describe.each(storeKinds())('input at the boundary (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let shop: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
    shop = await registerAccount(t);
  });
  afterAll(async () => t?.close());

  const count = async (table: 'resellers' | 'audit_log') =>
    Number((await t.platform.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('operator bodies take exactly the declared types: no boolean, array or text read as an amount or a name', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    for (const amount of [true, [250], '1e3', '250', null, { v: 1 }]) {
      const res = await op.post(`/resellers/${r.id}/wallet/credit`, { amount, note: 'coercion probe' });
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toMatch(/^amount must be number/);
    }
    expectJsonError(await op.post(`/resellers/${r.id}/wallet/debit`, { amount: [1], note: 'x' }), 400, 'VALIDATION_ERROR');
    expect(await stateSnapshot(t.platform)).toEqual(before);

    const resellers = await count('resellers');
    const named = await op.post('/resellers', { name: true, email: `${uniqueRef()}@example.com` });
    expectJsonError(named, 400, 'VALIDATION_ERROR');
    expect(named.body.message).toBe('name must be string');
    expectJsonError(await op.post('/resellers', { name: 'Shop', email: `${uniqueRef()}@example.com`, approve: 'true' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/resellers', { name: 'Shop', email: `${uniqueRef()}@example.com`, tier: ['gold'] }), 400, 'VALIDATION_ERROR');
    expect(await count('resellers')).toBe(resellers);

    const price = await op.put(`/catalogs/${(await op.get('/catalogs')).body.data.catalogs[0].id}/prices`, { prices: [{ product_code: 'FF-100', tier: 'gold', price: '15000' }] });
    expectJsonError(price, 400, 'VALIDATION_ERROR');
    expect(price.body.message).toBe('prices[0].price must be number or null');
  });

  it('dashboard and sign-in bodies take exactly the declared types too', async () => {
    expectJsonError(await dashboardClient(t).post('/auth/sign-in', { email: shop.email, password: 12345678 }), 400, 'VALIDATION_ERROR');
    expectJsonError(await dashboardClient(t).post('/auth/register', { name: 1, email: `${uniqueRef()}@example.com`, password: 'long enough password' }), 400, 'VALIDATION_ERROR');
    const ip = await shop.client.post('/whitelist', { ip: ['203.0.113.7'] });
    expectJsonError(ip, 400, 'VALIDATION_ERROR');
    expect(ip.body.message).toBe('ip must be string');
    expectJsonError(await shop.client.put('/me/callback-url', { callback_url: 1 }), 400, 'VALIDATION_ERROR');
    expectJsonError(await new (op.constructor as typeof JsonClient)(`${t.origin}/admin/v1`).post('/auth/sign-in', { email: ['a@example.com'], password: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it('query strings and path parameters are still read as text (they can only arrive as text)', async () => {
    const page = await op.get('/resellers?page=1&limit=2');
    expect(page.status, page.text).toBe(200);
    expect(page.body.meta).toMatchObject({ page: 1, limit: 2 });
    expect((await shop.client.get('/orders?page=1&limit=5')).status).toBe(200);
  });

  it('messages name the field as the client does: no body. or querystring. prefixes', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { status: 'pending' });
    const tier = await op.post(`/resellers/${r.id}/approve`, { tier: 'bronze' });
    expect(tier.body.message).toBe('tier must be one of gold, platinum, diamond');
    const status = await op.get('/resellers?status=gone');
    expect(status.body.message).toBe('status must be one of pending, active, suspended');
    const missing = await op.post(`/resellers/${r.id}/approve`, {});
    expect(missing.body.message).toBe('tier is required');
    const unknown = await op.post(`/resellers/${r.id}/approve`, { tier: 'gold', color: 'red' });
    expect(unknown.body.message).toBe("unknown field 'color'");
    for (const m of [tier, status, missing, unknown]) expect(m.body.message).not.toMatch(/body|querystring|params/);
  });

  it('NUL and other control characters are a 400 naming the field on every API, signed in or not, and change nothing', async () => {
    const before = await stateSnapshot(t.platform);
    const resellers = await count('resellers');
    const r = await createReseller(t.platform, t.baseUrl);
    const cases: [Promise<{ status: number; body: any; text: string; headers: any }>, string][] = [
      [dashboardClient(t).post('/auth/sign-in', { email: 'a\u0000@x.example', password: 'whatever' }), 'email'],
      [dashboardClient(t).post('/auth/register', { name: 'Shop', email: `n\u0000${uniqueRef()}@x.example`, password: 'long enough password' }), 'email'],
      [dashboardClient(t).post('/auth/register', { name: 'Sh\u0000op', email: `${uniqueRef()}@x.example`, password: 'long enough password' }), 'name'],
      [new (op.constructor as typeof JsonClient)(`${t.origin}/admin/v1`).post('/auth/sign-in', { email: 'op\u0000@x.example', password: 'x' }), 'email'],
      [op.post('/resellers', { name: 'N\u0000', email: `${uniqueRef()}@example.com` }), 'name'],
      [op.post('/resellers', { name: 'Tab\tName', email: `${uniqueRef()}@example.com` }), 'name'],
      [op.post(`/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'bank\u0000' }), 'note'],
      [op.post(`/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'carriage\rreturn' }), 'note'],
      [op.get('/resellers?q=%00'), 'q'],
      [op.get('/orders/%00'), 'id'],
      [op.get('/orders?ref_id=a%01'), 'ref_id'],
      [shop.client.post('/whitelist', { ip: '10.0.0.1\u0000' }), 'ip'],
      [shop.client.delete('/whitelist/%00'), 'ip'],
      [shop.client.get('/orders/%00abc'), 'id'],
      [t.client.get('/order-status?ref_id=%00'), 'ref_id'],
      [t.client.post('/validation', { product_code: 'FF-100', fields: { user_id: '1\u0000' } }), 'fields.user_id'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message, res.text).toContain(`${field} must not contain control characters`);
    }
    const after = await stateSnapshot(t.platform);
    expect(after.orders).toBe(before.orders);
    expect(await count('resellers')).toBe(resellers + 1);
  });

  it('notes keep their lines: tab and newline are allowed in free text only', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const c = await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'bank transfer\n\tref 42' });
    expect(c.status, c.text).toBe(200);
    expect(c.body.data.entry.note).toBe('bank transfer\n\tref 42');
  });

  it('lone UTF-16 surrogates are refused everywhere strings enter; well-formed non-BMP text is kept', async () => {
    const before = await stateSnapshot(t.platform);
    const first = await t.client.post('/order', { ref_id: 'p-\ud801', product_code: 'FF-100', target: '123456789' });
    expectJsonError(first, 400, 'VALIDATION_ERROR');
    expect(first.body.message).toBe('ref_id must be well-formed Unicode (it holds a lone UTF-16 surrogate)');
    expectJsonError(await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1\ud802' }), 400, 'VALIDATION_ERROR');
    const note = await op.post('/resellers', { name: 'Shop \udc00', email: `${uniqueRef()}@example.com` });
    expectJsonError(note, 400, 'VALIDATION_ERROR');
    expect(note.body.message).toContain('name must be well-formed Unicode');
    expectJsonError(await shop.client.put('/me/callback-url', { callback_url: 'https://example.com/\ud800' }), 400, 'VALIDATION_ERROR');
    expect(await stateSnapshot(t.platform)).toEqual(before);

    const emoji = `p-😀-${uniqueRef()}`;
    const ok = await t.client.post('/order', { ref_id: emoji, product_code: 'FF-100', target: '123456789' });
    expect(ok.status, ok.text).toBe(200);
    expect((await t.client.get(`/order-status?ref_id=${encodeURIComponent(emoji)}`)).body.data.ref_id).toBe(emoji);
  });

  it('resending a callback of a refunded order is 409 INVALID_STATE, the one rule of ResendCallback', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    await t.platform.runner.stop();
    try {
      const placed = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
      const id = placed.body.data.order_id;
      const refunded = await op.post(`/orders/${id}/refund`, { note: 'stuck' });
      expect(refunded.status, refunded.text).toBe(200);
      const admin = await op.post(`/orders/${id}/resend-callback`);
      expectJsonError(admin, 409, 'INVALID_STATE');
      // The dashboard's route calls the same rule (ResendCallback) scoped to the owner: test/dashboard/orders.test.ts.
      const viaService = await t.platform.resendCallback.execute(id, { resellerId: r.id }).catch((e) => e);
      expect(viaService).toMatchObject({ code: 'INVALID_STATE', status: 409 });
      expect(admin.body.message).toBe(viaService.message);
    } finally {
      t.platform.runner.start();
    }
  });

  /** POST of exact bytes to a session API, with the client's token if it has one. */
  const postBytes = (c: JsonClient, path: string, body: Buffer) =>
    rawRequest(`${c.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(c.token ? { authorization: `Bearer ${c.token}` } : {}) } });
  const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('JSON nested thousands deep is 400 VALIDATION_ERROR on every session API, signed in or not, and changes nothing', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    const adminAnon = new (op.constructor as typeof JsonClient)(`${t.origin}/admin/v1`);
    for (const [client, path, body] of [
      [adminAnon, '/auth/sign-in', `{"email":${nest(3000)},"password":"x"}`],
      [dashboardClient(t), '/auth/sign-in', `{"email":"a@example.com","password":${nest(3000)}}`],
      [op, `/resellers/${r.id}/wallet/credit`, `{"amount":5,"note":${nest(30_000)}}`],
      [shop.client, '/whitelist', `{"ip":${nest(30_000)}}`],
    ] as const) {
      const res = await postBytes(client, path, Buffer.from(body));
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toContain('more than 32 levels deep');
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('invalid UTF-8 is 400 VALIDATION_ERROR on the session APIs: nothing is stored as U+FFFD', async () => {
    const resellers = await count('resellers');
    const bytes = (prefix: string, bad: number[], suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from(bad), Buffer.from(suffix)]);
    const email = `${uniqueRef()}@example.com`;
    for (const [client, path, body] of [
      [op, '/resellers', bytes('{"name":"Shop ', [0xff], `","email":"${email}"}`)],
      [op, '/resellers', bytes('{"name":"Shop ', [0xfe], `","email":"${email}"}`)],
      [dashboardClient(t), '/auth/register', bytes('{"name":"Shop ', [0xc3], `","email":"${uniqueRef()}@example.com","password":"long enough password"}`)],
    ] as const) {
      const res = await postBytes(client, path, body);
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toContain('request body must be valid UTF-8');
    }
    expect(await count('resellers')).toBe(resellers);
  });

  it('a body over a 64 KB route\'s limit is 413 naming that limit, not API v1\'s 4 KB', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    const res = await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'x'.repeat(70_000) });
    expectJsonError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.body.message).toBe("request body is larger than this route's limit, 64 KB (65536 bytes)");
    expect(res.headers.connection).toBe('close');
    const v1 = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: 'x'.repeat(5000) });
    expectJsonError(v1, 413, 'PAYLOAD_TOO_LARGE');
    expect(v1.body.message).toMatch(/the limit is 4 KB \(4096 bytes\)$/);
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('routes that declare no query refuse unknown query parameters by name, as routes that declare one do', async () => {
    for (const res of [await shop.client.get('/me?foo=1'), await op.get('/me?foo=1'), await shop.client.get('/orders?foo=1')]) {
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toBe("unknown field 'foo'");
    }
    expect((await shop.client.get('/me')).status).toBe(200);
  });

  it('a credit of 0 or less is refused with one message that states the rule', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    for (const amount of [-1, 0, -0.5]) {
      const res = await op.post(`/resellers/${r.id}/wallet/credit`, { amount, note: 'sign probe' });
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toBe(`amount must be a number greater than 0, in major units (got ${amount})`);
    }
    expect((await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 0, note: 'sign probe' })).body.message).toBe('amount must be a number greater than 0, in major units (got 0)');
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });
});
