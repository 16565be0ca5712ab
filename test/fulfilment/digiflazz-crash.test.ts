import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { startTestApp, uniqueRef } from '../support/app.js';
import { startFakeDigiflazz } from '../support/fake-digiflazz.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createTestStore, storeKinds, type StoreKind } from '../support/stores.js';
import { TOPUP_BIN as BIN } from '../support/cli.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker'], { env: { ...process.env, METRICS_PORT: 'off', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      if (/topup worker \S+ running/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code, sig) => reject(new Error(`worker exited ${code} ${sig}:\n${out}`)));
  });
}

async function until(what: string, f: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * SIGKILL of a `topup worker` process while Digiflazz holds the orders it took (the
 * requests never answered): the restarted worker asks with the same ref_id (the supplier
 * answers the existing transaction) and never places an order again, there or at the next
 * route. One order's first route was refused (rc 53): the attempt in flight at the kill is
 * its second, at the same account, under its own ref_id, which the restarted worker asks
 * about.
 */
describe.each(storeKinds())('digiflazz: worker killed after the supplier took the order (%s)', (kind: StoreKind) => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('the restarted worker asks, never re-orders', async () => {
    const store = await createTestStore(kind);
    const fake = await startFakeDigiflazz({
      products: [
        { buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true },
        { buyer_sku_code: 'FF310-OFF', price: 12_000, unlimited_stock: true, seller_product_status: false },
        { buyer_sku_code: 'FF310', price: 12_000, unlimited_stock: true },
      ],
    });
    try {
      // Set up as an operator would, and take the order, in a process without a worker.
      const setup = await startTestApp(kind, { store });
      const supply = setup.platform.operator.supply;
      await supply.addDigiflazz({ name: 'Digiflazz', username: fake.username, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, baseUrl: fake.url }, 'cli');
      await setup.platform.database.db.updateTable('product_routes').set({ priority: 2 }).where('product_code', '=', 'FF-100').execute();
      await supply.addRoute({ productCode: 'FF-100', supplierName: 'Digiflazz', sku: 'FF100', priority: 1, cost: 13_500 }, 'cli');
      await setup.platform.database.db.updateTable('product_routes').set({ priority: 9 }).where('product_code', '=', 'FF-310').execute();
      await supply.addRoute({ productCode: 'FF-310', supplierName: 'Digiflazz', sku: 'FF310-OFF', priority: 1, cost: 12_000 }, 'cli');
      await supply.addRoute({ productCode: 'FF-310', supplierName: 'Digiflazz', sku: 'FF310', priority: 2, cost: 12_000 }, 'cli');
      const target = '366000111';
      const target2 = '366000222';
      fake.behaviours.set(target, { kind: 'hang' });
      fake.behaviours.set(target2, { kind: 'hang' });
      const placed = await setup.client.post('/order', { ref_id: uniqueRef('crash'), product_code: 'FF-100', target });
      expect(placed.status, placed.text).toBe(200);
      const orderId: string = placed.body.data.order_id;
      const placed2 = await setup.client.post('/order', { ref_id: uniqueRef('crash'), product_code: 'FF-310', target: target2 });
      expect(placed2.status, placed2.text).toBe(200);
      const second2 = `${placed2.body.data.order_id as string}-r2`;
      await setup.close();

      const env = {
        DATA_DIR: store.dataDir, DATABASE_URL: store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'error', NODE_ENV: 'development', REDIS_URL: '',
        WORKER_LEASE_MS: '2000', FULFIL_POLL_MS: '20', SUPPLY_REFRESH_MS: '3600000',
      };
      const first = await startWorker(env);
      children.push(first);
      await until('the supplier to take the orders', () => fake.transactions.has(orderId) && fake.transactions.has(second2));
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      fake.releaseHeld();
      // The supplier completes the orders while no worker runs.
      await fake.settle(orderId, { status: 'Sukses', sn: 'SN-AFTER-CRASH' });
      await fake.settle(second2, { status: 'Sukses', sn: 'SN-R2-AFTER-CRASH' });

      const second = await startWorker(env);
      children.push(second);
      const database = openDatabase(store.config);
      try {
        const status = async (id: string) => (await database.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
        const id2 = placed2.body.data.order_id as string;
        await until('the orders to settle', async () => (await status(orderId)) !== 'processing' && (await status(id2)) !== 'processing');
        expect(await status(orderId)).toBe('success');
        expect(await status(id2)).toBe('success');
        expect(fake.transactions.get(orderId)!.checks).toBeGreaterThanOrEqual(1);
        expect(fake.transactions.get(second2)!.checks).toBeGreaterThanOrEqual(1);
        expect([...fake.transactions.values()].filter((x) => x.customer_no === target)).toHaveLength(1);
        // The refused first attempt and the second, never a third.
        expect([...fake.transactions.values()].filter((x) => x.customer_no === target2).map((x) => [x.ref_id, x.status])).toEqual([[id2, 'Gagal'], [second2, 'Sukses']]);
        const sent = fake.requests.filter((q) => q.path === '/transaction');
        expect(sent.filter((q) => q.body.customer_no === target).every((q) => q.body.ref_id === orderId && q.body.buyer_sku_code === 'FF100')).toBe(true);
        expect(sent.filter((q) => q.body.customer_no === target2).map((q) => `${q.body.ref_id} ${q.body.buyer_sku_code}`).slice(0, 2)).toEqual([`${id2} FF310-OFF`, `${second2} FF310`]);
        expect(sent.filter((q) => q.body.customer_no === target2).slice(2).every((q) => q.body.ref_id === second2 && q.body.buyer_sku_code === 'FF310')).toBe(true);
        expect(await database.db.selectFrom('ledger_entries').select('type').where('order_id', 'in', [orderId, id2]).execute()).toEqual([{ type: 'order_debit' }, { type: 'order_debit' }]);
        expect(await database.db.selectFrom('sandbox_orders').select('reference').execute()).toEqual([]);
        await ledgerConsistent(database.db);
      } finally {
        await database.close();
      }
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    } finally {
      await fake.close();
      await store.drop();
    }
  }, 90_000);
});
