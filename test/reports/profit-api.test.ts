import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, dayToIso } from '../../src/domain/report-calendar.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import type { ResellerClient } from '../support/client.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** GET /admin/v1/reports/profit and its CSV: figures read from the daily aggregates, days in Asia/Jakarta. */
describe.each(storeKinds())('operator API: profit report (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let fulfilment: FulfilmentRepo;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
    fulfilment = new FulfilmentRepo(t.platform.database.db, t.platform.database.dialect);
  });
  afterAll(async () => t?.close());

  async function place(client: ResellerClient): Promise<string> {
    const r = await client.post('/order', { ref_id: uniqueRef('pl'), product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    return r.body.data.order_id;
  }

  it('answers revenue, cost, margins and refunds by period and group, and the same as CSV', async () => {
    const gold = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const diamond = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000, tier: 'diamond' });
    const price = async (id: string) => Number((await t.platform.database.db.selectFrom('orders').select('price').where('id', '=', id).executeTakeFirstOrThrow()).price);
    // 2026-11-20 17:30 UTC is already 2026-11-21 in Jakarta.
    const day1 = Date.UTC(2026, 10, 20, 12, 0);
    const day2 = Date.UTC(2026, 10, 20, 17, 30);
    const a = await place(gold.client);
    const b = await place(gold.client);
    const c = await place(diamond.client);
    const d = await place(diamond.client);
    await fulfilment.succeed(a, 'SN-A', day1, undefined, { cost: 12_000 });
    await fulfilment.succeed(b, 'SN-B', day2, undefined, { cost: 11_500 });
    await fulfilment.succeed(c, 'SN-C', day2, undefined, { cost: null });
    await fulfilment.fail(d, { code: 'INVALID_ID', reason: 'no such player' } as never, day2);
    const refund = await op.post(`/orders/${b}/refund`, { note: 'never arrived' });
    expect(refund.status, refund.text).toBe(200);
    const [pa, pb, pc, pd] = [await price(a), await price(b), await price(c), await price(d)];
    const today = dayToIso(dayOf(Date.now(), 420));

    const r = await op.get(`/reports/profit?from=2026-11-20&to=${today}&granularity=day&group_by=tier`);
    expect(r.status, r.text).toBe(200);
    const rep = r.body.data;
    expect(rep).toMatchObject({ from: '2026-11-20', to: today, granularity: 'day', group_by: 'tier', time_zone: 'Asia/Jakarta', utc_offset: '+07:00', currency: 'IDR' });
    const revenue = pa + pb + pc;
    const cost = 12_000 + 11_500;
    expect(rep.totals).toEqual({
      delivered: 3, revenue, cost, cost_unknown: 1, gross_margin: revenue - cost, margin_bp: Math.trunc(((revenue - cost) * 10_000) / revenue),
      net_margin: revenue - cost - pb, refunds: 1, refunded: pd, manual_refunds: 1, manual_refunded: pb, manual_refunded_delivered: pb,
    });
    expect(rep.periods[0]).toMatchObject({ start: '2026-11-20', end: '2026-11-20', delivered: 1, revenue: pa, cost: 12_000 });
    expect(rep.periods[1]).toMatchObject({ start: '2026-11-21', delivered: 2, revenue: pb + pc, refunds: 1 });
    expect(rep.periods.at(-1)).toMatchObject({ start: today, manual_refunds: 1, manual_refunded: pb });
    expect(rep.groups.map((g: { key: string }) => g.key).sort()).toEqual(['diamond', 'gold']);
    expect(rep.groups.find((g: { key: string }) => g.key === 'gold')).toMatchObject({ delivered: 2, revenue: pa + pb, name: 'gold' });

    // Weeks start on Monday (2026-11-16); months on the 1st; each period is cut to the range.
    const w = (await op.get(`/reports/profit?from=2026-11-20&to=2026-11-30&granularity=week`)).body.data;
    expect(w.periods.map((p: { start: string; end: string }) => [p.start, p.end])).toEqual([['2026-11-20', '2026-11-22'], ['2026-11-23', '2026-11-29'], ['2026-11-30', '2026-11-30']]);
    expect(w.periods[0]).toMatchObject({ delivered: 3, revenue });
    const m = (await op.get(`/reports/profit?from=2026-10-01&to=2026-12-31&granularity=month&group_by=reseller`)).body.data;
    expect(m.periods.map((p: { start: string }) => p.start)).toEqual(['2026-10-01', '2026-11-01', '2026-12-01']);
    expect(m.periods[1]).toMatchObject({ delivered: 3, revenue, cost });
    expect(m.groups.find((g: { key: string }) => g.key === diamond.id)).toMatchObject({ delivered: 1, cost_unknown: 1, refunds: 1 });
    expect(m.groups.find((g: { key: string }) => g.key === diamond.id).name).toEqual(expect.any(String));
    for (const g of ['product', 'category', 'supplier', 'none']) {
      const x = await op.get(`/reports/profit?from=2026-11-01&to=2026-11-30&group_by=${g}`);
      expect(x.status, x.text).toBe(200);
      expect(x.body.data.totals.delivered).toBe(3);
    }

    const csv = await fetch(`${t.origin}/admin/v1/reports/profit/export.csv?from=2026-11-20&to=2026-11-21&group_by=tier`, { headers: { authorization: `Bearer ${op.token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n').map((l) => l.split(','));
    expect(lines[0]).toEqual(['period_start', 'group_by', 'key', 'name', 'delivered', 'revenue', 'cost', 'cost_unknown', 'gross_margin', 'margin_percent', 'net_margin', 'refunds', 'refunded', 'manual_refunds', 'manual_refunded', 'manual_refunded_delivered']);
    const gold21 = lines.find((l) => l[0] === '2026-11-21' && l[2] === 'gold')!;
    expect(gold21.slice(4, 9)).toEqual(['1', String(pb), '11500', '0', String(pb - 11_500)]);
    expect(gold21[9]).toBe(`${Math.trunc(((pb - 11_500) * 10_000) / pb / 100)}.${String(Math.trunc(((pb - 11_500) * 10_000) / pb) % 100).padStart(2, '0')}`);
  });

  it("the operator's home shows today's revenue, cost and margin from the same aggregates", async () => {
    const shop = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const id = await place(shop.client);
    await fulfilment.succeed(id, 'SN-TODAY', Date.now(), undefined, { cost: 10_000 });
    const price = Number((await t.platform.database.db.selectFrom('orders').select('price').where('id', '=', id).executeTakeFirstOrThrow()).price);
    const o = await op.get('/overview');
    expect(o.status, o.text).toBe(200);
    expect(o.body.data.today).toEqual({ delivered: 1, revenue: price, cost: 10_000, gross_margin: price - 10_000, margin_bp: Math.trunc(((price - 10_000) * 10_000) / price) });
  });

  it('refuses bad filters with a code and a message', async () => {
    expectJsonError(await op.get('/reports/profit?from=2026-13-01'), 400, 'INVALID_DATE_RANGE');
    expectJsonError(await op.get('/reports/profit?from=2026-11-02&to=2026-11-01'), 400, 'INVALID_DATE_RANGE');
    expectJsonError(await op.get('/reports/profit?from=2020-01-01&to=2026-01-01&granularity=day'), 400, 'DATE_RANGE_TOO_LARGE');
    expectJsonError(await op.get('/reports/profit?granularity=hour'), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.get('/reports/profit?group_by=colour'), 400, 'VALIDATION_ERROR');
  });
});

describe.each(storeKinds())('profit report: cost of a fulfilled order (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
  });
  afterAll(async () => t?.close());

  it('a delivered order carries the cost of the route that delivered it, and is counted at once', async () => {
    const ref = uniqueRef('cost');
    const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    const { db } = t.platform.database;
    const o = await db.selectFrom('orders').select(['cost', 'supplier_id', 'supplier_sku', 'price']).where('id', '=', r.body.data.order_id).executeTakeFirstOrThrow();
    const route = await db.selectFrom('product_routes').select('cost').where('supplier_id', '=', o.supplier_id!).where('supplier_sku', '=', o.supplier_sku!).where('product_code', '=', 'FF-100').executeTakeFirstOrThrow();
    expect(Number(o.cost)).toBe(Number(route.cost));
    expect(Number(o.cost)).toBeGreaterThan(0);
    const op = await operatorClient(t);
    const rep = (await op.get('/reports/profit?group_by=supplier')).body.data;
    expect(rep.groups).toEqual([expect.objectContaining({ key: o.supplier_id, delivered: 1, revenue: Number(o.price), cost: Number(o.cost) })]);
  });
});
