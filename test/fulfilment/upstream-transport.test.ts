import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxSupplier } from '../../src/adapters/suppliers/sandbox.js';
import { UpstreamV1Supplier } from '../../src/adapters/suppliers/upstream-v1.js';
import { FulfilOrder } from '../../src/services/fulfil-order.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { storeKinds } from '../support/stores.js';

/**
 * Transport failures of a real upstream-v1 HTTP supplier, on real sockets: a refused
 * connection certainly did not take the order (next route), a request that was sent and
 * never answered may have (only ever asked about again, never ordered elsewhere).
 */
describe.each(storeKinds())('upstream-v1 transport failures (%s)', (kind) => {
  let t: TestApp;
  let hanging: Server;
  let hangingUrl: string;
  let closedUrl: string;
  const seen: string[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind);
    hanging = createServer((req) => seen.push(`${req.method} ${req.url}`)); // reads, never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/api/v1`;
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/api/v1`;
    await new Promise((r) => closed.close(r));
  });
  afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise((r) => hanging?.close(r));
    await t?.close();
  });

  async function setup(name: string, baseUrl: string) {
    const { db } = t.platform.database;
    const now = Date.now();
    await db.insertInto('suppliers').values({ id: name, name, adapter: 'upstream-v1', enabled: 1, status: 'active', credentials_enc: null, created_at: now }).execute();
    await db.updateTable('product_routes').set({ priority: 50 }).where('product_code', '=', 'FF-100').execute();
    await db.insertInto('product_routes').values({ id: `${name}-ff`, product_code: 'FF-100', supplier_id: name, supplier_sku: 'FF-100', cost: 1, priority: 1, enabled: 1, created_at: now }).execute();
    const ref = uniqueRef();
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(placed.status, placed.text).toBe(200);
    const upstream = new UpstreamV1Supplier(async () => ({ baseUrl, apiKey: 'k', apiSecret: 's' }), 300);
    let now2 = Date.now();
    const clock = { now: () => now2 };
    const sandbox = new SandboxSupplier(db, clock, 0);
    const fulfil = new FulfilOrder({
      repo: new FulfilmentRepo(db),
      suppliers: (route) => (route.supplierId === name ? upstream : sandbox),
      clock,
      settings: { pollBaseMs: 100, ambiguousBoundMs: 60_000 },
    });
    const orderId = placed.body.data.order_id as string;
    const run = (attempts: number) => fulfil.handle({ id: 1, kind: 'fulfil_order', payload: { orderId }, attempts, runAt: now2 });
    const cleanup = async () => {
      await db.deleteFrom('product_routes').where('id', '=', `${name}-ff`).execute();
      await db.updateTable('product_routes').set({ priority: 1 }).where('product_code', '=', 'FF-100').execute();
      await db.updateTable('suppliers').set({ enabled: 0 }).where('id', '=', name).execute();
    };
    return { ref, orderId, run, advance: (ms: number) => (now2 += ms), cleanup };
  }

  it('connection refused before sending: the next route fulfils the order', async () => {
    const s = await setup(`refused-${kind}`, closedUrl);
    try {
      expect(await s.run(0)).toMatchObject({ status: 'done', handoff: [{ kind: 'deliver_callback' }] });
      const { db } = t.platform.database;
      const o = await db.selectFrom('orders').select(['status', 'supplier_id']).where('id', '=', s.orderId).executeTakeFirstOrThrow();
      expect(o.status).toBe('success');
      expect(o.supplier_id).not.toBe(`refused-${kind}`);
      const health = await db.selectFrom('supplier_health').select('consecutive_failures').where('supplier_id', '=', `refused-${kind}`).executeTakeFirstOrThrow();
      expect(health.consecutive_failures).toBe(1);
    } finally {
      await s.cleanup();
    }
  });

  it('sent but never answered: polled, never ordered elsewhere, flagged past the bound, not refunded', async () => {
    const s = await setup(`hanging-${kind}`, hangingUrl);
    const { db } = t.platform.database;
    try {
      const first = await s.run(0);
      expect(first.status).toBe('retry');
      expect(seen.some((l) => l.startsWith('POST /api/v1/order'))).toBe(true);
      const health = await db.selectFrom('supplier_health').select('consecutive_failures').where('supplier_id', '=', `hanging-${kind}`).executeTakeFirstOrThrow();
      expect(health.consecutive_failures).toBe(1);
      s.advance(5_000);
      expect((await s.run(1)).status).toBe('retry');
      expect(seen.some((l) => l.startsWith(`GET /api/v1/order-status?ref_id=${s.orderId}`))).toBe(true);
      // The other route (the sandbox) never saw this order.
      expect(await db.selectFrom('sandbox_orders').select('reference').where('reference', 'like', `${s.orderId}%`).execute()).toEqual([]);
      s.advance(120_000);
      expect((await s.run(2)).status).toBe('retry');
      // What `topup attention` shows the operator.
      expect((await new FulfilmentRepo(db).flaggedOrders()).map((r) => r.id)).toContain(s.orderId);
      const o = await db.selectFrom('orders').select(['status', 'needs_attention', 'completed_at', 'supplier_id']).where('id', '=', s.orderId).executeTakeFirstOrThrow();
      expect(o).toEqual({ status: 'processing', needs_attention: 1, completed_at: null, supplier_id: `hanging-${kind}` });
      expect(await db.selectFrom('ledger_entries').select('id').where('order_id', '=', s.orderId).where('type', '=', 'order_refund').execute()).toEqual([]);
      expect(await db.selectFrom('sandbox_orders').select('reference').where('reference', 'like', `${s.orderId}%`).execute()).toEqual([]);
      await ledgerConsistent(db);
    } finally {
      await s.cleanup();
    }
  });
});
