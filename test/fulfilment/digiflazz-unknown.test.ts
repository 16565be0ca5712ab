import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Supplier } from '../../src/adapters/suppliers/types.js';
import { FulfilOrder, type SupplierResolver } from '../../src/services/fulfil-order.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { startFakeDigiflazz, type FakeDigiflazz } from '../support/fake-digiflazz.js';
import { ledgerConsistent } from '../support/ledger.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';

/**
 * Once Digiflazz may have taken an order, only a definite final state of that transaction
 * settles it: every refusal of a status query is "ask again later", never a refund, never
 * another route. And each attempt has its own ref_id, durable before it leaves. The real
 * fulfilment service, the real adapter over HTTP to the fake supplier, both stores; the
 * fulfilment job is run by hand on a clock of the test's.
 *
 * The codes are written here by hand (not read from the rc table): a wrong row costs money.
 */
/** Refusals of the call rather than of the transaction (payload, signature, whitelist, account, deposit, rate limits). */
const CALL_REFUSALS = ['40', '41', '42', '43', '44', '45', '61', '80', '81', '82', '83', '85', '86'];
/** Outcome unknown: 01 and 99, 49 (this ref_id holds something else), 50 (not found), and an rc not in our table. */
const UNKNOWN = ['01', '99', '49', '50', '77'];
const BOUND_MS = 60_000;

describe.each(storeKinds())('digiflazz: an unknown answer is never a failure (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeDigiflazz;
  let supplierId = '';
  let now = Date.now();
  let throwing = false;
  const db = () => t.platform.database.db;

  beforeAll(async () => {
    fake = await startFakeDigiflazz({
      products: [
        { buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true },
        { buyer_sku_code: 'FF-OFF', price: 11_000, unlimited_stock: true, seller_product_status: false },
        { buyer_sku_code: 'FF310', price: 12_000, unlimited_stock: true },
      ],
    });
    recordSecret('Digiflazz API key', fake.apiKey);
    t = await startTestApp(kind);
    const supply = t.platform.operator.supply;
    supplierId = (await supply.addDigiflazz({ name: 'Digiflazz', username: fake.username, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, baseUrl: fake.url }, 'cli')).id;
    // FF-100: Digiflazz first, the sandbox second. FF-310: two routes at the same Digiflazz account, then the sandbox.
    await db().updateTable('product_routes').set({ priority: 9 }).where('product_code', 'in', ['FF-100', 'FF-310']).execute();
    await supply.addRoute({ productCode: 'FF-100', supplierName: 'Digiflazz', sku: 'FF100', priority: 1, cost: 13_500 }, 'cli');
    await supply.addRoute({ productCode: 'FF-310', supplierName: 'Digiflazz', sku: 'FF-OFF', priority: 1, cost: 12_000 }, 'cli');
    await supply.addRoute({ productCode: 'FF-310', supplierName: 'Digiflazz', sku: 'FF310', priority: 2, cost: 12_000 }, 'cli');
  });
  afterAll(async () => {
    if (t) await ledgerConsistent(db());
    await t?.close();
    await fake?.close();
  });

  const fulfilWith = (suppliers: SupplierResolver) => new FulfilOrder({
    repo: new FulfilmentRepo(db(), t.platform.database.dialect), suppliers, clock: { now: () => now }, settings: { pollBaseMs: 100, ambiguousBoundMs: BOUND_MS },
  });
  /** An adapter that throws (its credentials cannot be opened, say) while `throwing`. */
  const broken: Supplier = { submit: async () => { throw new Error('boom'); }, status: async () => { throw new Error('boom'); }, available: async () => new Map(), health: async () => 'down' };
  const fulfil = () => fulfilWith((route) => (throwing && route.supplierId === supplierId ? broken : t.platform.core.suppliers(route)));
  const run = (orderId: string, attempts: number, f = fulfil()) => f.handle({ id: 1, kind: 'fulfil_order', payload: { orderId }, attempts, runAt: now });
  const place = async (productCode: string, target: string) => {
    now = Math.max(now, Date.now());
    const r = await t.client.post('/order', { ref_id: uniqueRef('unk'), product_code: productCode, target });
    expect(r.status, r.text).toBe(200);
    return r.body.data.order_id as string;
  };
  const order = (id: string) => db().selectFrom('orders').select(['status', 'needs_attention', 'supplier_id', 'supplier_ref']).where('id', '=', id).executeTakeFirstOrThrow();
  const ledger = async (id: string) => (await db().selectFrom('ledger_entries').select('type').where('order_id', '=', id).execute()).map((e) => e.type);
  const sandboxSaw = async (id: string) => db().selectFrom('sandbox_orders').select('reference').where('reference', 'like', `${id}%`).execute();
  const health = () => db().selectFrom('supplier_health').select(['consecutive_failures', 'last_error']).where('supplier_id', '=', supplierId).executeTakeFirst();
  const randomTarget = () => `3${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

  for (const rc of [...CALL_REFUSALS, ...UNKNOWN, 'throws']) {
    it(`a pending order whose status query is answered ${rc === 'throws' ? 'by an exception' : `rc ${rc}`} is asked again, flagged, never refunded or re-routed, and delivered once`, async () => {
      const target = randomTarget();
      fake.behaviours.set(target, { kind: 'pending' });
      const orderId = await place('FF-100', target);
      expect(await run(orderId, 0)).toMatchObject({ status: 'retry' });
      expect(fake.transactions.get(orderId)).toMatchObject({ status: 'Pending' });

      // The status query is refused (the whitelist withdrawn, a regenerated key, …) past the attention bound.
      now = Date.now() + BOUND_MS + 1_000;
      if (rc === 'throws') throwing = true;
      else fake.failAll = rc;
      try {
        expect(await run(orderId, 1)).toMatchObject({ status: 'retry' });
      } finally {
        fake.failAll = null;
        throwing = false;
      }
      expect(await order(orderId)).toMatchObject({ status: 'processing', needs_attention: 1, supplier_id: supplierId });
      expect(await ledger(orderId)).toEqual(['order_debit']);
      expect(await sandboxSaw(orderId)).toEqual([]);
      expect(await health()).toMatchObject({ consecutive_failures: expect.any(Number), last_error: expect.any(String) });
      expect(Number((await health())!.consecutive_failures)).toBeGreaterThanOrEqual(1);

      // The supplier delivers; the next query settles the order, once.
      await fake.settle(orderId, { status: 'Sukses', sn: `SN-${rc}` });
      now += 10 * 60_000;
      expect(await run(orderId, 2)).toMatchObject({ status: 'done', handoff: [{ kind: 'deliver_callback' }] });
      expect(await order(orderId)).toMatchObject({ status: 'success' });
      expect(await ledger(orderId)).toEqual(['order_debit']);
      expect(await sandboxSaw(orderId)).toEqual([]);
      expect([...fake.transactions.values()].filter((x) => x.customer_no === target)).toHaveLength(1);
      // An answer again: the supplier's run of failures ends.
      expect(Number((await health())?.consecutive_failures ?? 0)).toBe(0);
    });
  }

  const breaker = () => db().selectFrom('supplier_health').select(['breaker', 'breaker_reason']).where('supplier_id', '=', supplierId).executeTakeFirstOrThrow();

  it('refused status queries count towards the circuit breaker: three in a row open it, and the order is still asked about and delivered once', async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'pending' });
    const orderId = await place('FF-100', target);
    expect(await run(orderId, 0)).toMatchObject({ status: 'retry' });
    fake.failAll = '45';
    try {
      for (let attempt = 1; attempt <= 3; attempt++) expect(await run(orderId, attempt)).toMatchObject({ status: 'retry' });
    } finally {
      fake.failAll = null;
    }
    expect(await breaker()).toMatchObject({ breaker: 'open', breaker_reason: expect.stringContaining("status query refused: rc 45: this server's IP is not whitelisted at the supplier") });
    expect(await ledger(orderId)).toEqual(['order_debit']);
    // An open breaker sends no new order there, but the order it holds is still asked about.
    await fake.settle(orderId, { status: 'Sukses', sn: 'SN-OPEN' });
    expect(await run(orderId, 4)).toMatchObject({ status: 'done' });
    expect(await order(orderId)).toMatchObject({ status: 'success' });
    expect(await ledger(orderId)).toEqual(['order_debit']);
    expect(await sandboxSaw(orderId)).toEqual([]);
    await new FulfilmentRepo(db(), t.platform.database.dialect).breaker.reset(supplierId, Date.now());
  });

  it('an order the breaker holds back waits for it, then goes to that route, even when every later route was passed over', async () => {
    const repo = new FulfilmentRepo(db(), t.platform.database.dialect);
    const others = db().selectFrom('product_routes').select(['id', 'cost']).where('product_code', '=', 'FF-100').where('supplier_id', '<>', supplierId);
    const before = await others.execute();
    // The sandbox route behind Digiflazz costs more than the order's price: passed over untried.
    await db().updateTable('product_routes').set({ cost: 1_000_000_000 }).where('id', 'in', before.map((r) => r.id)).execute();
    await repo.markSupplierUnavailable(supplierId, 'the supplier reports maintenance', Date.now());
    try {
      const orderId = await place('FF-100', randomTarget());
      for (let attempt = 0; attempt < 2; attempt++) {
        expect(await run(orderId, attempt)).toMatchObject({ status: 'retry', error: "waiting for a supplier's circuit breaker" });
        expect(await order(orderId)).toMatchObject({ status: 'processing', supplier_id: null });
      }
      expect(fake.transactions.has(orderId)).toBe(false);
      await repo.breaker.reset(supplierId, Date.now());
      expect(await run(orderId, 2)).toMatchObject({ status: 'done' });
      expect(await order(orderId)).toMatchObject({ status: 'success', supplier_id: supplierId });
      expect(fake.transactions.get(orderId)).toMatchObject({ status: 'Sukses' });
      expect(await ledger(orderId)).toEqual(['order_debit']);
      expect(await sandboxSaw(orderId)).toEqual([]);
    } finally {
      for (const r of before) await db().updateTable('product_routes').set({ cost: r.cost }).where('id', '=', r.id).execute();
      await repo.breaker.reset(supplierId, Date.now());
    }
  });

  it('a status query answered "not found" while the breaker holds that route waits for it: never sent to another route', async () => {
    const repo = new FulfilmentRepo(db(), t.platform.database.dialect);
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'pending' });
    const orderId = await place('FF-100', target);
    expect(await run(orderId, 0)).toMatchObject({ status: 'retry' });
    await repo.markSupplierUnavailable(supplierId, 'the supplier reports maintenance', Date.now());
    fake.failAll = '50';
    try {
      expect(await run(orderId, 1)).toMatchObject({ status: 'retry', error: "waiting for a supplier's circuit breaker" });
    } finally {
      fake.failAll = null;
      await repo.breaker.reset(supplierId, Date.now());
    }
    expect(await order(orderId)).toMatchObject({ status: 'processing', supplier_id: supplierId, supplier_ref: orderId });
    expect(await sandboxSaw(orderId)).toEqual([]);
    await fake.settle(orderId, { status: 'Sukses', sn: 'SN-HELD' });
    expect(await run(orderId, 2)).toMatchObject({ status: 'done' });
    expect(await order(orderId)).toMatchObject({ status: 'success', supplier_ref: orderId });
    expect(await ledger(orderId)).toEqual(['order_debit']);
    expect(await sandboxSaw(orderId)).toEqual([]);
  });

  it('a second route at the same Digiflazz account, after rc 53 on the first, is placed under its own ref_id', async () => {
    const target = randomTarget();
    const orderId = await place('FF-310', target);
    expect(await run(orderId, 0)).toMatchObject({ status: 'done' });
    expect(await order(orderId)).toMatchObject({ status: 'success', supplier_ref: `${orderId}-r2` });
    // The refused first attempt keeps its ref_id at the supplier; the second has its own.
    expect(fake.transactions.get(orderId)).toMatchObject({ buyer_sku_code: 'FF-OFF', status: 'Gagal', rc: '53' });
    expect(fake.transactions.get(`${orderId}-r2`)).toMatchObject({ buyer_sku_code: 'FF310', status: 'Sukses' });
    expect(await ledger(orderId)).toEqual(['order_debit']);
    expect(await sandboxSaw(orderId)).toEqual([]);
  });

  it('the attempt\'s ref_id is stored before it leaves: after a crash past the submission the same transaction is asked about, never bought twice', async () => {
    const target = randomTarget();
    fake.behaviours.set(target, { kind: 'pending' });
    const orderId = await place('FF-310', target);
    const stored: (string | null)[] = [];
    // The process "dies" once the second attempt's request has left: its answer is lost.
    const dying = fulfilWith((route) => {
      const real = t.platform.core.suppliers(route);
      return {
        available: (skus) => real.available(skus),
        health: () => real.health(),
        status: (ref, req) => real.status(ref, req),
        submit: async (req) => {
          stored.push((await order(orderId)).supplier_ref);
          const answer = await real.submit(req);
          if (req.reference !== orderId) throw new Error('process killed');
          return answer;
        },
      };
    });
    expect(await run(orderId, 0, dying)).toMatchObject({ status: 'retry' });
    // Each attempt's reference was in the store before its request left.
    expect(stored).toEqual([orderId, `${orderId}-r2`]);
    expect(fake.transactions.get(`${orderId}-r2`)).toMatchObject({ status: 'Pending', checks: 0 });

    // A webhook naming the earlier attempt's ref_id is stale: it brings nothing forward; one naming the attempt in flight does.
    const FAR = Date.now() + 86_400_000;
    const job = db().selectFrom('jobs').select('run_at').where('kind', '=', 'fulfil_order').where('payload', 'like', `${JSON.stringify({ orderId }).slice(0, -1)}%`);
    await db().updateTable('jobs').set({ run_at: FAR }).where('kind', '=', 'fulfil_order').where('payload', 'like', `${JSON.stringify({ orderId }).slice(0, -1)}%`).execute();
    const hook = `${t.origin}/hooks/digiflazz/${supplierId}`;
    expect((await fake.pushWebhook(hook, JSON.stringify({ data: { ref_id: orderId, status: 'Gagal', rc: '53' } }))).status).toBe(200);
    expect(Number((await job.executeTakeFirstOrThrow()).run_at)).toBe(FAR);
    await fake.settle(`${orderId}-r2`, { status: 'Sukses', sn: 'SN-R2' }, hook);
    expect(Number((await job.executeTakeFirstOrThrow()).run_at)).toBeLessThan(FAR);
    now += 1_000;
    expect(await run(orderId, 1)).toMatchObject({ status: 'done' });
    expect(await order(orderId)).toMatchObject({ status: 'success', supplier_ref: `${orderId}-r2` });
    expect(fake.transactions.get(`${orderId}-r2`)!.checks).toBe(1);
    expect([...fake.transactions.values()].filter((x) => x.customer_no === target && x.status !== 'Gagal')).toHaveLength(1);
    expect(fake.transactions.has(`${orderId}-r3`)).toBe(false);
    expect(await ledger(orderId)).toEqual(['order_debit']);
  });
});
