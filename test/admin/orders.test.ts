import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_KINDS } from '../../src/store/jobs-repo.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import type { ResellerClient } from '../support/client.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: orders (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let fulfilment: FulfilmentRepo;
  // No worker runs here: orders stay processing until the test finishes them through the repo.
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
    fulfilment = new FulfilmentRepo(t.platform.database.db, t.platform.database.dialect);
  });
  afterAll(async () => t?.close());

  async function place(client: ResellerClient, ref = uniqueRef()): Promise<{ id: string; ref: string; code: string }> {
    const r = await client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    return { id: r.body.data.order_id, ref, code: r.body.data.order_code };
  }
  const orderRow = (id: string) => t.platform.database.db.selectFrom('orders').select(['status', 'completed_at', 'serial_number']).where('id', '=', id).executeTakeFirstOrThrow();
  const jobsFor = async (orderId: string, kind: string) =>
    (await t.platform.database.db.selectFrom('jobs').select(['kind', 'payload']).where('kind', '=', kind).execute()).filter((j) => JSON.parse(j.payload).orderId === orderId);

  it('searches across resellers by status, reseller, ref_id, dates and needs_attention, newest first', async () => {
    const a = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const b = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const a1 = await place(a.client);
    const b1 = await place(b.client);
    const a2 = await place(a.client);
    await fulfilment.succeed(a1.id, 'SRL-SN00000001', Date.now());
    await fulfilment.flagForOperator(a2.id, Date.now());

    const byReseller = await op.get(`/orders?reseller_id=${a.id}`);
    expect(byReseller.status, byReseller.text).toBe(200);
    expect(byReseller.body.data.orders.map((o: any) => o.order_id)).toEqual([a2.id, a1.id]);
    expect(byReseller.body.meta).toMatchObject({ total: 2, page: 1 });
    expect(byReseller.body.data.orders[1]).toMatchObject({ reseller_id: a.id, status: 'success', serial_number: 'SRL-SN00000001', price: 15000, needs_attention: false });

    expect((await op.get(`/orders?ref_id=${b1.ref}`)).body.data.orders.map((o: any) => o.order_id)).toEqual([b1.id]);
    const success = (await op.get(`/orders?status=success&reseller_id=${a.id}`)).body.data.orders;
    expect(success.map((o: any) => o.order_id)).toEqual([a1.id]);
    const attention = (await op.get('/orders?needs_attention=true')).body.data.orders;
    expect(attention.map((o: any) => o.order_id)).toEqual([a2.id]);
    const all = await op.get('/orders?limit=2');
    expect(all.body.meta).toMatchObject({ limit: 2, has_more: true });
    expect(all.body.data.orders[0].order_id).toBe(a2.id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await op.get(`/orders?start_date=${today}&reseller_id=${b.id}`)).body.data.orders).toHaveLength(1);
    expect((await op.get(`/orders?end_date=2020-01-01&reseller_id=${b.id}`)).body.data.orders).toHaveLength(0);

    expectJsonError(await op.get('/orders?status=lost'), 400, 'INVALID_STATUS_FILTER');
    expectJsonError(await op.get('/orders?start_date=2026-01-01&end_date=2026-12-31'), 400, 'DATE_RANGE_TOO_LARGE');
    expectJsonError(await op.get('/orders?start_date=yesterday'), 400, 'INVALID_DATE_RANGE');
    expectJsonError(await op.get('/orders?page=0'), 400, 'INVALID_PAGINATION');
    expectJsonError(await op.get('/orders?needs_attention=maybe'), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.get('/orders?sort=asc'), 400, 'VALIDATION_ERROR');
  });

  it('shows one order with its ledger entries, callback log and fulfilment facts', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    const v = await op.get(`/orders/${o.id}`);
    expect(v.status, v.text).toBe(200);
    expect(v.body.data).toMatchObject({ order_id: o.id, order_code: o.code, status: 'processing', reseller_id: r.id, fulfilment: { supplier: null, routes_tried: 0, needs_attention: false }, callbacks: [] });
    expect(v.body.data.ledger).toEqual([expect.objectContaining({ type: 'order_debit', amount: -15000, order_id: o.id, ref_id: o.ref })]);
    expectJsonError(await op.get('/orders/00000000-0000-0000-0000-000000000000'), 404, 'NOT_FOUND');
    // The ORD- code names the order too, in any case, as the CLI takes it.
    for (const code of [o.code, o.code.toLowerCase()]) {
      const byCode = await op.get(`/orders/${code}`);
      expect(byCode.status, byCode.text).toBe(200);
      expect(byCode.body.data).toEqual(v.body.data);
    }
    expectJsonError(await op.get('/orders/ORD-000000000000'), 404, 'NOT_FOUND');
  });

  it('refunds and resends by ORD- code', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    await fulfilment.succeed(o.id, 'SRL-SN00000009', Date.now());
    const resent = await op.post(`/orders/${o.code}/resend-callback`, {});
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.order_id).toBe(o.id);
    const refunded = await op.post(`/orders/${o.code}/refund`, { note: 'by code' });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.data).toMatchObject({ order_id: o.id, status: 'refunded' });
  });

  it('refunds a success order once: status refunded, order_refund entry, completed_at kept, no callback, audited', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    const doneAt = Date.now() - 1000;
    await fulfilment.succeed(o.id, 'SRL-SN00000002', doneAt);
    const callbacksBefore = (await jobsFor(o.id, JOB_KINDS.deliverCallback)).length;

    const res = await op.post(`/orders/${o.id}/refund`, { note: 'customer never received the diamonds' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'refunded', completed_at: new Date(doneAt).toISOString() });
    expect(res.body.data.ledger.map((e: any) => [e.type, e.amount, e.note])).toEqual([
      ['order_debit', -15000, null],
      ['order_refund', 15000, 'customer never received the diamonds'],
    ]);
    expect((await r.client.get('/balance')).body.data.balance).toBe(100_000);
    expect((await r.client.get(`/order-status?ref_id=${o.ref}`)).body.data.status).toBe('refunded');
    expect((await jobsFor(o.id, JOB_KINDS.deliverCallback)).length).toBe(callbacksBefore);

    const [line] = (await op.get(`/audit?target_kind=order&target_id=${o.id}`)).body.data.entries;
    expect(line).toMatchObject({ action: 'order.refund', before: { status: 'success' }, after: { status: 'refunded', refunded: 15000, balance_after: 100_000 }, note: 'customer never received the diamonds' });
    await ledgerConsistent(t.platform.database.db);
  });

  it('refunds a stuck processing order; the worker can then neither complete, fail nor refund it again', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    const res = await op.post(`/orders/${o.id}/refund`, { note: 'stuck at the supplier for a day' });
    expect(res.status, res.text).toBe(200);
    const after = await orderRow(o.id);
    expect(after.status).toBe('refunded');
    expect(after.completed_at).not.toBeNull();

    expect(await fulfilment.succeed(o.id, 'SRL-LATE000001', Date.now())).toBeNull();
    expect(await fulfilment.fail(o.id, { code: 'SUPPLIER_REJECTED', reason: 'late' } as never, Date.now())).toBeNull();
    // The order's fulfilment job, run now, sees the order is no longer processing and stops.
    const outcome = await t.platform.jobHandlers[JOB_KINDS.fulfilOrder]!({ id: 0, kind: JOB_KINDS.fulfilOrder, payload: { orderId: o.id }, attempts: 1 } as never);
    expect(outcome).toMatchObject({ status: 'done' });
    expect(await orderRow(o.id)).toEqual(after);
    expect((await r.client.get('/balance')).body.data.balance).toBe(100_000);
    await ledgerConsistent(t.platform.database.db);
  });

  it('refuses failed (already refunded) and refunded (final) orders with INVALID_STATE, changing nothing', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const failed = await place(r.client);
    await fulfilment.fail(failed.id, { code: 'SUPPLIER_REJECTED', reason: 'rejected' } as never, Date.now());
    const refunded = await place(r.client);
    expect((await op.post(`/orders/${refunded.id}/refund`, { note: 'first' })).status).toBe(200);

    const before = await stateSnapshot(t.platform);
    const auditBefore = (await op.get('/audit')).body.meta.total;
    expectJsonError(await op.post(`/orders/${failed.id}/refund`, { note: 'again' }), 409, 'INVALID_STATE');
    expectJsonError(await op.post(`/orders/${refunded.id}/refund`, { note: 'again' }), 409, 'INVALID_STATE');
    expectJsonError(await op.post(`/orders/${refunded.id}/refund`, {}), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post(`/orders/${refunded.id}/refund`, { note: '  ' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post(`/orders/${refunded.id}/refund`, { note: 'x', amount: 1 }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/orders/00000000-0000-0000-0000-000000000000/refund', { note: 'x' }), 404, 'NOT_FOUND');
    expect(await stateSnapshot(t.platform)).toEqual(before);
    expect((await op.get('/audit')).body.meta.total).toBe(auditBefore);
    expect((await orderRow(failed.id)).status).toBe('failed');
  });

  it('10 simultaneous refunds of one order: one 200, nine INVALID_STATE, exactly one refund entry', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    await fulfilment.succeed(o.id, 'SRL-SN00000003', Date.now());
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => op.post(`/orders/${o.id}/refund`, { note: `race ${i}` })));
    expect(results.filter((x) => x.status === 200)).toHaveLength(1);
    for (const x of results.filter((x) => x.status !== 200)) expectJsonError(x, 409, 'INVALID_STATE');
    const refunds = await t.platform.database.db.selectFrom('ledger_entries').select('id').where('order_id', '=', o.id).where('type', '=', 'order_refund').execute();
    expect(refunds).toHaveLength(1);
    expect((await r.client.get('/balance')).body.data.balance).toBe(100_000);
    expect((await op.get(`/audit?action=order.refund&target_id=${o.id}`)).body.meta.total).toBe(1);
    await ledgerConsistent(t.platform.database.db);
  });

  it('resends the callback of a success or failed order (a new round, audited); refuses others', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const o = await place(r.client);
    expectJsonError(await op.post(`/orders/${o.id}/resend-callback`), 409, 'INVALID_STATE');
    await fulfilment.succeed(o.id, 'SRL-SN00000004', Date.now());
    const res = await op.post(`/orders/${o.id}/resend-callback`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ order_id: o.id, round: 2, queued: true });
    expect((await jobsFor(o.id, JOB_KINDS.deliverCallback)).length).toBe(2);
    const [line] = (await op.get(`/audit?action=order.resend_callback&target_id=${o.id}`)).body.data.entries;
    expect(line.after).toEqual({ round: 2 });
    expectJsonError(await op.post('/orders/00000000-0000-0000-0000-000000000000/resend-callback'), 404, 'NOT_FOUND');
  });
});

describe.each(storeKinds())('operator API: order search over more matches than it counts (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('counts up to 10,000 matches, says there are more, and refuses pages past them', async () => {
    const a = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const r = await a.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    // Copies of the placed order (the ledger is not the subject here: a reseller of its own).
    const db = t.platform.database.db;
    const row = await db.selectFrom('orders').selectAll().where('id', '=', r.body.data.order_id).executeTakeFirstOrThrow();
    const ids = Array.from({ length: 10_000 }, () => randomUUID());
    for (let i = 0; i < 10_000; i += 1000) {
      await db.insertInto('orders').values(Array.from({ length: 1000 }, (_, j) => ({
        ...row, id: ids[i + j]!, ref_id: `copy-${i + j}`, seq: Number(row.seq) + 1 + i + j, created_at: Number(row.created_at) - 1 - i - j,
      }))).execute();
    }
    const first = await op.get(`/orders?reseller_id=${a.id}&limit=100`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.meta).toMatchObject({ total: 10_000, total_pages: 100, has_more: true });
    expect(first.body.data.matches_capped).toBe(true);
    expect(first.body.data.orders[0].order_id).toBe(row.id);
    const last = await op.get(`/orders?reseller_id=${a.id}&limit=100&page=100`);
    expect(last.status, last.text).toBe(200);
    expect(last.body.meta).toMatchObject({ page: 100, has_more: false });
    expect(last.body.data.orders.at(-1).order_id).toBe(ids[9998]);
    expectJsonError(await op.get(`/orders?reseller_id=${a.id}&limit=100&page=101`), 400, 'INVALID_PAGINATION');

    const narrow = await op.get(`/orders?reseller_id=${a.id}&ref_id=copy-42`);
    expect(narrow.body.meta.total).toBe(1);
    expect(narrow.body.data.matches_capped).toBe(false);
  });
});
