import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { randomTarget, startDigiflazzService, type DigiflazzService } from '../support/digiflazz-service.js';
import type { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import type { FakeDigiflazz } from '../support/fake-digiflazz.js';

/**
 * What a price-list sync and an import leave on a Digiflazz route (issue 35 items 4 and 5):
 * the route's cost (max_price) follows the supplier's price, a margin fallen below the rule
 * goes through the below-cost policy, and a zone game's routes send the zone. Against the
 * fake Digiflazz server, which refuses a price above max_price. The tests build on each other.
 */
describe.each(storeKinds())('digiflazz: cost follows the supplier, zone games import (%s)', (kind) => {
  let svc: DigiflazzService;
  let t: TestApp;
  let fake: FakeDigiflazz;
  let op: JsonClient;
  let supplierId = '';
  const db = () => t.platform.database.db;
  const sync = async () => {
    const r = await op.post(`/suppliers/${supplierId}/sync`);
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };
  const routeTo = (sku: string) => db().selectFrom('product_routes').selectAll().where('supplier_id', '=', supplierId).where('supplier_sku', '=', sku).executeTakeFirstOrThrow();
  const sent = (sku: string) => fake.requests.filter((q) => q.path === '/transaction' && q.body?.buyer_sku_code === sku);
  const balance = async () => Number((await t.client.get('/balance')).body.data.balance);
  const openItems = async () => (await op.get('/attention-items')).body.data.items as any[];
  const importSkus = async (skus: string[], category: string, extra: Record<string, unknown> = {}) => {
    const body = { supplier: 'Digiflazz', skus, category, catalog: 'Demo catalog', ...extra };
    const preview = await op.post('/imports/preview', body);
    expect(preview.status, preview.text).toBe(200);
    const applied = await op.post('/imports/apply', { ...body, preview_token: preview.body.data.preview_token });
    expect(applied.status, applied.text).toBe(200);
    return applied.body.data.items as any[];
  };
  const order = async (code: string, zone?: string) => {
    const ref = uniqueRef('cf');
    const target = randomTarget();
    const r = await t.client.post('/order', { ref_id: ref, product_code: code, target, ...(zone ? { zone } : {}) });
    return { r, ref, target };
  };

  beforeAll(async () => {
    ({ t, fake, op, supplierId } = svc = await startDigiflazzService(kind, {
      products: [
        { buyer_sku_code: 'CF-1', product_name: 'FF 50 Diamonds', price: 10_000, unlimited_stock: true },
        { buyer_sku_code: 'CF-2', product_name: 'FF 100 Diamonds', price: 20_000, unlimited_stock: true },
        { buyer_sku_code: 'CF-3', product_name: 'FF 150 Diamonds', price: 30_000, unlimited_stock: true },
        { buyer_sku_code: 'MLZ-86', product_name: 'ML 86 Diamonds', price: 18_000, unlimited_stock: true },
        { buyer_sku_code: 'MLZ-172', product_name: 'ML 172 Diamonds', price: 36_000, unlimited_stock: true },
        { buyer_sku_code: 'ROZ-60', product_name: 'RO 60 Nyan Berry', price: 12_000, unlimited_stock: true },
      ],
    }));
    await sync();
    // Gold (the demo reseller's tier): cost + 5 %, rounded up to 1 000: 11 000, 21 000, 32 000 (slack above the rule's minimum).
    expect((await op.post('/margin-rules', { scope: 'catalog', scope_id: 'Demo catalog', step: 1_000, tiers: { gold: { percent_bp: 500 } } })).status).toBe(200);
    const items = await importSkus(['CF-1', 'CF-2', 'CF-3'], 'free-fire');
    expect(items.map((i) => [i.sku, i.prices.gold])).toEqual([['CF-1', 11_000], ['CF-2', 21_000], ['CF-3', 32_000]]);
  });
  afterAll(async () => svc?.close());

  it('a rise that stays below the sell price and within the margin: the route takes the new cost and orders keep being delivered', async () => {
    fake.products.get('CF-1')!.price = 10_400;
    const report = await sync();
    const route = await routeTo('CF-1');
    expect(report.below_cost).toEqual([]);
    expect(report.cost_followed).toEqual([{ route_id: route.id, product_code: 'CF-1', sku: 'CF-1', before: 10_000, after: 10_400 }]);
    expect([Number(route.cost), Number(route.enabled)]).toEqual([10_400, 1]);

    const before = await balance();
    const { r, ref } = await order('CF-1');
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    expect(sent('CF-1').at(-1)!.body.max_price).toBe(10_400);
    expect(await balance()).toBe(before - 11_000);
    const listed = (await t.client.get('/products?category_slug=free-fire')).body.data.products.find((p: any) => p.code === 'CF-1');
    expect(listed).toMatchObject({ status: 'active', price: 11_000 });
    expect(await openItems()).toEqual([]);
    expect(JSON.parse((await db().selectFrom('audit_log').select('after').where('action', '=', 'supplier.sync').orderBy('id', 'desc').executeTakeFirstOrThrow()).after!)).toMatchObject({ route_costs_followed: 1 });
  });

  it('a rise that leaves a price below the margin rule\'s minimum goes through the below-cost policy (disable_route) and the attention list', async () => {
    fake.products.get('CF-2')!.price = 20_500; // below the sell price 21 000, but 20 500 + 5 % = 21 525
    const report = await sync();
    const route = await routeTo('CF-2');
    expect(report.below_cost).toEqual([{ route_id: route.id, product_code: 'CF-2', sku: 'CF-2', cost: 20_500, lowest_price: 21_000, reached: 'margin', action: 'route_disabled', reason: 'policy', prices: [] }]);
    expect([Number(route.cost), Number(route.enabled)]).toEqual([20_500, 0]);
    const [item] = await openItems();
    expect(item).toMatchObject({ kind: 'below_cost', target_id: route.id, details: { action: 'route_disabled', reached: 'margin', cost: 20_500, cost_before: 20_000 } });
    expect(item.summary).toContain("below the margin rule's minimum");
    const { r } = await order('CF-2');
    expect([r.status, r.body.error]).toEqual([503, 'ORDER_FAILED_SUPPLIER_GATE']);
    // The same cost again: nothing more to do.
    expect((await sync()).below_cost).toEqual([]);
    expect(await openItems()).toHaveLength(1);
  });

  it('a rise above the sell price: the policy and an attention item, as before', async () => {
    fake.products.get('CF-3')!.price = 33_000;
    const report = await sync();
    const route = await routeTo('CF-3');
    expect(report.below_cost).toEqual([{ route_id: route.id, product_code: 'CF-3', sku: 'CF-3', cost: 33_000, lowest_price: 32_000, reached: 'cost', action: 'route_disabled', reason: 'policy', prices: [] }]);
    expect(Number(route.enabled)).toBe(0);
    expect((await openItems()).map((i) => [i.target_id, i.details.reached])).toContainEqual([route.id, 'cost']);
  });

  it('under reprice, a margin below the rule is repriced by it; the route takes the new cost and orders are delivered at the new price', async () => {
    expect((await op.patch(`/suppliers/${supplierId}`, { below_cost_policy: 'reprice' })).status).toBe(200);
    fake.products.get('CF-1')!.price = 10_800; // 10 800 + 5 % = 11 340 > 11 000 → 12 000
    const report = await sync();
    const route = await routeTo('CF-1');
    expect(report.below_cost).toMatchObject([{ route_id: route.id, reached: 'margin', action: 'repriced', prices: [{ tier: 'gold', before: 11_000, after: 12_000 }] }]);
    expect([Number(route.cost), Number(route.enabled)]).toEqual([10_800, 1]);
    expect(await openItems()).toHaveLength(3);

    const before = await balance();
    const { r, ref } = await order('CF-1');
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    expect(sent('CF-1').at(-1)!.body.max_price).toBe(10_800);
    expect(await balance()).toBe(before - 12_000);
  });

  it('importing into a game with one server field gives its routes "{target}{zone}": orders send the user id followed by the zone', async () => {
    // ML-172 already routed here with the default format (zone left out): the import repairs it.
    expect((await op.post('/routes', { product_code: 'ML-172', supplier: 'Digiflazz', sku: 'MLZ-172', priority: 9, cost: 36_000, options: { testing: true } })).status).toBe(200);
    const items = await importSkus(['MLZ-86', 'MLZ-172'], 'mobile-legends');
    expect(items.map((i) => [i.sku, i.action, i.route.customer_no, i.route.customer_no_before, i.warnings])).toEqual([
      ['MLZ-86', 'create', '{target}{zone}', null, []],
      ['MLZ-172', 'update', '{target}{zone}', null, []],
    ]);
    expect(JSON.parse((await routeTo('MLZ-86')).options!)).toEqual({ customerNo: '{target}{zone}' });
    // Its other options stay.
    expect(JSON.parse((await routeTo('MLZ-172')).options!)).toEqual({ testing: true, customerNo: '{target}{zone}' });

    const { r, ref, target } = await order('MLZ-86', '2001');
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    expect(sent('MLZ-86').map((q) => q.body.customer_no)).toEqual([`${target}2001`]);
  });

  it('a game with several server fields is refused until customer_no is given, which must carry the zone', async () => {
    const body = { supplier: 'Digiflazz', skus: ['ROZ-60'], category: 'ragnarok-origin', catalog: 'Demo catalog' };
    const refused = await op.post('/imports/preview', body);
    expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    expect(refused.body.message).toContain('send customer_no');
    expect(refused.body.message).toContain('region, server');
    const noZone = await op.post('/imports/preview', { ...body, customer_no: '{target}-x' });
    expect([noZone.status, noZone.body.message]).toEqual([400, expect.stringContaining('customer_no must contain {zone}')]);
    expect((await op.post('/imports/preview', { ...body, customer_no: '{nope}{target}' })).body.error).toBe('VALIDATION_ERROR');
    expect(await db().selectFrom('product_routes').select('id').where('supplier_sku', '=', 'ROZ-60').execute()).toEqual([]);

    const [item] = await importSkus(['ROZ-60'], 'ragnarok-origin', { customer_no: '{target}|{zone}' });
    expect(item.route.customer_no).toBe('{target}|{zone}');
    const { r, ref, target } = await order('ROZ-60', 'sea|prontera-1');
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    expect(sent('ROZ-60').map((q) => q.body.customer_no)).toEqual([`${target}|sea|prontera-1`]);
  });

  it('a route PATCH merges its options: the ones left out stay, null removes one, a bad result changes nothing', async () => {
    const { id } = await routeTo('MLZ-86');
    const testing = await op.patch(`/routes/${id}`, { options: { testing: true } });
    expect(testing.status, testing.text).toBe(200);
    expect(testing.body.data.options).toEqual({ customer_no: '{target}{zone}', testing: true });
    expect((await op.patch(`/routes/${id}`, { priority: 2 })).body.data.options).toEqual({ customer_no: '{target}{zone}', testing: true });
    const bad = await op.patch(`/routes/${id}`, { options: { customer_no: 'no-target-here' } });
    expect([bad.status, bad.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await op.patch(`/routes/${id}`, { options: { unknown: 1 } })).status).toBe(400);
    const cleared = await op.patch(`/routes/${id}`, { options: { testing: null } });
    expect(cleared.body.data.options).toEqual({ customer_no: '{target}{zone}' });
    expect((await op.patch(`/routes/${id}`, { options: { customer_no: null } })).body.data.options).toEqual({});
    expect((await routeTo('MLZ-86')).options).toBeNull();
  });
});
