import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSandboxSwitches } from '../../src/adapters/suppliers/sandbox.js';
import { sign } from '../../src/domain/signature.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { rawRequest } from '../support/client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { storeKinds } from '../support/stores.js';

/**
 * One installation sourcing from another: "downstream" routes FF-100 to "upstream" through
 * the upstream-v1 adapter, which speaks API v1 with the upstream's demo reseller key.
 */
describe.each(storeKinds())('upstream-v1 supplier against a second instance (%s)', (kind) => {
  let upstream: TestApp;
  let downstream: TestApp;
  let supplierId = '';
  beforeAll(async () => {
    // A short breaker cool-down: the upstream back from maintenance takes orders again soon.
    upstream = await startTestApp(kind, { worker: true, env: { SANDBOX_DELAY_MS: '50', SUPPLIER_BREAKER_COOLDOWN_MS: '100' } });
    downstream = await startTestApp(kind, { worker: true });
    const { db } = downstream.platform.database;
    // Set up the way an operator does (topup supplier-add-upstream / route-add).
    const p = downstream.platform;
    const manage = p.operator.supply;
    supplierId = (await manage.addUpstreamV1({ name: 'Upstream One', baseUrl: upstream.baseUrl, apiKey: upstream.demo.apiKey, apiSecret: upstream.demo.apiSecret }, 'cli')).id;
    const stored = await db.selectFrom('suppliers').select('credentials_enc').where('id', '=', supplierId).executeTakeFirstOrThrow();
    expect(stored.credentials_enc).not.toContain(upstream.demo.apiSecret);
    await db.updateTable('product_routes').set({ enabled: 0 }).where('product_code', 'in', ['FF-100', 'STEAM-60K']).execute();
    await manage.addRoute({ productCode: 'FF-100', supplierName: 'Upstream One', sku: 'FF-100', priority: 1, cost: 14000 }, 'cli');
    await manage.addRoute({ productCode: 'STEAM-60K', supplierName: 'Upstream One', sku: 'STEAM-60K', priority: 1, cost: 60000 }, 'cli');
    await expect(manage.addRoute({ productCode: 'NOPE', supplierName: 'Upstream One', sku: 'x', priority: 1, cost: 0 }, 'cli')).rejects.toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
    await expect(manage.addUpstreamV1({ name: 'Upstream One', baseUrl: upstream.baseUrl, apiKey: 'k', apiSecret: 's' }, 'cli')).rejects.toMatchObject({ code: 'CONFLICT' });
  });
  afterAll(async () => {
    if (downstream) await ledgerConsistent(downstream.platform.database.db);
    if (upstream) await ledgerConsistent(upstream.platform.database.db);
    await downstream?.close();
    await upstream?.close();
  });

  it('orders upstream with our order id as ref_id, reads the outcome, and charges both wallets once', async () => {
    const upBefore = (await upstream.client.get('/balance')).body.data.balance;
    const ref = uniqueRef();
    expect((await downstream.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' })).status).toBe(200);
    const o = await waitForTerminal(downstream.client, ref);
    expect(o.status).toBe('success');
    expect(o.serial_number).toMatch(/^SRL-[A-Z0-9]{10}$/);
    const upstreamOrder = (await upstream.client.get(`/order-status?ref_id=${o.order_id}`)).body.data;
    expect(upstreamOrder.status).toBe('success');
    expect((await upstream.client.get('/balance')).body.data.balance).toBe(upBefore - 15000);
  });

  it('vouchers keep the upstream redeemable code', async () => {
    const ref = uniqueRef();
    await downstream.client.post('/order', { ref_id: ref, product_code: 'STEAM-60K', target: 'x' });
    const o = await waitForTerminal(downstream.client, ref);
    const up = (await upstream.client.get(`/order-status?ref_id=${o.order_id}`)).body.data;
    expect(o.serial_number.split('/').pop()).toBe(up.serial_number.split('/').pop());
  });

  it('maps the upstream failure code and refunds', async () => {
    const before = (await downstream.client.get('/balance')).body.data.balance;
    const ref = uniqueRef();
    await downstream.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '7000000001' });
    const o = await waitForTerminal(downstream.client, ref);
    expect(o).toMatchObject({ status: 'failed', failure_code: 'SUPPLIER_MAINTENANCE' });
    expect((await downstream.client.get('/balance')).body.data.balance).toBe(before);
  });

  it("the upstream's supplier gate is a certain refusal: NO_SUPPLIER_AVAILABLE, refunded", async () => {
    await writeSandboxSwitches(upstream.platform.database.db, { mode: 'maintenance' });
    await upstream.platform.refreshSupply.run();
    try {
      const ref = uniqueRef();
      expect((await downstream.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' })).status).toBe(200);
      const o = await waitForTerminal(downstream.client, ref);
      expect(o).toMatchObject({ status: 'failed', failure_code: 'NO_SUPPLIER_AVAILABLE' });
    } finally {
      await writeSandboxSwitches(upstream.platform.database.db, { mode: 'up' });
      await upstream.platform.refreshSupply.run();
      // Its breaker closes after the cool-down, by the worker's probe.
      for (let i = 0; i < 200 && !(await upstream.platform.repos.catalog.hasAcceptingRoute('FF-100')); i++) await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('live availability reads the upstream catalog', async () => {
    await downstream.platform.refreshSupply.run();
    expect((await downstream.client.get('/products?category_slug=free-fire')).body.data.products[0].status).toBe('active');
    await writeSandboxSwitches(upstream.platform.database.db, { outOfStock: ['ff-100'] });
    await upstream.platform.refreshSupply.run();
    await downstream.platform.refreshSupply.run();
    try {
      expect((await downstream.client.get('/products?category_slug=free-fire')).body.data.products[0].status).toBe('inactive');
    } finally {
      await writeSandboxSwitches(upstream.platform.database.db, { outOfStock: [] });
      await upstream.platform.refreshSupply.run();
    }
  });

  it('accepts the upstream callback only with a valid signature', async () => {
    const body = JSON.stringify({ ref_id: 'whatever', status: 'success' });
    const ts = String(Date.now());
    const url = `${downstream.origin}/hooks/upstream-v1/${supplierId}`;
    const good = await rawRequest(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': sign(upstream.demo.apiSecret, ts, body) } });
    expect(good.status).toBe(200);
    const bad = await rawRequest(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': sign('wrong', ts, body) } });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('INVALID_SIGNATURE');
  });
});
