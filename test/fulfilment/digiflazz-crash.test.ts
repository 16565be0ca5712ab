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
 * SIGKILL of a `topup worker` process while Digiflazz holds the order it took (the request
 * never answered): the restarted worker asks with the same ref_id (the supplier answers
 * the existing transaction) and never places the order again, there or at the next route.
 */
describe.each(storeKinds())('digiflazz: worker killed after the supplier took the order (%s)', (kind: StoreKind) => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('the restarted worker asks, never re-orders', async () => {
    const store = await createTestStore(kind);
    const fake = await startFakeDigiflazz({ products: [{ buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true }] });
    try {
      // Set up as an operator would, and take the order, in a process without a worker.
      const setup = await startTestApp(kind, { store });
      const supply = setup.platform.operator.supply;
      await supply.addDigiflazz({ name: 'Digiflazz', username: fake.username, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, baseUrl: fake.url }, 'cli');
      await setup.platform.database.db.updateTable('product_routes').set({ priority: 2 }).where('product_code', '=', 'FF-100').execute();
      await supply.addRoute({ productCode: 'FF-100', supplierName: 'Digiflazz', sku: 'FF100', priority: 1, cost: 13_500 }, 'cli');
      const target = '366000111';
      fake.behaviours.set(target, { kind: 'hang' });
      const ref = uniqueRef('crash');
      const placed = await setup.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
      expect(placed.status, placed.text).toBe(200);
      const orderId: string = placed.body.data.order_id;
      await setup.close();

      const env = {
        DATA_DIR: store.dataDir, DATABASE_URL: store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'error', NODE_ENV: 'development', REDIS_URL: '',
        WORKER_LEASE_MS: '2000', FULFIL_POLL_MS: '20', SUPPLY_REFRESH_MS: '3600000',
      };
      const first = await startWorker(env);
      children.push(first);
      await until('the supplier to take the order', () => fake.transactions.has(orderId));
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      fake.releaseHeld();
      // The supplier completes the order while no worker runs.
      await fake.settle(orderId, { status: 'Sukses', sn: 'SN-AFTER-CRASH' });

      const second = await startWorker(env);
      children.push(second);
      const database = openDatabase(store.config);
      try {
        const status = async () => (await database.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
        await until('the order to settle', async () => (await status()) !== 'processing');
        expect(await status()).toBe('success');
        const tx = fake.transactions.get(orderId)!;
        expect(tx.checks).toBeGreaterThanOrEqual(1);
        expect([...fake.transactions.values()].filter((x) => x.customer_no === target)).toHaveLength(1);
        const sent = fake.requests.filter((q) => q.path === '/transaction');
        expect(sent.every((q) => q.body.ref_id === orderId && q.body.buyer_sku_code === 'FF100' && q.body.customer_no === target)).toBe(true);
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
