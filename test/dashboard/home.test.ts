import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/domain/sandbox-accounts.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { approve, expectDeclared, generateKey, registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(storeKinds())('dashboard home, price list and developer data (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
  });
  afterAll(async () => t?.close());

  it('the onboarding checklist follows the spec\'s prerequisites step by step', async () => {
    const a = await registerAccount(t);
    const step = async () => {
      const r = await a.client.get('/overview');
      expectDeclared(t, 'GET', '/overview', r);
      return r.body.data.onboarding;
    };
    expect(await step()).toEqual({ approved: false, api_key: false, ip_whitelisted: false, callback_url: false });
    await approve(t, a.id);
    expect(await step()).toEqual({ approved: true, api_key: false, ip_whitelisted: false, callback_url: false });
    await generateKey(t, a.client);
    expect((await step()).api_key).toBe(true);
    await a.client.post('/whitelist', { ip: '203.0.113.5' });
    expect((await step()).ip_whitelisted).toBe(true);
    await a.client.put('/me/callback-url', { callback_url: 'http://127.0.0.1:9/cb' });
    expect(await step()).toEqual({ approved: true, api_key: true, ip_whitelisted: true, callback_url: true });
  });

  it('balance, today\'s orders by state, 30 days of spend and the newest orders', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id, { balance: 1_000_000 });
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    const api = (await generateKey(t, a.client)).api;
    const refs: string[] = [];
    // 7000000001 fails (sandbox), the others succeed.
    for (const target of ['5550001', '5550002', '7000000001']) {
      const ref = uniqueRef('home');
      expect((await api.post('/order', { ref_id: ref, product_code: 'FF-100', target })).status).toBe(200);
      refs.push(ref);
    }
    for (const ref of refs) await waitForTerminal(api, ref);
    // An order of 3 days ago, settled, inserted as history.
    const { db } = t.platform.database;
    const old = Date.now() - 3 * DAY_MS;
    const template = await db.selectFrom('orders').selectAll().where('reseller_id', '=', a.id).executeTakeFirstOrThrow();
    await db.insertInto('orders').values({ ...template, id: '00000000-0000-4000-8000-00000000a0a0', ref_id: 'history-1', created_at: old, completed_at: old, updated_at: old, seq: 0, status: 'success' }).execute();

    const r = await a.client.get('/overview');
    expectDeclared(t, 'GET', '/overview', r);
    const o = r.body.data;
    expect(o.currency).toBe('IDR');
    expect(o.balance).toBe(1_000_000 - 2 * 15_000);
    expect(o.orders_today).toEqual({ processing: 0, success: 2, failed: 1, refunded: 0 });
    expect(o.spend_daily).toHaveLength(30);
    expect(o.spend_daily[29]).toEqual({ date: utcDate(Date.now()), amount: 30_000, orders: 3 });
    expect(o.spend_daily[0].date).toBe(utcDate(Date.now() - 29 * DAY_MS));
    expect(o.spend_daily[26]).toEqual({ date: utcDate(old), amount: template.price === undefined ? 0 : Number(template.price), orders: 1 });
    expect(o.spend_daily.filter((d: any) => d.orders === 0)).toHaveLength(28);
    expect(o.recent_orders.map((x: any) => x.ref_id).slice(0, 3).sort()).toEqual([...refs].sort());
    expect(o.recent_orders.length).toBe(4);
    expect(o.recent_orders[3].ref_id).toBe('history-1');
  });

  it('the price list is the API v1 one for the tier, with search, category filter and CSV', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    const api = (await generateKey(t, a.client)).api;
    const mine = await a.client.get('/products?limit=100');
    expectDeclared(t, 'GET', '/products', mine);
    const v1 = await api.get('/products?limit=100');
    expect(mine.body.data.products).toEqual(v1.body.data.products);
    expect(mine.body.meta).toEqual(v1.body.meta);

    const ff = await a.client.get('/products?category_slug=free-fire');
    expect(ff.body.data.products.every((p: any) => p.category_slug === 'free-fire')).toBe(true);
    const search = await a.client.get('/products?q=ff-1');
    expect(search.body.data.products.map((p: any) => p.code)).toContain('FF-100');
    expect(search.body.data.products.every((p: any) => /ff-1/i.test(p.code) || /ff-1/i.test(p.name))).toBe(true);
    expect((await a.client.get('/products?q=diamonds&category_slug=mobile-legends')).body.data.products.every((p: any) => p.category_slug === 'mobile-legends')).toBe(true);
    expect((await a.client.get('/products?q=zzzz-nothing')).body.meta.total).toBe(0);
    expectJsonError(await a.client.get('/products?limit=1000'), 400, 'INVALID_PAGINATION');
    expectJsonError(await a.client.get(`/products?q=${'x'.repeat(101)}`), 400, 'VALIDATION_ERROR');

    const csv = await a.client.request('GET', '/products/export.csv?category_slug=free-fire');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('code,name,category_slug,category,price,status,type');
    expect(lines.length - 1).toBe(ff.body.meta.total);
    expect(lines.slice(1).every((l) => l.includes(',free-fire,'))).toBe(true);

    const cats = await a.client.get('/categories');
    expectDeclared(t, 'GET', '/categories', cats);
    expect(cats.body.data.categories).toEqual((await api.get('/categories')).body.data.categories);
    expect(cats.body.data.categories.find((c: any) => c.slug === 'free-fire').form[0]).toMatchObject({ role: 'account_id' });
  });

  it('a pending account sees an empty price list (no catalog yet), never an error', async () => {
    const a = await registerAccount(t);
    const r = await a.client.get('/products');
    expectDeclared(t, 'GET', '/products', r);
    expect(r.body.meta.total).toBe(0);
  });

  it('developer data: base URL, the newest live key masked (never a secret), the sandbox accounts', async () => {
    const a = await registerAccount(t);
    const before = await a.client.get('/developer');
    expectDeclared(t, 'GET', '/developer', before);
    expect(before.body.data).toMatchObject({ base_url: `${t.origin}/api/v1`, key_id: null, api_key_id: null });
    await approve(t, a.id);
    const first = await generateKey(t, a.client);
    const second = await generateKey(t, a.client);
    const r = await a.client.get('/developer');
    expect(r.body.data.api_key_id).toBe(second.id);
    expect(r.body.data.key_id).toMatch(/^tk_.{4}….{4}$/);
    expect(r.body.data.key_id).not.toBe(second.response.body.data.api_key);
    expect(JSON.stringify(r.body)).not.toContain(second.response.body.data.api_secret);
    expect(JSON.stringify(r.body)).not.toContain(first.response.body.data.api_key);
    const targets = r.body.data.sandbox_accounts.map((s: any) => s.target);
    expect(targets.sort()).toEqual(Object.keys(SANDBOX_ACCOUNTS).sort());
    expect(r.body.data.sandbox_accounts.find((s: any) => s.target === '4040404040')).toMatchObject({ check: 'INVALID_ID', outcome: 'refused', failure_code: 'INVALID_ID' });
    expect(r.body.data.sandbox_accounts.find((s: any) => s.target === '7000000001')).toMatchObject({ check: 'valid', outcome: 'failed', failure_code: 'SUPPLIER_MAINTENANCE' });
  });

  it('the sandbox table says what POST /order does to each target for a game with the ID check', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    const rows = (await a.client.get('/developer')).body.data.sandbox_accounts as { target: string; outcome: string; failure_code: string | null }[];
    for (const row of rows) {
      const ref = uniqueRef('sbx');
      const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: row.target });
      if (row.outcome === 'refused') {
        expect(placed.status, row.target).toBe(400);
        expect(placed.body.error, row.target).toBe(row.failure_code);
        continue;
      }
      expect(placed.status, `${row.target}: ${placed.text}`).toBe(200);
      const done = await waitForTerminal(t.client, ref);
      expect({ target: row.target, status: done.status }).toEqual({ target: row.target, status: row.outcome });
      if (row.outcome === 'failed') expect(done.failure_code ?? null, row.target).toBe(row.failure_code);
    }
  });

  it('api-keys list the rotation overlap end of an expiring key', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    const first = await generateKey(t, a.client);
    const second = await generateKey(t, a.client);
    const keys = (await a.client.get('/api-keys')).body.data.api_keys;
    const old = keys.find((k: any) => k.id === first.id);
    expect(old.state).toBe('expiring');
    expect(old.revoked_at).toBe(second.response.body.data.previous_keys_revoked_at);
    expect(Date.parse(old.revoked_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(keys.find((k: any) => k.id === second.id)).toMatchObject({ state: 'live', revoked_at: null });
  });
});
