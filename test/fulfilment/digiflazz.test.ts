import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { startReceiver } from '../support/receiver.js';
import { ManageSupply } from '../../src/services/manage-supply.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';
import { hubSignature, startFakeDigiflazz, type FakeDigiflazz } from '../support/fake-digiflazz.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomTarget = () => `3${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * The digiflazz supplier through the whole service: set up through the operator API, orders
 * through the reseller API, the fake Digiflazz server on loopback, its signed webhook into
 * /hooks/digiflazz/{id}, and the reseller's callback. The poll interval is long
 * (FULFIL_POLL_MS=600000), so a pending order settles only when the webhook brings its
 * status query forward.
 */
describe.each(storeKinds())('digiflazz supplier through the whole service (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeDigiflazz;
  let op: JsonClient;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let supplierId = '';
  let hookUrl = '';
  const db = () => t.platform.database.db;
  const supplierRow = () => db().selectFrom('suppliers').selectAll().where('id', '=', supplierId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    fake = await startFakeDigiflazz({
      products: [
        { buyer_sku_code: 'ML86', price: 18_000, unlimited_stock: true },
        { buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true },
        { buyer_sku_code: 'RO60', price: 12_000, unlimited_stock: true, seller_product_status: false },
      ],
    });
    recordSecret('Digiflazz API key', fake.apiKey);
    recordSecret('Digiflazz webhook secret', fake.webhookSecret);
    t = await startTestApp(kind, { worker: true, env: { FULFIL_POLL_MS: '600000' } });
    op = await operatorClient(t);
    const created = await op.post('/suppliers', {
      name: 'Digiflazz', adapter: 'digiflazz', credentials: { username: fake.username, api_key: fake.apiKey, webhook_secret: fake.webhookSecret, base_url: fake.url },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.text).not.toContain(fake.apiKey);
    expect(created.text).not.toContain(fake.webhookSecret);
    supplierId = created.body.data.id;
    hookUrl = `${t.origin}/hooks/digiflazz/${supplierId}`;
    const stored = await supplierRow();
    expect(stored.credentials_enc).not.toContain(fake.apiKey);
    expect(JSON.parse(t.platform.secrets.open(stored.credentials_enc!))).toEqual({ baseUrl: fake.url, username: fake.username, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret });
    // ML-86 only at Digiflazz (user id + zone joined); FF-100 at Digiflazz first, the sandbox second.
    await db().updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', 'ML-86').execute();
    await db().updateTable('product_routes').set({ priority: 2 }).where('product_code', '=', 'FF-100').execute();
    const r1 = await op.post('/routes', { product_code: 'ML-86', supplier: 'Digiflazz', sku: 'ML86', priority: 1, cost: 18_000, options: { customer_no: '{target}{zone}' } });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.data.options).toEqual({ customer_no: '{target}{zone}' });
    const r2 = await op.post('/routes', { product_code: 'FF-100', supplier: 'Digiflazz', sku: 'FF100', priority: 1, cost: 13_500 });
    expect(r2.status, r2.text).toBe(200);
    await db().updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', 'RO-60').execute();
    expect((await op.post('/routes', { product_code: 'RO-60', supplier: 'Digiflazz', sku: 'RO60', priority: 1, cost: 12_000 })).status).toBe(200);
    rx = await startReceiver();
    await db().updateTable('resellers').set({ callback_url: rx.url }).where('id', '=', t.demo.resellerId).execute();
  });
  afterAll(async () => {
    if (t) await ledgerConsistent(db());
    await t?.close();
    await rx?.close();
    await fake?.close();
  });

  const placeMl = async (target: string, zone: string) => {
    const ref = uniqueRef('dz');
    const r = await t.client.post('/order', { ref_id: ref, product_code: 'ML-86', target, zone });
    expect(r.status, r.text).toBe(200);
    return { ref, orderId: r.body.data.order_id as string };
  };

  it('bad set-up input is refused with a stable code and changes nothing', async () => {
    const before = (await op.get('/suppliers')).body.data.suppliers.length;
    for (const body of [
      { name: 'DZ 2', adapter: 'digiflazz' },
      { name: 'DZ 2', adapter: 'digiflazz', credentials: { api_key: 'k' } },
      { name: 'DZ 2', adapter: 'digiflazz', credentials: { username: 'u', api_key: 'k', api_secret: 's' } },
      { name: 'DZ 2', adapter: 'digiflazz', credentials: { username: 'u', api_key: 'k', base_url: 'ftp://x' } },
      { name: 'DZ 2', adapter: 'digiflazz', credentials: { username: 'u', api_key: 'k', webhook_secret: 'short' } },
      { name: 'DZ 2', adapter: 'sandbox', balance_threshold: 5 },
    ]) {
      const r = await op.post('/suppliers', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
    }
    for (const options of [{ customer_no: '{zone}{zone}xx' }, { customer_no: '{target}{server}' }, { customer_no: 'no-target-here' }, { testing: 'yes' }]) {
      const r = await op.post('/routes', { product_code: 'FF-310', supplier: 'Digiflazz', sku: 'FF310', priority: 1, cost: 1, options });
      expect(r.status, JSON.stringify(options)).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
    }
    expect((await op.get('/suppliers')).body.data.suppliers).toHaveLength(before);
    expect(await db().selectFrom('product_routes').select('id').where('supplier_sku', '=', 'FF310').execute()).toEqual([]);
    const usd = new ManageSupply({ db: db(), dialect: t.store.kind, refreshSupply: t.platform.refreshSupply, secrets: t.platform.secrets, clock: t.platform.clock, ids: t.platform.ids, currency: { code: 'USD', decimals: 2, maxAmount: 100_000_000_000 } });
    await expect(usd.addDigiflazz({ name: 'DZ USD', username: 'u', apiKey: 'k' }, 'cli')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('order → pending → signed webhook → success with the serial → callback to the reseller', async () => {
    const target = randomTarget();
    fake.behaviours.set(`${target}2001`, { kind: 'pending' });
    const { ref, orderId } = await placeMl(target, '2001');
    const tx = await until('the supplier to take the order', () => fake.transactions.get(orderId));
    expect(tx).toMatchObject({ customer_no: `${target}2001`, buyer_sku_code: 'ML86', status: 'Pending' });
    expect(fake.requests.find((q) => q.body?.ref_id === orderId)!.body.max_price).toBe(18_000);
    await sleep(100);
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('processing');

    expect(await fake.settle(orderId, { status: 'Sukses', sn: 'SN-ML-0001' }, hookUrl)).toBe(200);
    const o = await waitForTerminal(t.client, ref);
    expect(o).toMatchObject({ status: 'success', serial_number: expect.stringMatching(/^SRL-[A-Z0-9]{10}$/) });
    expect(fake.transactions.get(orderId)!.checks).toBe(1);
    expect([...fake.transactions.values()].filter((x) => x.customer_no === `${target}2001`)).toHaveLength(1);
    const cb = await until('the reseller callback', () => rx.received.find((x) => x.rawBody.includes(ref)));
    expect(JSON.parse(cb.rawBody)).toMatchObject({ ref_id: ref, status: 'success', serial_number: o.serial_number });
  });

  it('the whitelist withdrawn while the supplier holds an order: its refused status query (rc 45) refunds nothing and routes nowhere; restored, the order is delivered once', async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'pending' });
    const ref = uniqueRef('dz');
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
    expect(placed.status, placed.text).toBe(200);
    const orderId: string = placed.body.data.order_id;
    await until('the supplier to take the order', () => fake.transactions.get(orderId));
    const refusal = async () => (await db().selectFrom('supplier_health').select('last_error').where('supplier_id', '=', supplierId).executeTakeFirst())?.last_error ?? '';
    fake.failAll = '45';
    try {
      // A webhook brings the status query forward; the supplier refuses it (rc 45).
      const sent = fake.requests.length;
      expect((await fake.pushWebhook(hookUrl, JSON.stringify({ data: { ref_id: orderId, status: 'Pending', rc: '03' } }))).status).toBe(200);
      await until('the refused status query', () => fake.requests.slice(sent).some((q) => q.path === '/transaction' && q.body?.ref_id === orderId));
      const settled = async () => (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status !== 'processing';
      await until('the refusal to be handled', async () => /rc 45/.test(await refusal()) || (await settled()));
    } finally {
      fake.failAll = null;
    }
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('processing');
    expect(await refusal()).toMatch(/rc 45/);

    // Whitelisted again: the supplier delivers and says so.
    expect(await fake.settle(orderId, { status: 'Sukses', sn: 'SN-WL-1' }, hookUrl)).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    expect((await db().selectFrom('ledger_entries').select('type').where('order_id', '=', orderId).execute()).map((e) => e.type)).toEqual(['order_debit']);
    expect(await db().selectFrom('sandbox_orders').select('reference').where('reference', 'like', `${orderId}%`).execute()).toEqual([]);
    expect([...fake.transactions.values()].filter((x) => x.customer_no === target)).toHaveLength(1);
    // The order's cost is what the supplier's answer says it charged (profit reports, issue 38).
    const charged = [...fake.transactions.values()].find((x) => x.customer_no === target)!.price;
    expect(charged).toBeGreaterThan(0);
    expect(Number((await db().selectFrom('orders').select('cost').where('id', '=', orderId).executeTakeFirstOrThrow()).cost)).toBe(charged);
    const cb = await until('the reseller callback', () => rx.received.find((x) => x.rawBody.includes(ref)));
    expect(JSON.parse(cb.rawBody)).toMatchObject({ ref_id: ref, status: 'success' });
    expect(await db().selectFrom('callback_deliveries').select('id').where('order_id', '=', orderId).execute()).toHaveLength(1);
    expect(rx.received.filter((x) => x.rawBody.includes(ref))).toHaveLength(1);
    expect(await refusal()).toBe('');
  });

  it('a forged webhook is refused and changes nothing; a replayed or late one changes nothing', async () => {
    const target = randomTarget();
    fake.behaviours.set(`${target}77`, { kind: 'pending' });
    const { ref, orderId } = await placeMl(target, '77');
    await until('the supplier to take the order', () => fake.transactions.get(orderId));
    await fake.settle(orderId, { status: 'Sukses', sn: 'SN-X' });
    const body = JSON.stringify({ data: { ref_id: orderId, status: 'Sukses', rc: '00', sn: 'SN-X' } });
    for (const forged of [
      await fake.pushWebhook(hookUrl, body, { secret: 'not-the-secret' }),
      await fake.pushWebhook(hookUrl, body, { signature: 'sha1=' }),
      await fake.pushWebhook(hookUrl, body, { signature: hubSignature(fake.webhookSecret, body).replace('sha1=', 'sha256=') }),
    ]) {
      expect(forged.status).toBe(401);
      expect(forged.body).toMatchObject({ success: false, error: 'INVALID_SIGNATURE' });
    }
    await sleep(150);
    expect(fake.transactions.get(orderId)!.checks).toBe(0);
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('processing');

    expect((await fake.pushWebhook(hookUrl, body)).status).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    const ledger = await db().selectFrom('ledger_entries').select('id').where('order_id', '=', orderId).execute();
    const callbacks = await db().selectFrom('jobs').select('id').where('kind', '=', 'deliver_callback').execute();
    const checks = fake.transactions.get(orderId)!.checks;
    // Replayed after the order is final, and a Gagal for it: nothing changes, nothing is asked.
    expect((await fake.pushWebhook(hookUrl, body)).status).toBe(200);
    const gagal = JSON.stringify({ data: { ref_id: orderId, status: 'Gagal', rc: '02' } });
    expect((await fake.pushWebhook(hookUrl, gagal)).status).toBe(200);
    expect((await fake.pushWebhook(hookUrl, JSON.stringify({ data: { ref_id: 'no-such-order', status: 'Sukses' } }))).status).toBe(200);
    await sleep(150);
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('success');
    expect(await db().selectFrom('ledger_entries').select('id').where('order_id', '=', orderId).execute()).toEqual(ledger);
    expect((await db().selectFrom('jobs').select('id').where('kind', '=', 'deliver_callback').execute()).length).toBeLessThanOrEqual(callbacks.length);
    expect(fake.transactions.get(orderId)!.checks).toBe(checks);
  });

  it('answers the set-up ping; a body without ref_id is refused; other suppliers have no digiflazz hook', async () => {
    expect((await fake.pushWebhook(hookUrl, JSON.stringify({ zen: 'hi' }), { event: 'ping' })).status).toBe(200);
    expect((await fake.pushWebhook(hookUrl, JSON.stringify({ data: {} }))).body).toMatchObject({ error: 'VALIDATION_ERROR' });
    const sandbox = await db().selectFrom('suppliers').select('id').where('adapter', '=', 'sandbox').executeTakeFirstOrThrow();
    expect((await fake.pushWebhook(`${t.origin}/hooks/digiflazz/${sandbox.id}`, JSON.stringify({ data: { ref_id: 'x' } }))).status).toBe(404);
  });

  it('a definite failure (rc 54, wrong destination) fails and refunds without trying another route', async () => {
    const before = (await t.client.get('/balance')).body.data.balance;
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'rc', rc: '54', status: 'Gagal' });
    const ref = uniqueRef('dz');
    await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
    const o = await waitForTerminal(t.client, ref);
    expect(o).toMatchObject({ status: 'failed', failure_code: 'INVALID_ID' });
    expect((await t.client.get('/balance')).body.data.balance).toBe(before);
    expect(await db().selectFrom('sandbox_orders').select('reference').where('reference', '=', o.order_id).execute()).toEqual([]);
  });

  it('an insufficient deposit tries the next route and flags the supplier; a refresh above the threshold clears it', async () => {
    const saved = fake.deposit;
    fake.deposit = 1_000;
    try {
      const ref = uniqueRef('dz');
      await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: randomTarget() });
      const o = await waitForTerminal(t.client, ref);
      expect(o.status).toBe('success');
      // The second attempt, under its own reference.
      expect(await db().selectFrom('sandbox_orders').select('reference').where('reference', '=', `${o.order_id}-r2`).execute()).toHaveLength(1);
      expect((await supplierRow()).balance_flagged_at).not.toBeNull();
      const listed = (await op.get('/suppliers')).body.data.suppliers.find((s: any) => s.id === supplierId);
      expect(listed.balance.flagged_at).toEqual(expect.any(String));
    } finally {
      fake.deposit = saved;
    }
    expect((await op.patch(`/suppliers/${supplierId}`, { balance_threshold: 500_000 })).body.data.balance.threshold).toBe(500_000);
    fake.deposit = 900_000;
    await t.platform.refreshSupply.run();
    expect(await supplierRow()).toMatchObject({ balance_flagged_at: null });
    expect(Number((await supplierRow()).balance)).toBe(900_000);
    fake.deposit = 400_000;
    await t.platform.refreshSupply.run();
    const flagged = (await op.get('/suppliers')).body.data.suppliers.find((s: any) => s.id === supplierId);
    expect(flagged.balance).toMatchObject({ amount: 400_000, threshold: 500_000, flagged_at: expect.any(String) });
    fake.deposit = saved;
    await t.platform.refreshSupply.run();
    expect((await supplierRow()).balance_flagged_at).toBeNull();
  });

  it('asked about an order it never got, a certain refusal (rc 68) moves it to the next route', async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'pending' });
    const ref = uniqueRef('dz');
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
    const orderId: string = placed.body.data.order_id;
    await until('the supplier to take the order', () => fake.transactions.get(orderId));
    // As if the submission had never arrived: asking places it, and it is out of stock.
    fake.transactions.delete(orderId);
    const product = fake.products.get('FF100')!;
    Object.assign(product, { unlimited_stock: false, stock: 0 });
    try {
      expect((await fake.pushWebhook(hookUrl, JSON.stringify({ data: { ref_id: orderId, status: 'Pending', rc: '03' } }))).status).toBe(200);
      const o = await waitForTerminal(t.client, ref);
      expect(o.status).toBe('success');
      expect(await db().selectFrom('sandbox_orders').select('reference').where('reference', '=', `${orderId}-r2`).execute()).toHaveLength(1);
    } finally {
      Object.assign(product, { unlimited_stock: true });
    }
  });

  it('product status follows the price list through the supply refresh (seller status off: inactive)', async () => {
    await t.platform.refreshSupply.run();
    const status = async (category: string, code: string) => (await t.client.get(`/products?category_slug=${category}`)).body.data.products.find((p: any) => p.code === code).status;
    expect(await status('mobile-legends', 'ML-86')).toBe('active');
    expect(await status('ragnarok-origin', 'RO-60')).toBe('inactive');
    const routes = await db().selectFrom('product_routes').select(['supplier_sku', 'available']).where('supplier_id', '=', supplierId).orderBy('supplier_sku').execute();
    expect(routes.map((r) => [r.supplier_sku, Number(r.available)])).toEqual([['FF100', 1], ['ML86', 1], ['RO60', 0]]);
  });

  it('price-list sync stores costs and statuses, shows changes since the last sync, and takes a route at or above cost out of service', async () => {
    const first = await op.post(`/suppliers/${supplierId}/sync`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ supplier_id: supplierId, skus: 3, removed: [], changed: [], below_cost: [] });
    expect([...first.body.data.added].sort()).toEqual(['FF100', 'ML86', 'RO60']);
    const stored = await db().selectFrom('supplier_skus').select(['sku', 'cost', 'buyable']).where('supplier_id', '=', supplierId).orderBy('sku').execute();
    expect(stored.map((r) => [r.sku, Number(r.cost), Number(r.buyable)])).toEqual([['FF100', 13_000, 1], ['ML86', 18_000, 1], ['RO60', 12_000, 0]]);

    const ff = fake.products.get('FF100')!;
    const ml = fake.products.get('ML86')!;
    const ro = fake.products.get('RO60')!;
    ff.price = 13_200;
    ml.price = 1_000_000;
    fake.products.delete('RO60');
    fake.products.set('NEW1', { buyer_sku_code: 'NEW1', price: 5_000, unlimited_stock: true, start_cut_off: '23:00', end_cut_off: '00:30' });
    try {
      const second = await op.post(`/suppliers/${supplierId}/sync`);
      expect(second.status, second.text).toBe(200);
      expect(second.body.data).toMatchObject({ added: ['NEW1'], removed: ['RO60'] });
      expect(second.body.data.changed).toEqual(expect.arrayContaining([
        { sku: 'FF100', field: 'cost', before: 13_000, after: 13_200 },
        { sku: 'ML86', field: 'cost', before: 18_000, after: 1_000_000 },
      ]));
      const mlRoute = await db().selectFrom('product_routes').select(['id', 'enabled']).where('supplier_id', '=', supplierId).where('supplier_sku', '=', 'ML86').executeTakeFirstOrThrow();
      expect(second.body.data.below_cost).toEqual([{ route_id: mlRoute.id, product_code: 'ML-86', sku: 'ML86', cost: 1_000_000, lowest_price: expect.any(Number), reached: 'cost', action: 'route_disabled', reason: 'policy', prices: [] }]);
      expect(Number(mlRoute.enabled)).toBe(0);
      const audited = await db().selectFrom('audit_log').select('action').where('action', 'in', ['route.below_cost', 'supplier.sync']).execute();
      expect(audited.map((a) => a.action).sort()).toEqual(['route.below_cost', 'supplier.sync', 'supplier.sync']);
      // The only route of ML-86 is out of service: the supplier gate refuses, nothing is charged.
      const refused = await t.client.post('/order', { ref_id: uniqueRef('dz'), product_code: 'ML-86', target: randomTarget(), zone: '1' });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe('ORDER_FAILED_SUPPLIER_GATE');

      fake.priceListMinIntervalMs = 3600_000;
      const limited = await op.post(`/suppliers/${supplierId}/sync`);
      expect(limited.status).toBe(502);
      expect(limited.body).toMatchObject({ success: false, error: 'SUPPLIER_UNAVAILABLE' });
      const sandbox = await db().selectFrom('suppliers').select('id').where('adapter', '=', 'sandbox').executeTakeFirstOrThrow();
      expect((await op.post(`/suppliers/${sandbox.id}/sync`)).body.error).toBe('VALIDATION_ERROR');
    } finally {
      fake.priceListMinIntervalMs = 0;
      ff.price = 13_000;
      ml.price = 18_000;
      fake.products.set('RO60', ro);
      fake.products.delete('NEW1');
    }
  });

  it('the scheduled sync covers every enabled supplier with a price list and reports one it cannot read', async () => {
    const results = await t.platform.operator.priceSync.runAll('system');
    expect(results).toEqual([{ supplierId, report: expect.objectContaining({ skus: 3 }) }]);
    fake.priceListMinIntervalMs = 3600_000;
    try {
      expect(await t.platform.operator.priceSync.runAll('system')).toEqual([{ supplierId, error: expect.stringContaining('rc 83') }]);
    } finally {
      fake.priceListMinIntervalMs = 0;
    }
  });
});
