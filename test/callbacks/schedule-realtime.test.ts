import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { startReceiver } from '../support/receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The one real-time run of the schedule; every other callback test uses an injected clock. */
describe('callback schedule in real time', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true });
  });
  afterAll(async () => t?.close());

  it('a receiver answering 500 gets exactly four attempts at about T+0, 5, 15 and 30 s', async () => {
    const rx = await startReceiver(() => ({ status: 500 }));
    try {
      await t.platform.database.db.updateTable('resellers').set({ callback_url: rx.url }).where('id', '=', t.demo.resellerId).execute();
      await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
      const deadline = Date.now() + 40_000;
      while (rx.received.length < 4 && Date.now() < deadline) await sleep(100);
      await sleep(3000); // a fifth attempt would come now if the schedule were wrong
      expect(rx.received).toHaveLength(4);
      const t0 = rx.received[0]!.at;
      const offsets = rx.received.map((r) => (r.at - t0) / 1000);
      const expected = [0, 5, 15, 30];
      offsets.forEach((o, i) => {
        expect(o).toBeGreaterThanOrEqual(expected[i]! - 0.05);
        expect(o).toBeLessThan(expected[i]! + 2);
      });
    } finally {
      await rx.close();
    }
  }, 60_000);

  it("a hanging receiver of one reseller does not delay another reseller's callback", async () => {
    const slow = await startReceiver(() => 'hang');
    const fast = await startReceiver();
    try {
      const other = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
      const { db } = t.platform.database;
      await db.updateTable('resellers').set({ callback_url: slow.url }).where('id', '=', t.demo.resellerId).execute();
      await db.updateTable('resellers').set({ callback_url: fast.url }).where('id', '=', other.id).execute();
      for (let i = 0; i < 5; i++) await t.client.post('/order', { ref_id: uniqueRef('slow'), product_code: 'FF-100', target: '123456789' });
      while (slow.received.length < 5) await sleep(20);
      const slowStarted = Date.now();
      await other.client.post('/order', { ref_id: uniqueRef('fast'), product_code: 'FF-100', target: '123456789' });
      while (fast.received.length < 1) await sleep(20);
      // The fast callback arrived while all five slow attempts were still hanging (cut at 5 s).
      expect(fast.received[0]!.at - slowStarted).toBeLessThan(4000);
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 30_000);
});
