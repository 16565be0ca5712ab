import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallback } from '../../src/receiver.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ResellerClient } from '../support/client.js';
import { JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The spec's onboarding, on an empty installation (no demo), done only through the public
 * interfaces: the operator sets up a game and its supply, a shop registers, the operator
 * approves and funds it, the shop takes its keys, whitelist and callback URL, and places a
 * first order that succeeds and is announced by a verified callback.
 */
describe.each(storeKinds())('onboarding, from registration to a first successful order (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false, worker: true });
  });
  afterAll(async () => t?.close());

  it('works end to end through the operator API, the dashboard API and API v1 only', async () => {
    // The installation's first operator, as `topup serve` prints it once.
    const first = (await t.platform.operator.operators.ensureFirst())!;
    const op = new JsonClient(`${t.origin}/admin/v1`);
    expect((await op.signIn(first.email, first.password)).status).toBe(200);
    const ok = async (p: Promise<{ status: number; text: string; body: any }>) => {
      const r = await p;
      expect(r.status, r.text).toBe(200);
      return r.body.data;
    };

    // 1. The operator sets up a game, a denomination, prices per tier and a supplier route.
    await ok(op.post('/categories', {
      slug: 'star-quest', name: 'Star Quest', type: 'game',
      form: [
        { name: 'player_id', label: 'Player ID', role: 'account_id', type: 'text' },
        { name: 'server', label: 'Server', role: 'server', type: 'select', options: [{ value: 'asia', label: 'Asia' }, { value: 'eu', label: 'Europe' }] },
      ],
    }));
    await ok(op.post('/products', { code: 'SQ-500', name: '500 Stars', category_slug: 'star-quest', kind: 'instant' }));
    const catalog = await ok(op.post('/catalogs', { name: 'Launch catalog' }));
    await ok(op.put(`/catalogs/${catalog.id}/prices`, { prices: [
      { product_code: 'SQ-500', tier: 'gold', price: 10000 },
      { product_code: 'SQ-500', tier: 'platinum', price: 9500 },
      { product_code: 'SQ-500', tier: 'diamond', price: 9000 },
    ] }));
    await ok(op.post('/suppliers', { name: 'Sandbox supplier', adapter: 'sandbox' }));
    await ok(op.post('/routes', { product_code: 'SQ-500', supplier: 'Sandbox supplier', sku: 'sq-500', priority: 1, cost: 8000 }));

    // 2. A shop registers; it is pending and cannot take API keys yet.
    const shop = new JsonClient(`${t.origin}/dashboard/v1`);
    const reg = await ok(shop.post('/auth/register', { name: 'Nova Games', email: 'owner@nova.example', password: 'a long shop password' }));
    shop.token = reg.token;
    expect(reg.status).toBe('pending');
    expectJsonError(await shop.post('/api-keys', {}), 409, 'INVALID_STATE');

    // 3. The operator finds it, approves it with a tier, assigns the catalog and funds the wallet.
    const pending = await ok(op.get('/resellers?status=pending'));
    const found = pending.resellers.find((r: { email: string }) => r.email === 'owner@nova.example');
    expect(found?.id).toBe(reg.reseller_id);
    await ok(op.post(`/resellers/${reg.reseller_id}/approve`, { tier: 'platinum' }));
    await ok(op.post(`/resellers/${reg.reseller_id}/catalogs/${catalog.id}`, {}));
    await ok(op.post(`/resellers/${reg.reseller_id}/wallet/credit`, { amount: 50000, note: 'first top-up, bank transfer 0001' }));

    // 4. The shop takes its API key and secret (shown once), whitelists its server, sets its callback URL.
    const key = await ok(shop.post('/api-keys', {}));
    expect(key.api_secret).toBeTruthy();
    await ok(shop.post('/whitelist', { ip: '127.0.0.1' }));
    const receiver = await startReceiver();
    try {
      await ok(shop.put('/me/callback-url', { callback_url: receiver.url }));
      const me = await ok(shop.get('/me'));
      expect(me).toMatchObject({ status: 'active', tier: 'platinum', balance: 50000, callback_url: receiver.url });

      // 5. The shop integrates API v1 with those credentials: catalog, then a first order.
      const api = new ResellerClient(`${t.origin}/api/v1`, key.api_key, key.api_secret);
      const categories = await api.get('/categories');
      expect(categories.body.data.categories.map((c: { slug: string }) => c.slug)).toEqual(['star-quest']);
      const products = await api.get('/products?category_slug=star-quest');
      expect(products.body.data.products).toEqual([
        expect.objectContaining({ code: 'SQ-500', price: 9500, status: 'active', category_slug: 'star-quest' }),
      ]);
      const order = await api.post('/order', { ref_id: 'nova-0001', product_code: 'SQ-500', target: '77001234', zone: 'asia', price: 9500 });
      expect(order.status, order.text).toBe(200);
      expect(order.body.data).toMatchObject({ ref_id: 'nova-0001', price: 9500, status: 'processing' });

      // 6. It succeeds, the callback arrives signed with the shop's secret, and everyone sees it.
      const deadline = Date.now() + 15_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await sleep(25);
      const [cb] = receiver.received;
      expect(cb, 'callback received').toBeDefined();
      expect(verifyCallback({ rawBody: cb!.rawBody, headers: cb!.headers, secret: key.api_secret })).toEqual({ ok: true });
      expect(JSON.parse(cb!.rawBody)).toMatchObject({ ref_id: 'nova-0001', status: 'success', price: 9500 });
      const status = await api.get('/order-status?ref_id=nova-0001');
      expect(status.body.data).toMatchObject({ status: 'success', zone_id: 'asia', target_id: '77001234' });
      expect(status.body.data.serial_number).toMatch(/^SRL-.{10}$/);
      expect((await api.get('/balance')).body.data.balance).toBe(40500);

      const opOrders = await ok(op.get(`/orders?reseller_id=${reg.reseller_id}`));
      expect(opOrders.orders).toEqual([expect.objectContaining({ ref_id: 'nova-0001', status: 'success' })]);
      const shopOrders = await ok(shop.get('/orders'));
      expect(shopOrders.orders.map((o: { ref_id: string }) => o.ref_id)).toEqual(['nova-0001']);
      const audit = await ok(op.get(`/audit?target_id=${reg.reseller_id}`));
      expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['reseller.approve']));
      await ledgerConsistent(t.platform.database.db);
    } finally {
      await receiver.close();
    }
  });
});
