import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeSandboxSwitches } from '../../src/adapters/suppliers/sandbox.js';
import { UNREACHABLE_AFTER } from '../../src/store/catalog-repo.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('fulfilment with the sandbox supplier (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // A short breaker cool-down: a supplier back up is probed and takes orders again soon.
    t = await startTestApp(kind, { env: { SUPPLIER_BREAKER_COOLDOWN_MS: '100', SUPPLIER_BREAKER_PROBE_ORDERS: '1' } });
    // These tests prove the callback job is written with the terminal state; delivering it
    // is the callbacks' own suite, so its handler stays out and the rows stay visible.
    delete t.platform.jobHandlers.deliver_callback;
    t.platform.startBackground();
  });
  const untilAccepting = async (productCode: string) => {
    for (let i = 0; i < 200 && !(await t.platform.repos.catalog.hasAcceptingRoute(productCode)); i++) await new Promise((r) => setTimeout(r, 25));
  };
  afterEach(async () => {
    await writeSandboxSwitches(t.platform.database.db, { mode: 'up', outOfStock: [], availabilityBroken: false });
    await t.platform.refreshSupply.run();
    await untilAccepting('FF-100');
  });
  afterAll(async () => {
    if (t) {
      await t.platform.runner.stop();
      await ledgerConsistent(t.platform.database.db);
      // Never submitted upstream twice.
      const dup = await t.platform.database.db.selectFrom('sandbox_orders').select('reference').where('submissions', '>', 1).execute();
      expect(dup).toEqual([]);
    }
    await t?.close();
  });

  const place = async (product_code: string, target: string, extra: Record<string, unknown> = {}) => {
    const ref = uniqueRef();
    const r = await t.client.post('/order', { ref_id: ref, product_code, target, ...extra });
    return { ref, r };
  };
  const callbackJobs = async (orderId: string) =>
    (await t.platform.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'deliver_callback').execute()).filter((j) => j.payload.includes(orderId));

  it('an instant order succeeds with an SRL- serial, completed_at and a callback job', async () => {
    const { ref, r } = await place('FF-100', '123456789');
    expect(r.status, r.text).toBe(200);
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('success');
    expect(o.serial_number).toMatch(/^SRL-[A-Z0-9]{10}$/);
    expect(o.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(o.failure_code).toBeNull();
    expect(await callbackJobs(o.order_id)).toHaveLength(1);
    // completed_at never moves afterwards.
    await new Promise((res) => setTimeout(res, 50));
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.completed_at).toBe(o.completed_at);
  });

  it("a success ends its supplier's run of failures, and leaves a healthy supplier's row unwritten", async () => {
    const { db } = t.platform.database;
    const route = await db.selectFrom('product_routes').select('supplier_id').where('product_code', '=', 'FF-100').orderBy('priority').orderBy('id').executeTakeFirstOrThrow();
    const health = async () => {
      const h = await db.selectFrom('supplier_health').selectAll().where('supplier_id', '=', route.supplier_id).executeTakeFirstOrThrow();
      return { failures: Number(h.consecutive_failures), error: h.last_error, at: Number(h.updated_at) };
    };
    // One failure recorded (below the gate's threshold): the route's read shows it, so the success writes.
    await new FulfilmentRepo(db, t.platform.database.dialect).recordSupplierResult(route.supplier_id, false, 'timeout', 1000);
    const first = await place('FF-100', '123456789');
    expect((await waitForTerminal(t.client, first.ref)).status).toBe('success');
    const reset = await health();
    expect(reset).toMatchObject({ failures: 0, error: null });
    expect(reset.at).toBeGreaterThan(1000);
    // Healthy when read: the next success writes nothing.
    await db.updateTable('supplier_health').set({ updated_at: 2000 }).where('supplier_id', '=', route.supplier_id).execute();
    const second = await place('FF-100', '123456789');
    expect((await waitForTerminal(t.client, second.ref)).status).toBe('success');
    expect(await health()).toEqual({ failures: 0, error: null, at: 2000 });
  });

  it('a voucher order delivers SRL-<token>/<code>', async () => {
    const { ref } = await place('STEAM-60K', 'shop-order-1');
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('success');
    expect(o.serial_number).toMatch(/^SRL-[A-Z0-9]{10}\/SBX-[0-9A-F-]+$/);
    expect(o.serial_number.split('/').pop()).toBe(o.serial_number.slice(o.serial_number.indexOf('/') + 1));
  });

  it.each([
    ['7000000001', 'SUPPLIER_MAINTENANCE'],
    ['7000000002', 'SUPPLIER_UNREACHABLE'],
    ['7000000004', 'PRODUCT_UNAVAILABLE'],
  ])('sandbox account %s fails with %s and is refunded exactly once', async (target, code) => {
    const before = (await t.client.get('/balance')).body.data.balance;
    const { ref } = await place('FF-100', target);
    const o = await waitForTerminal(t.client, ref);
    expect(o).toMatchObject({ status: 'failed', failure_code: code, serial_number: null });
    expect(o.failure_reason).toMatch(/\.$/);
    expect(o.failure_reason.toLowerCase()).not.toContain('sandbox');
    expect((await t.client.get('/balance')).body.data.balance).toBe(before);
    const refunds = await t.platform.database.db.selectFrom('ledger_entries').selectAll().where('order_id', '=', o.order_id).where('type', '=', 'order_refund').execute();
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0]!.amount)).toBe(o.price);
    expect(await callbackJobs(o.order_id)).toHaveLength(1);
  });

  it('7000000003: SUPPLIER_REJECTED with cleaned upstream wording; WDP_LIMIT_LIKELY for a verified weekly pass', async () => {
    const plain = await place('VAL-475', '7000000003');
    const o = await waitForTerminal(t.client, plain.ref);
    expect(o.failure_code).toBe('SUPPLIER_REJECTED');
    expect(o.failure_reason).toContain('rejected by publisher');
    expect(o.failure_reason).not.toContain('Sandbox Games');
    const wdp = await place('ML-WDP', '7000000003', { zone: '2001' });
    const w = await waitForTerminal(t.client, wdp.ref);
    expect(w.failure_code).toBe('WDP_LIMIT_LIKELY');
  });

  it('7000000005 fails with both failure fields null', async () => {
    const { ref } = await place('FF-100', '7000000005');
    const o = await waitForTerminal(t.client, ref);
    expect(o).toMatchObject({ status: 'failed', failure_code: null, failure_reason: null });
  });

  it.each([
    ['4040404040', 'INVALID_ID'],
    ['4030403040', 'REGION_LOCK'],
    ['4290429040', 'PURCHASE_LIMIT'],
  ])('checker refusal %s → 400 %s before any charge; ref_id stays reusable', async (target, code) => {
    const before = await stateSnapshot(t.platform);
    const ref = uniqueRef();
    const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(code);
    expect(await stateSnapshot(t.platform)).toEqual(before);
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.error).toBe('PRODUCT_NOT_FOUND');
    const retry = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(retry.status).toBe(200);
  });

  it('games without the checker are not refused; no checker answer lets the order proceed', async () => {
    const noChecker = await place('VAL-475', '4040404040');
    expect(noChecker.r.status).toBe(200);
    const silent = await place('FF-100', '5030503050');
    expect(silent.r.status).toBe(200);
    expect((await waitForTerminal(t.client, silent.ref)).status).toBe('success');
  });

  it('POST /validation: verdicts, nickname, target/zone mapping and its error codes', async () => {
    const ok = await t.client.post('/validation', { category_slug: 'mobile-legends', fields: { user_id: '123456', zone_id: '2001' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ category_slug: 'mobile-legends', valid: true, verdict: 'valid', target: '123456', zone: '2001' });
    expect(typeof ok.body.data.nickname).toBe('string');
    const bad = await t.client.post('/validation', { category_slug: 'free-fire', fields: { user_id: '4040404040' } });
    expect(bad.body.data).toMatchObject({ valid: false, verdict: 'INVALID_ID', nickname: null });
    const missing = await t.client.post('/validation', { category_slug: 'mobile-legends', fields: { user_id: '123456' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('VALIDATION_FIELDS_MISSING');
    expect(missing.body.message).toContain('zone_id');
    const unsupported = await t.client.post('/validation', { category_slug: 'valorant', fields: { user_id: 'a#b' } });
    expect(unsupported.status).toBe(404);
    expect(unsupported.body.error).toBe('GAME_NOT_SUPPORTED');
    expect((await t.client.post('/validation', { category_slug: 'nope', fields: {} })).body.error).toBe('GAME_NOT_SUPPORTED');
    const down = await t.client.post('/validation', { category_slug: 'free-fire', fields: { user_id: '5030503050' } });
    expect(down.status).toBe(503);
    expect(down.body.error).toBe('CHECKER_UNAVAILABLE');
    expect((await t.client.post('/validation', { category_slug: 'free-fire', fields: {}, extra: 1 })).body.error).toBe('VALIDATION_ERROR');
  });

  it('supplier gate: a supplier in maintenance or down refuses orders with 503, no order, no debit', async () => {
    for (const mode of ['maintenance', 'down'] as const) {
      await writeSandboxSwitches(t.platform.database.db, { mode });
      // Maintenance closes the gate at once; unreachable only after several checks in a row.
      await t.platform.refreshSupply.run();
      if (mode === 'down') {
        expect(await t.platform.repos.catalog.hasAcceptingRoute('FF-100')).toBe(true);
        for (let i = 1; i < UNREACHABLE_AFTER; i++) await t.platform.refreshSupply.run();
      }
      const before = await stateSnapshot(t.platform);
      const ref = uniqueRef();
      const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('ORDER_FAILED_SUPPLIER_GATE');
      expect(await stateSnapshot(t.platform)).toEqual(before);
      expect((await t.client.get('/products?category_slug=free-fire')).body.data.products[0].status).toBe('inactive');
      await writeSandboxSwitches(t.platform.database.db, { mode: 'up' });
      await t.platform.refreshSupply.run();
      // The breaker stays open until its cool-down has passed and the worker's probe answered.
      await untilAccepting('FF-100');
      expect((await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' })).status).toBe(200);
      // Half-open until that order, the one probe order, is answered: then closed.
      expect((await waitForTerminal(t.client, ref)).status).toBe('success');
      const health = await t.platform.database.db.selectFrom('supplier_health as h').innerJoin('suppliers as s', 's.id', 'h.supplier_id').select('h.breaker').where('s.name', '=', 'sandbox').executeTakeFirstOrThrow();
      expect(health.breaker).toBe('closed');
    }
  });

  it('supplier gate: an operator taking the only supplier out of service (maintenance, disabled) refuses orders', async () => {
    const p = t.platform;
    const manage = p.operator.supply;
    for (const patch of [{ status: 'maintenance' as const }, { enabled: false }]) {
      await manage.setSupplier('sandbox', patch, 'cli');
      try {
        const before = await stateSnapshot(p);
        const ref = uniqueRef();
        const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
        expect(r.status).toBe(503);
        expect(r.body.error).toBe('ORDER_FAILED_SUPPLIER_GATE');
        expect(await stateSnapshot(p)).toEqual(before);
        expect((await t.client.get(`/order-status?ref_id=${ref}`)).status).toBe(404);
      } finally {
        await manage.setSupplier('sandbox', { status: 'active', enabled: true }, 'cli');
      }
    }
  });

  it('live status: out of stock is inactive, ordering it fails and is refunded; a broken check shows all active', async () => {
    await writeSandboxSwitches(t.platform.database.db, { outOfStock: ['ff-310'] });
    await t.platform.refreshSupply.run();
    const list = (await t.client.get('/products?category_slug=free-fire')).body.data.products;
    expect(list.find((p: any) => p.code === 'FF-310').status).toBe('inactive');
    expect(list.find((p: any) => p.code === 'FF-100').status).toBe('active');
    const before = (await t.client.get('/balance')).body.data.balance;
    const { ref, r } = await place('FF-310', '123456789');
    expect(r.status).toBe(200);
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('failed');
    expect(['PRODUCT_UNAVAILABLE', 'NO_SUPPLIER_AVAILABLE']).toContain(o.failure_code);
    expect((await t.client.get('/balance')).body.data.balance).toBe(before);

    await writeSandboxSwitches(t.platform.database.db, { availabilityBroken: true });
    await t.platform.refreshSupply.run();
    const all = (await t.client.get('/products')).body.data.products;
    expect(all.every((p: any) => p.status === 'active')).toBe(true);
  });

  it('routing: a supplier the operator put in maintenance gets no new orders; the next route fulfils', async () => {
    const { db } = t.platform.database;
    const now = Date.now();
    await db.insertInto('suppliers').values({ id: `maint-${kind}`, name: 'sandbox-maint', adapter: 'sandbox', enabled: 1, status: 'maintenance', credentials_enc: null, created_at: now }).execute();
    await db.insertInto('product_routes').values({ id: `r-maint-${kind}`, product_code: 'VAL-475', supplier_id: `maint-${kind}`, supplier_sku: 'val-475-maint', cost: 1, priority: 0, enabled: 1, created_at: now }).execute();
    try {
      const { ref } = await place('VAL-475', 'player#tag');
      const o = await waitForTerminal(t.client, ref);
      expect(o.status).toBe('success');
      const row = await db.selectFrom('orders').select('supplier_id').where('id', '=', o.order_id).executeTakeFirstOrThrow();
      expect(row.supplier_id).not.toBe(`maint-${kind}`);
      expect(await db.selectFrom('sandbox_orders').select('reference').where('sku', '=', 'val-475-maint').execute()).toEqual([]);
    } finally {
      await db.updateTable('product_routes').set({ enabled: 0 }).where('id', '=', `r-maint-${kind}`).execute();
    }
  });

  it('routing: a route that certainly did not take the order moves to the next route', async () => {
    const { db } = t.platform.database;
    const now = Date.now();
    const sandbox = await db.selectFrom('suppliers').select('id').where('name', '=', 'sandbox').executeTakeFirstOrThrow();
    await db.insertInto('suppliers').values({ id: `backup-${kind}`, name: 'sandbox-backup', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: now }).execute();
    await db.insertInto('product_routes').values({ id: `r-backup-${kind}`, product_code: 'ML-172', supplier_id: `backup-${kind}`, supplier_sku: 'ml-172-alt', cost: 1, priority: 5, enabled: 1, created_at: now }).execute();
    await writeSandboxSwitches(db, { outOfStock: ['ml-172'] });
    const { ref } = await place('ML-172', '123456789', { zone: '2001' });
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('success');
    const row = await db.selectFrom('orders').select(['supplier_id', 'supplier_sku']).where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ supplier_id: `backup-${kind}`, supplier_sku: 'ml-172-alt' });
    expect(sandbox.id).not.toBe(row.supplier_id);
  });
});
