import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Supplier, SupplierAnswer } from '../../src/adapters/suppliers/types.js';
import { FulfilOrder } from '../../src/services/fulfil-order.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { storeKinds } from '../support/stores.js';

/** An upstream that took the request but never gives a definite answer. */
class SilentUpstream implements Supplier {
  submits = 0;
  statusQueries = 0;
  async submit(): Promise<SupplierAnswer> {
    this.submits++;
    return { kind: 'unknown', message: 'timed out after sending' };
  }
  /** What status queries answer; silent until a test gives it a definite answer. */
  answer: SupplierAnswer = { kind: 'unknown', message: 'timed out' };
  async status(): Promise<SupplierAnswer> {
    this.statusQueries++;
    return this.answer;
  }
  async available(skus: readonly string[]) {
    return new Map(skus.map((s) => [s, true]));
  }
  async health() {
    return 'up' as const;
  }
}

describe.each(storeKinds())('ambiguous upstream answers (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('are polled, never re-ordered elsewhere, and past the bound flagged for the operator without a refund', async () => {
    const { db } = t.platform.database;
    // A second route exists: an ambiguous first attempt must never spill over to it.
    await db.insertInto('suppliers').values({ id: 'second', name: 'second', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: Date.now() }).execute();
    await db.insertInto('product_routes').values({ id: 'second-ff', product_code: 'FF-100', supplier_id: 'second', supplier_sku: 'ff-100', cost: 1, priority: 9, enabled: 1, created_at: Date.now() }).execute();
    const ref = uniqueRef();
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    const orderId = placed.body.data.order_id as string;
    const first = new SilentUpstream();
    const second = new SilentUpstream();
    let now = Date.now();
    const fulfil = new FulfilOrder({
      repo: new FulfilmentRepo(db),
      suppliers: (route) => (route.supplierId === 'second' ? second : first),
      clock: { now: () => now },
      settings: { pollBaseMs: 100, ambiguousBoundMs: 60_000 },
    });
    const job = (attempts: number) => ({ id: 1, kind: 'fulfil_order', payload: { orderId }, attempts, runAt: now });

    const r1 = await fulfil.handle(job(0));
    expect(r1.status).toBe('retry');
    for (let i = 1; i <= 5; i++) {
      now += 10_000;
      const r = await fulfil.handle(job(i));
      expect(r.status).toBe('retry');
      if (r.status === 'retry') expect(r.retryAt).toBeGreaterThan(now);
    }
    expect(first.submits).toBe(1);
    expect(first.statusQueries).toBe(5);
    expect(second.submits).toBe(0);

    now += 60_000;
    // Flagged, and still asked about slowly so a late answer settles it.
    const flagged = await fulfil.handle(job(6));
    expect(flagged.status).toBe('retry');
    if (flagged.status === 'retry') expect(flagged.retryAt).toBeGreaterThanOrEqual(now + 60_000);
    const row = await db.selectFrom('orders').select(['status', 'needs_attention', 'completed_at']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'processing', needs_attention: 1, completed_at: null });
    const refunds = await db.selectFrom('ledger_entries').select('id').where('order_id', '=', orderId).where('type', '=', 'order_refund').execute();
    expect(refunds).toHaveLength(0);
    expect(second.submits).toBe(0);

    // A late definite answer still settles the flagged order, once, with its callback job.
    first.answer = { kind: 'success' };
    now += 600_000;
    expect(await fulfil.handle(job(7))).toMatchObject({ status: 'done', handoff: [{ kind: 'deliver_callback', payload: { orderId } }] });
    const settled = await db.selectFrom('orders').select(['status', 'serial_number']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(settled.status).toBe('success');
    expect(settled.serial_number).toMatch(/^SRL-[A-Z0-9]{10}$/);
    expect(first.submits).toBe(1);
    expect(second.submits).toBe(0);
    await ledgerConsistent(db);
  });
});
