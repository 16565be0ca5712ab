import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: per-product sandbox switches and the supply refresh on demand (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  const statuses = async () => {
    const r = await t.client.get('/products?limit=100');
    expect(r.status, r.text).toBe(200);
    return Object.fromEntries(r.body.data.products.map((p: any) => [p.code, p.status])) as Record<string, string>;
  };
  const auditRows = (action: string) => t.platform.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  it('the refresh runs on demand: product status follows a switch at once, and its time is shown', async () => {
    expect((await op.get('/supply/status')).body.data).toEqual({ last_refresh: null });
    expect((await op.get('/routes')).body.data.last_refresh).toBeNull();
    expect((await op.get('/routes')).body.data.routes.every((r: any) => r.checked_at === null)).toBe(true);

    expect((await op.put('/sandbox/products/FF-100/out-of-stock')).status).toBe(200);
    expect((await statuses())['FF-100']).toBe('active'); // not refreshed yet
    const r = await op.post('/supply/refresh');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ availability_check_failed: false, routes_checked: 8, suppliers: [expect.objectContaining({ name: 'sandbox', health: 'up' })] });
    expect(Date.parse(r.body.data.finished_at)).toBeGreaterThanOrEqual(Date.parse(r.body.data.started_at));
    const ffRoute = r.body.data.routes.find((x: any) => x.product_code === 'FF-100');
    expect(ffRoute).toMatchObject({ available: false, checked_at: expect.any(String) });
    expect((await statuses())['FF-100']).toBe('inactive');

    const status = (await op.get('/supply/status')).body.data.last_refresh;
    expect(status).toEqual({ started_at: r.body.data.started_at, finished_at: r.body.data.finished_at, availability_check_failed: false });
    const routes = (await op.get('/routes')).body.data;
    expect(routes.last_refresh).toEqual(status);
    expect(routes.routes.every((x: any) => typeof x.checked_at === 'string')).toBe(true);
    const [line] = await auditRows('supply.refresh');
    expect(JSON.parse(line!.after!)).toMatchObject({ routes_checked: 8, availability_check_failed: false });

    expect((await op.delete('/sandbox/products/FF-100/out-of-stock')).status).toBe(200);
    await op.post('/supply/refresh');
    expect((await statuses())['FF-100']).toBe('active');
  });

  it("marks one product out of stock and one product's check broken, leaving every other product alone", async () => {
    const before = await statuses();
    expect(Object.values(before).every((s) => s === 'active')).toBe(true);
    const g = (await op.get('/sandbox')).body.data;
    expect(g).toMatchObject({ mode: 'up', out_of_stock: [], availability: 'ok', broken_availability: [] });
    expect(g.products).toContainEqual({ product_code: 'ML-86', sku: 'ml-86', out_of_stock: false, availability_check: 'ok' });

    // Two products out of stock, added one at a time (the list is no longer replaced whole).
    await op.put('/sandbox/products/ML-86/out-of-stock');
    const two = await op.put('/sandbox/skus/ff-310/out-of-stock');
    expect(two.body.data.out_of_stock).toEqual(['ml-86', 'ff-310']);
    expect((await op.put('/sandbox/skus/ff-310/out-of-stock')).body.data.out_of_stock).toEqual(['ml-86', 'ff-310']); // idempotent
    // FF-310's check cannot tell: it alone is reported active again (spec status rule 2, per product).
    const broken = await op.put('/sandbox/products/FF-310/broken-availability');
    expect(broken.body.data).toMatchObject({ broken_availability: ['ff-310'], availability: 'ok' });
    expect(broken.body.data.products.find((p: any) => p.product_code === 'FF-310')).toEqual({ product_code: 'FF-310', sku: 'ff-310', out_of_stock: true, availability_check: 'broken' });

    const refreshed = await op.post('/supply/refresh');
    expect(refreshed.body.data.availability_check_failed).toBe(false);
    expect(refreshed.body.data.routes.find((x: any) => x.product_code === 'FF-310').available).toBeNull();
    const after = await statuses();
    expect(after).toEqual({ ...before, 'ML-86': 'inactive' });

    // Clearing one leaves the other.
    expect((await op.delete('/sandbox/products/ML-86/out-of-stock')).body.data.out_of_stock).toEqual(['ff-310']);
    expect((await op.delete('/sandbox/skus/ff-310/broken-availability')).body.data.broken_availability).toEqual([]);
    await op.post('/supply/refresh');
    expect(await statuses()).toEqual({ ...before, 'FF-310': 'inactive' });
    await op.delete('/sandbox/skus/ff-310/out-of-stock');
    await op.post('/supply/refresh');
    expect(await statuses()).toEqual(before);
  });

  it('refuses unknown products, products without a sandbox route, and clearing what is not set; nothing changes', async () => {
    const before = (await op.get('/sandbox')).body.data;
    const lines = (await auditRows('sandbox.update')).length;
    expectJsonError(await op.put('/sandbox/products/NOPE/out-of-stock'), 404, 'PRODUCT_NOT_FOUND');
    expectJsonError(await op.delete('/sandbox/skus/ff-100/out-of-stock'), 404, 'NOT_FOUND');
    expectJsonError(await op.delete('/sandbox/products/FF-100/broken-availability'), 404, 'NOT_FOUND');
    expectJsonError(await op.put('/sandbox/skus/x/out-of-stock', { extra: true }), 400, 'VALIDATION_ERROR');
    // A product routed only to a non-sandbox supplier.
    const up = await op.post('/suppliers', { name: 'Upstream Z', adapter: 'upstream-v1', credentials: { base_url: 'https://up.example/api/v1', api_key: 'k', api_secret: 's' } });
    expect(up.status, up.text).toBe(200);
    const route = (await op.get('/routes?product_code=VAL-475')).body.data.routes[0];
    await op.delete(`/routes/${route.id}`);
    await op.post('/routes', { product_code: 'VAL-475', supplier: 'Upstream Z', sku: 'v', priority: 1, cost: 1 });
    expectJsonError(await op.put('/sandbox/products/VAL-475/out-of-stock'), 404, 'NOT_FOUND');
    const now = (await op.get('/sandbox')).body.data;
    expect({ ...now, products: undefined }).toEqual({ ...before, products: undefined });
    expect((await auditRows('sandbox.update')).length).toBe(lines);
  });

  it('every change is audited with before and after', async () => {
    const n = (await auditRows('sandbox.update')).length;
    await op.put('/sandbox/products/FF-100/broken-availability');
    await op.delete('/sandbox/products/FF-100/broken-availability');
    const lines = (await auditRows('sandbox.update')).slice(n);
    expect(lines.map((l) => [JSON.parse(l.before!).brokenAvailability, JSON.parse(l.after!).brokenAvailability])).toEqual([[[], ['ff-100']], [['ff-100'], []]]);
  });
});
