import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResellerClient } from '../support/client.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { approve, expectDeclared, generateKey, registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';
import { newestPerReseller } from '../../src/services/api-error-log.js';

describe('a batch of refusals', () => {
  it('keeps no more than the newest `cap` of each reseller, in order', () => {
    const row = (resellerId: string, n: number) => ({ resellerId, at: n, method: 'GET', path: '/', httpStatus: 401, error: 'INVALID_SIGNATURE', message: '', ip: '', requestId: String(n) });
    const rows = [row('a', 1), row('b', 2), row('a', 3), row('a', 4), row('b', 5)];
    expect(newestPerReseller(rows, 2).map((r) => r.requestId)).toEqual(['2', '3', '4', '5']);
    expect(newestPerReseller(rows, 500)).toEqual(rows);
  });
});

describe.each(storeKinds())('recent API errors (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function integrator(ips = ['127.0.0.1', '::1']) {
    const a = await registerAccount(t);
    await approve(t, a.id, { balance: 1_000_000 });
    for (const ip of ips) await a.client.post('/whitelist', { ip });
    const key = await generateKey(t, a.client);
    return { a, key, api: key.api };
  }

  it('lists the account\'s refused API v1 requests, newest first, and nothing of successes', async () => {
    const { a, key, api } = await integrator();
    expect((await api.get('/balance')).status).toBe(200);
    const ok = await api.post('/order', { ref_id: uniqueRef('ok'), product_code: 'FF-100', target: '5550001' });
    expect(ok.status).toBe(200);
    const forged = new ResellerClient(t.baseUrl, key.response.body.data.api_key, 'not-the-secret');
    expectJsonError(await forged.get('/balance'), 401, 'INVALID_SIGNATURE');
    expectJsonError(await api.get('/balance', { timestamp: String(Date.now() - 3_600_000) }), 400, 'TIMESTAMP_EXPIRED');
    const wrongPrice = await api.post('/order', { ref_id: uniqueRef('p'), product_code: 'FF-100', target: '5550001', price: 1 });
    expect(wrongPrice.status).toBeGreaterThanOrEqual(400);
    expectJsonError(await api.get('/order-status?ref_id=nope'), 404, 'PRODUCT_NOT_FOUND');
    await t.platform.apiErrorLog.flush();

    const r = await a.client.get('/api-errors');
    expectDeclared(t, 'GET', '/api-errors', r);
    const list = r.body.data.api_errors;
    expect(list.map((e: any) => e.error)).toEqual(['PRODUCT_NOT_FOUND', wrongPrice.body.error, 'TIMESTAMP_EXPIRED', 'INVALID_SIGNATURE']);
    expect(r.body.meta.total).toBe(4);
    expect(list[0]).toMatchObject({ method: 'GET', path: '/api/v1/order-status', http_status: 404, ip: '127.0.0.1' });
    expect(list[0].message).toContain('nope');
    expect(list[3]).toMatchObject({ method: 'GET', path: '/api/v1/balance', http_status: 401, error: 'INVALID_SIGNATURE' });
    // request_id is the X-Request-Id the integrator got.
    expect(list.every((e: any) => /^[0-9a-f-]{36}$/.test(e.request_id))).toBe(true);
    const page2 = await a.client.get('/api-errors?limit=1&page=2');
    expect(page2.body.data.api_errors[0].error).toBe(wrongPrice.body.error);
    expectJsonError(await a.client.get('/api-errors?limit=0'), 400, 'INVALID_PAGINATION');

    // Another account sees none of them.
    const other = await registerAccount(t);
    expect((await other.client.get('/api-errors')).body.meta.total).toBe(0);
  });

  it('records IP_NOT_WHITELISTED of a known key; an unknown key is nobody\'s', async () => {
    const { a, api } = await integrator(['203.0.113.77']);
    expectJsonError(await api.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    const before = Number((await t.platform.database.db.selectFrom('api_errors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expectJsonError(await new ResellerClient(t.baseUrl, 'tk_unknown', 'x').get('/balance'), 401, 'INVALID_API_KEY');
    await t.platform.apiErrorLog.flush();
    const after = Number((await t.platform.database.db.selectFrom('api_errors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before + 1);
    const list = (await a.client.get('/api-errors')).body.data.api_errors;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ error: 'IP_NOT_WHITELISTED', http_status: 403, ip: '127.0.0.1' });
  });

  it('keeps 7 days and at most 500 per account', async () => {
    const { a } = await integrator();
    const repo = t.platform.database.db;
    const now = Date.now();
    const row = (i: number, at: number) => ({ reseller_id: a.id, at, method: 'GET', path: '/api/v1/balance', http_status: 401, error: 'INVALID_SIGNATURE', message: `m${i}`, ip: '127.0.0.1', request_id: `r${i}` });
    await repo.insertInto('api_errors').values([row(0, now - 8 * 86_400_000), row(1, now - 6 * 86_400_000)]).execute();
    for (let i = 0; i < 6; i++) await repo.insertInto('api_errors').values(Array.from({ length: 100 }, (_, j) => row(2 + i * 100 + j, now - 1000 + i))).execute();
    // Read: the old one is not listed, and at most 500 are.
    const r = await a.client.get('/api-errors?limit=100&page=5');
    expect(r.body.meta.total).toBe(500);
    expect(r.body.data.api_errors).toHaveLength(100);
    expect((await a.client.get('/api-errors?limit=100&page=6')).body.data.api_errors).toHaveLength(0);
    // Prune: the store keeps exactly what is listed.
    (t.platform.apiErrorLog as any).touched.add(a.id);
    await t.platform.apiErrorLog.prune();
    const left = await repo.selectFrom('api_errors').select(['message', 'at']).where('reseller_id', '=', a.id).execute();
    expect(left).toHaveLength(500);
    expect(left.some((x) => x.message === 'm0' || x.message === 'm1')).toBe(false);
  });

  it('with API_ERROR_LOG=false nothing is recorded', async () => {
    const off = await startTestApp(kind, { env: { API_ERROR_LOG: 'false' } });
    try {
      const a = await registerAccount(off);
      await approve(off, a.id);
      await a.client.post('/whitelist', { ip: '127.0.0.1' });
      await a.client.post('/whitelist', { ip: '::1' });
      const { api } = await generateKey(off, a.client);
      expectJsonError(await api.get('/order-status?ref_id=nope'), 404, 'PRODUCT_NOT_FOUND');
      await off.platform.apiErrorLog.flush();
      expect((await a.client.get('/api-errors')).body.meta.total).toBe(0);
    } finally {
      await off.close();
    }
  });
});
