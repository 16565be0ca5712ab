import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { startReceiver } from '../support/receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The one real-time run of the schedule; every other callback test uses an injected clock. */
describe('callback schedule in real time', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Fewer worker slots than one reseller's hanging callbacks, so isolation rests on the per-reseller cap.
    t = await startTestApp('sqlite', { worker: true, env: { WORKER_CONCURRENCY: '4', CALLBACKS_PER_RESELLER: '2' } });
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
      // Six hanging callbacks for one reseller, more than the worker's four slots.
      const slowOrders: string[] = [];
      for (let i = 0; i < 6; i++) {
        const placed = await t.client.post('/order', { ref_id: uniqueRef('slow'), product_code: 'FF-100', target: '123456789' });
        slowOrders.push(placed.body.data.order_id);
      }
      while (slow.received.length < 2) await sleep(20);
      await other.client.post('/order', { ref_id: uniqueRef('fast'), product_code: 'FF-100', target: '123456789' });
      while (fast.received.length < 1) await sleep(20);
      // The fast callback arrived while the slow reseller's attempts were all still hanging:
      // none had been cut (and logged) yet, and only its two allowed ones had started.
      const slowAttemptsLogged = await db
        .selectFrom('callback_attempts as a').innerJoin('callback_deliveries as d', 'd.id', 'a.delivery_id')
        .select((eb) => eb.fn.countAll<number>().as('n')).where('d.order_id', 'in', slowOrders).executeTakeFirstOrThrow();
      expect(Number(slowAttemptsLogged.n)).toBe(0);
      expect(slow.received).toHaveLength(2);
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 30_000);
});
