import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import type { ResellerClient } from '../support/client.js';
import { approve, expectDeclared, generateKey, registerAccount, type Account } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('dashboard orders and wallet (%s)', (kind) => {
  let t: TestApp;
  let a: Account;
  let api: ResellerClient;
  let processingId: string;
  let done: { id: string; ref: string }[] = [];

  const jobCount = async () => Number((await t.platform.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    // No worker at first: the first order stays processing so a refused resend can be tried.
    t = await startTestApp(kind);
    a = await registerAccount(t);
    await approve(t, a.id, { balance: 10_000_000 });
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    api = (await generateKey(t, a.client)).api;
    const first = await api.post('/order', { ref_id: uniqueRef('proc'), product_code: 'FF-100', target: '1' });
    expect(first.status, first.text).toBe(200);
    processingId = first.body.data.order_id;
  });
  afterAll(async () => t?.close());

  it('resending the callback of a processing order is refused and queues nothing', async () => {
    const jobs = await jobCount();
    const r = await a.client.post(`/orders/${processingId}/resend-callback`);
    expectJsonError(r, 400, 'VALIDATION_ERROR');
    expect(r.body.message).toContain('processing');
    expect(await jobCount()).toBe(jobs);
  });

  it('lists, filters and shows orders exactly as API v1 does', async () => {
    t.platform.startBackground();
    for (const code of ['FF-100', 'ML-86']) {
      const ref = uniqueRef('done');
      const o = await api.post('/order', { ref_id: ref, product_code: code, target: '5550001', zone: code === 'ML-86' ? '2001' : undefined });
      expect(o.status, o.text).toBe(200);
      done.push({ id: o.body.data.order_id, ref });
    }
    for (const d of done) await waitForTerminal(api, d.ref);
    const procRef = (await t.platform.repos.orders.findById(processingId))!.refId;
    await waitForTerminal(api, procRef);

    const mine = await a.client.get('/orders');
    expectDeclared(t, 'GET', '/orders', mine);
    const v1 = await api.get('/orders');
    expect(mine.body.data.orders).toEqual(v1.body.data.orders);
    expect(mine.body.meta).toEqual(v1.body.meta);
    expect(mine.body.meta.total).toBe(3);

    const page = await a.client.get('/orders?limit=1&page=2');
    expect(page.body.data.orders).toEqual([v1.body.data.orders[1]]);
    expect(page.body.meta).toMatchObject({ total: 3, page: 2, limit: 1, has_more: true });
    const status = v1.body.data.orders[0].status;
    expect((await a.client.get(`/orders?status=${status}`)).body.data.orders).toEqual((await api.get(`/orders?status=${status}`)).body.data.orders);
    const today = new Date().toISOString().slice(0, 10);
    expect((await a.client.get(`/orders?start_date=${today}&end_date=${today}`)).body.meta.total).toBe(3);

    expectJsonError(await a.client.get('/orders?status=bogus'), 400, 'INVALID_STATUS_FILTER');
    expectJsonError(await a.client.get('/orders?limit=0'), 400, 'INVALID_PAGINATION');
    expectJsonError(await a.client.get('/orders?page=x'), 400, 'INVALID_PAGINATION');
    expectJsonError(await a.client.get('/orders?start_date=2026-02-30'), 400, 'INVALID_DATE_RANGE');
    expectJsonError(await a.client.get('/orders?start_date=2025-01-01&end_date=2025-12-31'), 400, 'DATE_RANGE_TOO_LARGE');
    const unknown = await a.client.get('/orders?sort=asc');
    expectJsonError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.message).toContain("unknown field 'sort'");
  });

  it('shows one order by id with its callback log, and resends its callback', async () => {
    const { id, ref } = done[0]!;
    const r = await a.client.get(`/orders/${id}`);
    expectDeclared(t, 'GET', '/orders/{id}', r);
    const v1 = await api.get(`/order-status?ref_id=${ref}`);
    const { callbacks, ledger_entries, timeline, ...order } = r.body.data;
    expect(order).toEqual(v1.body.data);
    expect(ledger_entries.length).toBeGreaterThanOrEqual(1);
    expect(timeline[0].event).toBe('placed');
    expect(Array.isArray(callbacks)).toBe(true);

    const resend = await a.client.post(`/orders/${id}/resend-callback`);
    expectDeclared(t, 'POST', '/orders/{id}/resend-callback', resend);
    expect(resend.body.data).toMatchObject({ order_id: id, ref_id: ref });
    expect(resend.body.data.round).toBeGreaterThanOrEqual(2);
    expectJsonError(await a.client.post(`/orders/${id}/resend-callback`, { force: true }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.get('/orders/00000000-0000-0000-0000-000000000000'), 404, 'NOT_FOUND');
  });

  it('wallet history is the API v1 one, with its filters', async () => {
    const mine = await a.client.get('/wallet-history');
    expectDeclared(t, 'GET', '/wallet-history', mine);
    const v1 = await api.get('/wallet-history');
    expect(mine.body.data.entries).toEqual(v1.body.data.entries);
    expect(mine.body.meta).toEqual(v1.body.meta);
    expect(mine.body.data.entries.some((e: any) => e.type === 'order_debit')).toBe(true);
    const credits = await a.client.get('/wallet-history?type=credit');
    expect(credits.body.data.entries).toEqual((await api.get('/wallet-history?type=credit')).body.data.entries);
    expectJsonError(await a.client.get('/wallet-history?type=bonus'), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.get('/wallet-history?limit=101'), 400, 'INVALID_PAGINATION');
    expect((await a.client.get('/me')).body.data.balance).toBe((await api.get('/balance')).body.data.balance);
  });

  it('a second reseller sees none of it: another reseller\'s order id is NOT_FOUND, like an unknown one', async () => {
    const b = await registerAccount(t);
    await approve(t, b.id, { balance: 1_000 });
    expect((await b.client.get('/orders')).body.data.orders).toEqual([]);
    expect((await b.client.get('/orders')).body.meta.total).toBe(0);
    const { id } = done[0]!;
    const other = await b.client.get(`/orders/${id}`);
    const unknown = await b.client.get('/orders/00000000-0000-0000-0000-000000000000');
    expectJsonError(other, 404, 'NOT_FOUND');
    expect(other.body.message).toBe(unknown.body.message.replace('00000000-0000-0000-0000-000000000000', id));
    // Let the worker finish the earlier resend so that a job queued now would show.
    for (let i = 0; i < 400 && (await jobCount()) > 0; i++) await new Promise((res) => setTimeout(res, 25));
    expect(await jobCount()).toBe(0);
    const rounds = await t.platform.callbacks.log(id);
    expectJsonError(await b.client.post(`/orders/${id}/resend-callback`), 404, 'NOT_FOUND');
    expect(await jobCount()).toBe(0);
    expect((await t.platform.callbacks.log(id)).length).toBe(rounds.length);
    const entries = (await b.client.get('/wallet-history')).body.data.entries;
    expect(entries.map((e: any) => e.type)).toEqual(['credit']);
    expect(JSON.stringify(entries)).not.toContain(id);
  });
});
