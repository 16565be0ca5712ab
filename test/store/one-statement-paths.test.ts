import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbacksRepo } from '../../src/store/callbacks-repo.js';
import { FulfilmentRepo, type Settled } from '../../src/store/fulfilment-repo.js';
import { JOB_KINDS } from '../../src/store/jobs-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/**
 * Rules written twice: on PostgreSQL the worker reads an order with its routes, settles a
 * success and records a callback attempt each in one statement (data-modifying CTEs);
 * SQLite does each in steps. Both run here on the same PostgreSQL store (the stepwise paths
 * are portable SQL), on the same rows, and must give the same answers and leave the same rows.
 */
describe.each(storeKinds().filter((k) => k === 'postgres'))('one-statement and stepwise paths agree (%s)', (kind) => {
  let t: TestApp;
  let oneStatement: FulfilmentRepo;
  let stepwise: FulfilmentRepo;
  const db = () => t.platform.database.db;
  beforeAll(async () => {
    t = await startTestApp(kind);
    oneStatement = new FulfilmentRepo(db(), 'postgres');
    stepwise = new FulfilmentRepo(db(), 'sqlite');
  });
  afterAll(async () => t?.close());

  async function place(client: Awaited<ReturnType<typeof createReseller>>['client']) {
    const r = await client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    return r.body.data.order_id as string;
  }

  it('read an order with its usable routes, best first, the same way', async () => {
    const now = Date.now();
    const suppliers = [
      { id: 'agree-b', name: 'Agree B', status: 'active' as const, enabled: 1 },
      { id: 'agree-off', name: 'Agree off', status: 'active' as const, enabled: 0 },
      { id: 'agree-maint', name: 'Agree maintenance', status: 'maintenance' as const, enabled: 1 },
    ];
    await db().insertInto('suppliers').values(suppliers.map((s) => ({ ...s, adapter: 'sandbox', credentials_enc: null, created_at: now }))).execute();
    await db()
      .insertInto('product_routes')
      .values([
        { id: 'agree-r1', product_code: 'FF-100', supplier_id: 'agree-b', supplier_sku: 'B-FF100', cost: 14_000, priority: 5, enabled: 1, created_at: now, options: JSON.stringify({ customerNo: '{target}|{zone}', testing: true }) },
        { id: 'agree-r2', product_code: 'FF-100', supplier_id: 'agree-b', supplier_sku: 'B-FF100-OLD', cost: 13_000, priority: 6, enabled: 0, created_at: now },
        { id: 'agree-r3', product_code: 'FF-100', supplier_id: 'agree-off', supplier_sku: 'X', cost: 1, priority: 0, enabled: 1, created_at: now },
        { id: 'agree-r4', product_code: 'FF-100', supplier_id: 'agree-maint', supplier_sku: 'M', cost: 1, priority: 0, enabled: 1, created_at: now },
      ])
      .execute();
    await db().insertInto('supplier_health').values({ supplier_id: 'agree-b', consecutive_failures: 2, last_error: 'timeout', updated_at: now }).execute();
    const reseller = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const orderId = await place(reseller.client);

    const a = await oneStatement.orderWithRoutes(orderId);
    const b = await stepwise.orderWithRoutes(orderId);
    expect(a).toEqual(b);
    // The fixture exercises every rule: the failing supplier's route is usable and flagged,
    // after the demo's routes of lower priority; disabled and maintenance ones are left out.
    const agree = a!.routes.filter((r) => r.supplierId.startsWith('agree-'));
    expect(agree).toEqual([{ supplierId: 'agree-b', supplierName: 'Agree B', adapter: 'sandbox', sku: 'B-FF100', cost: 14_000, options: { customerNo: '{target}|{zone}', testing: true }, failing: true, breaker: 'closed' }]);
    expect(a!.routes.length).toBeGreaterThan(1);
    expect(await oneStatement.orderWithRoutes('no-such-order')).toBeNull();
    expect(await stepwise.orderWithRoutes('no-such-order')).toBeNull();
  });

  /** Two orders of one reseller with a callback URL, each with its fulfil job held by a runner, as the worker holds it while it settles. */
  async function heldOrders() {
    const reseller = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    await db().updateTable('resellers').set({ callback_url: 'https://shop.example/callback' }).where('id', '=', reseller.id).execute();
    const ids = [await place(reseller.client), await place(reseller.client)];
    const lease = { holder: 'agree-runner', until: Date.now() + 60_000 };
    const jobs = await db().selectFrom('jobs').select(['id', 'payload']).where('kind', '=', JOB_KINDS.fulfilOrder).execute();
    const held = await Promise.all(
      ids.map(async (orderId) => {
        const job = jobs.find((r) => JSON.parse(r.payload).orderId === orderId)!;
        await db().updateTable('jobs').set({ locked_by: lease.holder, locked_until: lease.until }).where('id', '=', job.id).execute();
        return { id: Number(job.id), lease, payload: { requestId: 'req-agree' } };
      }),
    );
    return { ids: ids as [string, string], held };
  }

  /** The two orders settled, the first in one statement, the second in steps. */
  async function settledPair(now: number) {
    const { ids, held } = await heldOrders();
    const settled = [await oneStatement.succeed(ids[0], 'SN-AGREE', now, held[0]), await stepwise.succeed(ids[1], 'SN-AGREE', now, held[1])];
    return { ids, held, settled };
  }

  it('settle a success into the same order, callback job, delivery and finished job', async () => {
    const now = Date.now();
    const { ids, held, settled } = await settledPair(now);
    const [a, b] = await Promise.all([written(ids[0], settled[0]!, held[0]!.id), written(ids[1], settled[1]!, held[1]!.id)]);
    expect(a).toEqual(b);
    expect(a.heldJobLeft).toBe(false);
    expect(a.settled).toMatchObject({ jobDone: true, callback: { kind: JOB_KINDS.deliverCallback, prepared: { target: { callbackUrl: 'https://shop.example/callback' } } } });
    // Settled once: a second settlement of either finds nothing to do, on both paths.
    expect(await oneStatement.succeed(ids[1], 'SN-AGAIN', now)).toBeNull();
    expect(await stepwise.succeed(ids[0], 'SN-AGAIN', now)).toBeNull();
  });

  it.each([
    { outcome: 'a retry', httpStatus: 500, next: { status: 'pending' as const, nextAttemptAt: 1_000_000 } },
    { outcome: 'a delivery', httpStatus: 200, next: { status: 'delivered' as const, nextAttemptAt: null } },
  ])('record $outcome into the same attempt, delivery and callback job', async ({ httpStatus, next }) => {
    const now = Date.now();
    const { ids, settled } = await settledPair(now);
    const paths = [new CallbacksRepo(db(), 'postgres'), new CallbacksRepo(db(), 'sqlite')];
    const after = await Promise.all(
      ids.map(async (orderId, i) => {
        const callback = settled[i]!.callback;
        const delivery = (callback.prepared as { delivery: Parameters<CallbacksRepo['recordAttempt']>[0] }).delivery;
        const attempt = { attempt: 1, url: 'https://shop.example/callback', startedAt: now, durationMs: 12, httpStatus, error: httpStatus === 200 ? null : 'HTTP 500', snippet: 'ok' };
        await paths[i]!.recordAttempt(delivery, attempt, next, now + 20, { id: callback.id, holder: 'agree-runner' });
        const d = await db().selectFrom('callback_deliveries').selectAll().where('id', '=', delivery.id).executeTakeFirstOrThrow();
        const attempts = await db().selectFrom('callback_attempts').selectAll().where('delivery_id', '=', delivery.id).execute();
        const job = await db().selectFrom('jobs').select(['run_at', 'locked_by', 'locked_until', 'last_error', 'attempts']).where('id', '=', callback.id).executeTakeFirst();
        const { id: _d, order_id: _o, ...delivered } = d;
        return { delivery: delivered, attempts: attempts.map(({ id: _a, delivery_id: _x, ...a }) => a), job: job ?? null };
      }),
    );
    expect(after[0]).toEqual(after[1]);
    expect(after[0]!.attempts).toHaveLength(1);
    expect(after[0]!.job === null).toBe(next.nextAttemptAt === null);
  });

  /** What a settlement answered and wrote, with the values that differ by order (ids, refs) taken out. */
  async function written(orderId: string, settled: Settled | null, heldJobId: number) {
    const callbackPayload = settled?.callback.payload as { orderId: string } | undefined;
    const order = await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const jobs = await db().selectFrom('jobs').selectAll().where('kind', '=', JOB_KINDS.deliverCallback).execute();
    const job = jobs.find((j) => JSON.parse(j.payload).orderId === orderId)!;
    const delivery = await db().selectFrom('callback_deliveries').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    const heldJobLeft = (await db().selectFrom('jobs').select('id').where('id', '=', heldJobId).execute()).length > 0;
    const { id: _i, ref_id: _r, seq: _s, created_at: _c, updated_at: _u, ...orderRest } = order;
    const { id: _j, payload, ...jobRest } = job;
    const { id: _d, order_id: _o, ...deliveryRest } = delivery;
    const answer = settled && {
      jobDone: settled.jobDone,
      callback: {
        ...settled.callback,
        id: settled.callback.id === Number(job.id),
        payload: { ...callbackPayload, orderId: callbackPayload?.orderId === orderId },
        prepared: settled.callback.prepared && normalisePrepared(settled.callback.prepared, orderId, delivery.id),
      },
    };
    return { settled: answer, order: { ...orderRest, updated: order.updated_at === order.completed_at }, job: { ...jobRest, payload: { ...JSON.parse(payload), orderId: undefined } }, delivery: deliveryRest, heldJobLeft };
  }

  function normalisePrepared(prepared: unknown, orderId: string, deliveryId: string) {
    const p = prepared as { target: { order: Record<string, unknown>; callbackUrl: string | null; secretEnc: string | null }; delivery: Record<string, unknown> };
    const { id, refId: _r, createdAt: _c, ...order } = p.target.order;
    return {
      target: { ...p.target, order: { ...order, sameOrder: id === orderId } },
      delivery: { ...p.delivery, id: p.delivery.id === deliveryId, order_id: p.delivery.order_id === orderId },
    };
  }
});
