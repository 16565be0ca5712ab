import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { randomTarget, startDigiflazzService, type DigiflazzService } from '../support/digiflazz-service.js';
import type { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import type { FakeDigiflazz } from '../support/fake-digiflazz.js';

/**
 * What the operator sees of a Digiflazz supplier and its orders: the supplier's serial
 * number and message kept on the order (for disputes; also for instant products), rc 51 as
 * SUPPLIER_REJECTED with the supplier's own words, health messages that name the cause,
 * and the webhook URL to set at the supplier.
 */
describe.each(storeKinds())('digiflazz: what the operator sees (%s)', (kind) => {
  let svc: DigiflazzService;
  let t: TestApp;
  let fake: FakeDigiflazz;
  let op: JsonClient;
  let supplierId = '';
  const db = () => t.platform.database.db;
  const place = async (target: string) => {
    const ref = uniqueRef('view');
    const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
    expect(r.status, r.text).toBe(200);
    return { ref, orderId: r.body.data.order_id as string };
  };

  beforeAll(async () => {
    ({ t, fake, op, supplierId } = svc = await startDigiflazzService(kind, {
      products: [{ buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true }],
      env: { PUBLIC_BASE_URL: 'https://topup.example.com' },
      webhookSecret: false,
    }));
    await svc.routeOnly('FF-100', 'FF100', 13_000);
  });
  afterAll(async () => svc?.close());

  it("the supplier's answer carries the webhook URL to set at Digiflazz; the sandbox has none", async () => {
    const list = (await op.get('/suppliers')).body.data.suppliers;
    expect(list.find((s: { id: string }) => s.id === supplierId).webhook_url).toBe(`https://topup.example.com/hooks/digiflazz/${supplierId}`);
    expect(list.find((s: { adapter: string }) => s.adapter === 'sandbox').webhook_url).toBeNull();
  });

  it("an instant order keeps the supplier's serial number and message, shown in the admin order detail (never to the reseller)", async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'success', sn: '0417-9921-5530' });
    const { ref, orderId } = await place(target);
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('success');
    expect(JSON.stringify(o)).not.toContain('0417-9921-5530');
    const detail = await op.get(`/orders/${orderId}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.data.fulfilment).toMatchObject({ supplier: 'Digiflazz', supplier_sku: 'FF100', supplier_serial: '0417-9921-5530', supplier_message: 'Transaksi Sukses' });
  });

  it("rc 51 (destination blocked) fails the order as SUPPLIER_REJECTED; the operator sees the supplier's own message", async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'rc', rc: '51', status: 'Gagal', message: 'Nomor tujuan diblokir' });
    const { ref, orderId } = await place(target);
    const o = await waitForTerminal(t.client, ref);
    expect(o).toMatchObject({ status: 'failed', failure_code: 'SUPPLIER_REJECTED', failure_reason: 'Nomor tujuan diblokir.' });
    const detail = (await op.get(`/orders/${orderId}`)).body.data;
    expect(detail.fulfilment).toMatchObject({ supplier_serial: null, supplier_message: 'Nomor tujuan diblokir' });
  });

  it("health names the cause: this server's IP not whitelisted (rc 45), the API key refused (rc 41)", async () => {
    try {
      fake.failAll = '45';
      await t.platform.refreshSupply.run();
      let s = (await op.get('/suppliers')).body.data.suppliers.find((x: { id: string }) => x.id === supplierId);
      expect(s.health.last_error).toBe("health check: the balance call was refused: rc 45: this server's IP is not whitelisted at the supplier: add it in the supplier's member area (the supplier said: \"rc 45\")");
      fake.failAll = '41';
      await t.platform.refreshSupply.run();
      s = (await op.get('/suppliers')).body.data.suppliers.find((x: { id: string }) => x.id === supplierId);
      expect(s.health.last_error).toMatch(/^health check: the balance call was refused: rc 41: signature refused: check the API key/);
    } finally {
      fake.failAll = null;
      await t.platform.refreshSupply.run();
    }
  });
});
