import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/** What the console counts about fulfilled orders: the attempts made, and deliveries later refunded by hand. */
describe.each(storeKinds())('operator counts of fulfilled orders (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  const deliver = async () => {
    const ref = uniqueRef('cnt');
    const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    return r.body.data.order_id as string;
  };

  it('an order the sandbox delivered on its first route has tried one route', async () => {
    const id = await deliver();
    const r = await op.get(`/orders/${id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.fulfilment).toMatchObject({ routes_tried: 1 });
    expect(r.body.data.fulfilment.supplier).not.toBeNull();
  });

  it('delivered orders refunded by hand still count as delivered in the success rate', async () => {
    const ids = [await deliver(), await deliver()];
    for (const id of ids) {
      const r = await op.post(`/orders/${id}/refund`, { note: 'goodwill refund after delivery' });
      expect(r.status, r.text).toBe(200);
    }
    const o = (await op.get('/overview')).body.data;
    expect(o.hourly.at(-1).refunded).toBeGreaterThanOrEqual(2);
    expect(o.success_rate_24h).toBe(1);
  });
});
