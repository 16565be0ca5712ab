import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: GET /overview (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    // No worker: the orders placed here stay processing, so the backlog is known.
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('counts throughput, backlog, attention, supplier health and reseller balances from the store', async () => {
    const placed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ref = uniqueRef('ov');
      const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789', price: 15000 });
      expect(r.status, r.text).toBe(200);
      placed.push(r.body.data.order_id);
    }
    const { db } = t.platform.database;
    await db.updateTable('orders').set({ needs_attention: 1 }).where('id', '=', placed[1]!).execute();
    const oldest = await db.selectFrom('orders').select('created_at').where('id', '=', placed[0]!).executeTakeFirstOrThrow();
    const balances = await db.selectFrom('resellers').select('balance').execute();
    // A deposit as a refresh records it (digiflazz reports one), below its threshold: flagged.
    const supplier = await db.selectFrom('suppliers').select('id').orderBy('name').executeTakeFirstOrThrow();
    await db.updateTable('suppliers').set({ balance: 250_000, balance_threshold: 500_000, balance_flagged_at: Date.now() }).where('id', '=', supplier.id).execute();

    const r = await op.get('/overview');
    expect(r.status, r.text).toBe(200);
    const o = r.body.data;
    expect(o.currency).toBe('IDR');
    expect(o.processing.count).toBe(3);
    expect(Date.parse(o.processing.oldest_created_at)).toBe(Number(oldest.created_at));
    expect(o.processing.oldest_age_seconds).toBeGreaterThanOrEqual(0);
    expect(o.needs_attention).toBe(1);
    expect(o.success_rate_24h).toBeNull();
    expect(o.orders_per_minute).toBeGreaterThan(0);
    expect(o.reseller_balances).toBe(balances.reduce((s, b) => s + Number(b.balance), 0)); // IDR: no minor units
    expect(o.hourly).toHaveLength(48);
    expect(o.daily).toHaveLength(14);
    expect(o.hourly.at(-1).orders).toBe(3);
    expect(o.daily.at(-1).orders).toBe(3);
    expect(o.callbacks).toEqual({ retrying: 0, failed_24h: 0 });
    expect(o.suppliers.length).toBeGreaterThan(0);
    expect(o.suppliers.find((x: { id: string }) => x.id === supplier.id)).toMatchObject({ enabled: true, consecutive_failures: 0, breaker: 'closed', balance: 250_000, balance_flagged: true });
    expect(o.suppliers.filter((x: { id: string }) => x.id !== supplier.id).every((x: { balance: unknown }) => x.balance === null)).toBe(true);
  });

  it('is operator data: a reseller session is refused, and so is no session', async () => {
    const shop = await registerAccount(t);
    const asShop = await new JsonClient(`${t.origin}/admin/v1`, shop.client.token).get('/overview');
    expect([401, 403]).toContain(asShop.status);
    expect(asShop.body).toMatchObject({ success: false });
    expect(asShop.body.data).toBeUndefined();
    expect((await new JsonClient(`${t.origin}/admin/v1`).get('/overview')).status).toBe(401);
    // And an operator's token is no dashboard session.
    const asOperator = await dashboardClient(t, op.token).get('/me');
    expect([401, 403]).toContain(asOperator.status);
    expect(asOperator.body.data).toBeUndefined();
  });
});
