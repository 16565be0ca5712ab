import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { randomTarget, startDigiflazzService, type DigiflazzService } from '../support/digiflazz-service.js';
import type { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import type { FakeDigiflazz } from '../support/fake-digiflazz.js';

/**
 * Margin rules, importing Digiflazz SKUs as products (preview, then apply exactly that),
 * and never selling below cost (the reprice and disable_route policies, each with its audit
 * line and attention item), through the operator API against the fake Digiflazz server.
 * The tests build on each other in order.
 */
describe.each(storeKinds())('digiflazz margins, import and never below cost (%s)', (kind) => {
  let svc: DigiflazzService;
  let t: TestApp;
  let fake: FakeDigiflazz;
  let op: JsonClient;
  let supplierId = '';
  let demoCatalog = '';
  const db = () => t.platform.database.db;
  const sync = async () => {
    const r = await op.post(`/suppliers/${supplierId}/sync`);
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };
  const prices = async (code: string, catalogId = demoCatalog) =>
    Object.fromEntries((await db().selectFrom('catalog_prices').select(['tier', 'price']).where('product_code', '=', code).where('catalog_id', '=', catalogId).execute()).map((p) => [p.tier, Number(p.price)]));
  const routesTo = (sku: string) => db().selectFrom('product_routes').selectAll().where('supplier_id', '=', supplierId).where('supplier_sku', '=', sku).execute();
  const audits = (action: string) => db().selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
  const importBody = (skus: string[], extra: Record<string, unknown> = {}) => ({ supplier: 'Digiflazz', skus, category: 'free-fire', catalog: 'Demo catalog', ...extra });

  beforeAll(async () => {
    ({ t, fake, op, supplierId } = svc = await startDigiflazzService(kind, {
      products: [
        { buyer_sku_code: 'DZ-A', product_name: 'FF 140 Diamonds', price: 10_000, unlimited_stock: true },
        { buyer_sku_code: 'DZ-B', product_name: 'FF 355 Diamonds', price: 20_000, unlimited_stock: true, seller_product_status: false },
        { buyer_sku_code: 'DZ-C', product_name: 'FF 720 Diamonds', price: 30_000, unlimited_stock: true },
      ],
    }));
    expect(svc.created.below_cost_policy).toBe('disable_route');
    demoCatalog = (await db().selectFrom('catalogs').select('id').where('name', '=', 'Demo catalog').executeTakeFirstOrThrow()).id;
    await sync();
  });
  afterAll(async () => svc?.close());

  it('margin rules: created, replaced and deleted with audit lines; bad rules get a stable code and change nothing', async () => {
    const rule = { scope: 'category', scope_id: 'free-fire', step: 100, tiers: { gold: { percent_bp: 1000 }, platinum: { percent_bp: 700 }, diamond: { percent_bp: 500, fixed: 50 } } };
    const created = await op.post('/margin-rules', rule);
    expect(created.status, created.text).toBe(200);
    expect(created.body.data).toMatchObject({ scope: 'category', scope_id: 'free-fire', step: 100, tiers: { gold: { percent_bp: 1000, fixed: 0 }, diamond: { percent_bp: 500, fixed: 50 } } });
    expect((await op.post('/margin-rules', rule)).body.error).toBe('CONFLICT');
    for (const [body, status, code] of [
      [{ ...rule, scope_id: 'no-such-category' }, 404, 'NOT_FOUND'],
      [{ ...rule, scope: 'catalog', scope_id: 'No such catalog' }, 404, 'NOT_FOUND'],
      [{ ...rule, scope_id: 'valorant', tiers: {} }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', tiers: { gold: { percent_bp: 0, fixed: 0 } } }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', tiers: { gold: { percent_bp: 100_001 } } }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', tiers: { gold: { percent_bp: 10, fixed: 1e18 } } }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', tiers: { gold: { percent_bp: 1.5 } } }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', step: 0 }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', step: 0.5 }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope_id: 'valorant', tiers: { bronze: { percent_bp: 10 } } }, 400, 'VALIDATION_ERROR'],
      [{ ...rule, scope: 'product' }, 400, 'VALIDATION_ERROR'],
    ] as const) {
      const r = await op.post('/margin-rules', body);
      expect([r.status, r.body.error], JSON.stringify(body)).toEqual([status, code]);
      expect(r.body.success).toBe(false);
    }
    expect((await op.get('/margin-rules')).body.data.rules).toHaveLength(1);

    // The catalog's rule (by name) wins over the category rule: all three tiers, step 500.
    const catalogRule = await op.post('/margin-rules', { scope: 'catalog', scope_id: 'Demo catalog', step: 500, tiers: { gold: { percent_bp: 2000 }, platinum: { percent_bp: 1000 } } });
    expect(catalogRule.status, catalogRule.text).toBe(200);
    expect(catalogRule.body.data.scope_id).toBe(demoCatalog);
    const id = catalogRule.body.data.id;
    const replaced = await op.put(`/margin-rules/${id}`, { step: 500, tiers: { gold: { percent_bp: 2000 }, platinum: { percent_bp: 1500 }, diamond: { percent_bp: 1000 } } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data.tiers.diamond).toEqual({ percent_bp: 1000, fixed: 0 });
    expect((await op.put('/margin-rules/nope', { step: 1, tiers: { gold: { percent_bp: 1 } } })).body.error).toBe('NOT_FOUND');
    expect((await op.put(`/margin-rules/${id}`, { step: 500, tiers: {} })).body.error).toBe('VALIDATION_ERROR');
    const extra = await op.post('/margin-rules', { scope: 'category', scope_id: 'valorant', step: 1, tiers: { gold: { percent_bp: 1 } } });
    expect((await op.delete(`/margin-rules/${extra.body.data.id}`)).body.data).toEqual({ deleted: true });
    expect((await op.delete(`/margin-rules/${extra.body.data.id}`)).body.error).toBe('NOT_FOUND');
    expect((await audits('margin_rule.create')).length).toBe(3);
    expect((await audits('margin_rule.update')).map((a) => JSON.parse(a.before!).tiers.diamond)).toEqual([undefined]);
    expect((await audits('margin_rule.delete')).length).toBe(1);
    expect((await op.get('/margin-rules')).body.data.rules).toHaveLength(2);
  });

  it('import: the preview shows products, routes, prices by the rule and warnings; apply does exactly that', async () => {
    const listed = await op.get('/suppliers/Digiflazz/skus');
    expect(listed.body.data.skus.map((s: any) => [s.sku, s.cost, s.buyable])).toEqual([['DZ-A', 10_000, true], ['DZ-B', 20_000, false], ['DZ-C', 30_000, true]]);
    expect((await op.get('/suppliers/nope/skus')).body.error).toBe('NOT_FOUND');
    const preview = await op.post('/imports/preview', importBody(['DZ-A', 'DZ-B']));
    expect(preview.status, preview.text).toBe(200);
    const [a, b] = preview.body.data.items;
    expect(a).toMatchObject({
      sku: 'DZ-A', sku_name: 'FF 140 Diamonds', cost: 10_000, buyable: true, action: 'create',
      product: { code: 'DZ-A', name: 'FF 140 Diamonds', category_slug: 'free-fire' },
      route: { id: null, sku: 'DZ-A', cost: 10_000, cost_before: null, enabled: true },
      rule: { scope: 'catalog' }, prices: { gold: 12_000, platinum: 11_500, diamond: 11_000 }, prices_before: { gold: null, platinum: null, diamond: null },
      warnings: [], error: null,
    });
    expect(b).toMatchObject({ sku: 'DZ-B', buyable: false, prices: { gold: 24_000, platinum: 23_000, diamond: 22_000 }, warnings: ['NOT_BUYABLE'], error: null });
    // Previewing changes nothing.
    expect(await routesTo('DZ-A')).toEqual([]);
    expect(await db().selectFrom('products').select('code').where('code', '=', 'DZ-A').execute()).toEqual([]);

    // Without a catalog: products and routes only, the category rule, and a warning.
    const bare = await op.post('/imports/preview', importBody(['DZ-A'], { catalog: null }));
    expect(bare.body.data.items[0]).toMatchObject({ rule: { scope: 'category' }, prices: { gold: null }, warnings: ['NO_CATALOG'] });

    const applied = await op.post('/imports/apply', { ...importBody(['DZ-A', 'DZ-B']), preview_token: preview.body.data.preview_token });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data).toEqual(preview.body.data);
    expect(await prices('DZ-A')).toEqual({ gold: 12_000, platinum: 11_500, diamond: 11_000 });
    expect(await prices('DZ-B')).toEqual({ gold: 24_000, platinum: 23_000, diamond: 22_000 });
    const [route] = await routesTo('DZ-A');
    expect(route).toMatchObject({ product_code: 'DZ-A', cost: expect.anything(), enabled: 1 });
    expect(Number(route!.cost)).toBe(10_000);
    const product = await db().selectFrom('products').selectAll().where('code', '=', 'DZ-A').executeTakeFirstOrThrow();
    expect(product).toMatchObject({ name: 'FF 140 Diamonds', category_slug: 'free-fire', kind: 'instant' });
    const [audit] = await audits('supplier.import');
    expect(JSON.parse(audit!.after!).items.map((i: any) => [i.sku, i.action, i.prices.gold])).toEqual([['DZ-A', 'create', 12_000], ['DZ-B', 'create', 24_000]]);
    // Resellers see it at once, at the tier price.
    const forSale = (await t.client.get('/products?category_slug=free-fire')).body.data.products.find((p: any) => p.code === 'DZ-A');
    expect(forSale).toMatchObject({ price: 12_000 });
  });

  it('importing the same SKU again updates its product and route, never a second one', async () => {
    fake.products.get('DZ-A')!.price = 9_000; // a fall: the route's cost follows, nothing else to do
    const synced = await sync();
    expect(synced.below_cost).toEqual([]);
    const [followed] = await routesTo('DZ-A');
    expect(synced.cost_followed).toEqual([{ route_id: followed!.id, product_code: 'DZ-A', sku: 'DZ-A', before: 10_000, after: 9_000 }]);
    const preview = await op.post('/imports/preview', importBody(['DZ-A']));
    expect(preview.body.data.items[0]).toMatchObject({
      action: 'update', product: { code: 'DZ-A' }, route: { cost: 9_000, cost_before: 9_000, enabled: true },
      prices_before: { gold: 12_000, platinum: 11_500, diamond: 11_000 }, prices: { gold: 11_000, platinum: 10_500, diamond: 10_000 }, warnings: [],
    });
    const applied = await op.post('/imports/apply', { ...importBody(['DZ-A']), preview_token: preview.body.data.preview_token });
    expect(applied.status, applied.text).toBe(200);
    expect(await db().selectFrom('products').select('code').where('code', 'like', 'DZ-A%').execute()).toHaveLength(1);
    const routes = await routesTo('DZ-A');
    expect(routes.map((r) => Number(r.cost))).toEqual([9_000]);
    expect(await prices('DZ-A')).toEqual({ gold: 11_000, platinum: 10_500, diamond: 10_000 });
    // The same token again: the plan changed (prices_before), so it is refused; nothing duplicates.
    expect((await op.post('/imports/apply', { ...importBody(['DZ-A']), preview_token: preview.body.data.preview_token })).body.error).toBe('PREVIEW_STALE');
  });

  it('apply refuses when a cost changed since the preview (COST_CHANGED) or anything else did (PREVIEW_STALE), and bad input, changing nothing', async () => {
    const preview = await op.post('/imports/preview', importBody(['DZ-C']));
    const token = preview.body.data.preview_token;
    fake.products.get('DZ-C')!.price = 31_000;
    await sync();
    const refused = await op.post('/imports/apply', { ...importBody(['DZ-C']), preview_token: token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, error: 'COST_CHANGED' });
    expect(refused.body.message).toContain('30000 → 31000');
    expect(await db().selectFrom('products').select('code').where('code', '=', 'DZ-C').execute()).toEqual([]);

    const again = await op.post('/imports/preview', importBody(['DZ-C']));
    const rules = (await op.get('/margin-rules')).body.data.rules;
    const catalogRule = rules.find((r: any) => r.scope === 'catalog');
    await op.put(`/margin-rules/${catalogRule.id}`, { step: 500, tiers: { ...catalogRule.tiers, gold: { percent_bp: 2500, fixed: 0 } } });
    const stale = await op.post('/imports/apply', { ...importBody(['DZ-C']), preview_token: again.body.data.preview_token });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('PREVIEW_STALE');
    await op.put(`/margin-rules/${catalogRule.id}`, { step: 500, tiers: catalogRule.tiers });

    for (const token of ['', 'x', 'a.b.c', `${Buffer.from('[1]').toString('base64url')}.zz`, `${Buffer.from('{"DZ-C":1.5}').toString('base64url')}.zz`]) {
      const r = await op.post('/imports/apply', { ...importBody(['DZ-C']), preview_token: token });
      expect(r.status, token).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
    }
    const missing = await op.post('/imports/preview', importBody(['DZ-C', 'NOPE']));
    expect(missing.body.data.items[1]).toMatchObject({ sku: 'NOPE', cost: null, error: 'SKU_NOT_FOUND' });
    const blocked = await op.post('/imports/apply', { ...importBody(['DZ-C', 'NOPE']), preview_token: missing.body.data.preview_token });
    expect([blocked.status, blocked.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    expect(blocked.body.message).toContain('NOPE: SKU_NOT_FOUND');
    // A SKU whose code is another product's: refused, not merged.
    await op.post('/products', { code: 'DZ-C', name: 'Hand made', category_slug: 'free-fire' });
    expect((await op.post('/imports/preview', importBody(['DZ-C']))).body.data.items[0].error).toBe('PRODUCT_CODE_TAKEN');
    for (const [body, code] of [
      [importBody([]), 'VALIDATION_ERROR'], [importBody(['DZ-A', 'DZ-A']), 'VALIDATION_ERROR'], [importBody(['DZ-A'], { category: 'nope' }), 'NOT_FOUND'],
      [importBody(['DZ-A'], { supplier: 'nope' }), 'NOT_FOUND'], [importBody(['DZ-A'], { catalog: 'nope' }), 'NOT_FOUND'], [importBody(['DZ-A'], { extra: 1 }), 'VALIDATION_ERROR'],
    ] as const) {
      expect((await op.post('/imports/preview', body)).body.error, JSON.stringify(body)).toBe(code);
    }
    expect(await db().selectFrom('product_routes').select('id').where('supplier_sku', '=', 'DZ-C').execute()).toEqual([]);
    expect(await audits('supplier.import')).toHaveLength(2);
  });

  it('disable_route (default): a cost at or above a price takes the route out of service, with an audit line and an attention item', async () => {
    fake.products.get('DZ-A')!.price = 10_000; // exactly diamond's price: at cost is below cost
    const report = await sync();
    const [route] = await routesTo('DZ-A');
    expect(report.below_cost).toEqual([{ route_id: route!.id, product_code: 'DZ-A', sku: 'DZ-A', cost: 10_000, lowest_price: 10_000, reached: 'cost', action: 'route_disabled', reason: 'policy', prices: [] }]);
    expect([Number(route!.enabled), Number(route!.cost)]).toEqual([0, 10_000]);
    expect(await prices('DZ-A')).toEqual({ gold: 11_000, platinum: 10_500, diamond: 10_000 });
    expect((await op.post('/imports/preview', importBody(['DZ-A']))).body.data.items[0]).toMatchObject({ route: { enabled: false }, warnings: ['ROUTE_OUT_OF_SERVICE'] });
    expect((await audits('route.below_cost')).map((a) => a.target_id)).toEqual([route!.id]);
    const items = (await op.get('/attention-items')).body;
    expect(items.meta.total).toBe(1);
    expect(items.data.items[0]).toMatchObject({ kind: 'below_cost', target_kind: 'route', target_id: route!.id, resolved_at: null, details: { action: 'route_disabled', reason: 'policy', reached: 'cost', cost: 10_000, cost_before: 9_000 } });
    expect(items.data.items[0].summary).toContain('route taken out of service');
    expect((await op.get('/overview')).body.data.attention_items).toBe(1);
    // DZ-A has no other route: the supplier gate refuses it, nothing is charged.
    const refused = await t.client.post('/order', { ref_id: uniqueRef('pr'), product_code: 'DZ-A', target: randomTarget() });
    expect([refused.status, refused.body.error]).toEqual([503, 'ORDER_FAILED_SUPPLIER_GATE']);

    const resolved = await op.post(`/attention-items/${items.data.items[0].id}/resolve`);
    expect(resolved.body.data).toMatchObject({ resolved_at: expect.any(String), resolved_by: expect.any(String) });
    expect((await op.post(`/attention-items/${items.data.items[0].id}/resolve`)).status).toBe(200);
    expect(await audits('attention.resolve')).toHaveLength(1);
    expect((await op.get('/attention-items')).body.meta.total).toBe(0);
    expect((await op.get('/attention-items?status=all')).body.meta.total).toBe(1);
    expect((await op.post('/attention-items/nope/resolve')).body.error).toBe('NOT_FOUND');
    expect((await op.get('/attention-items?status=closed')).body.error).toBe('VALIDATION_ERROR');
  });

  it('reprice: the prices the cost reached follow the margin rule and the route takes the new cost; without a rule the route goes out of service', async () => {
    const patched = await op.patch(`/suppliers/${supplierId}`, { below_cost_policy: 'reprice' });
    expect(patched.body.data.below_cost_policy).toBe('reprice');
    expect((await op.patch(`/suppliers/${supplierId}`, { below_cost_policy: 'ignore' })).body.error).toBe('VALIDATION_ERROR');
    const [b] = await routesTo('DZ-B');
    fake.products.get('DZ-B')!.price = 22_500; // diamond 22 000 reached at cost; gold and platinum below the rule's margin

    // VAL-475 priced in a catalog without a rule, in a category without one: no rule applies.
    const bare = await op.post('/catalogs', { name: 'Bare' });
    await op.put(`/catalogs/${bare.body.data.id}/prices`, { prices: [{ product_code: 'VAL-475', tier: 'gold', price: 30_000 }] });
    const val = await op.post('/routes', { product_code: 'VAL-475', supplier: 'Digiflazz', sku: 'DZ-C', priority: 3, cost: 29_000 });
    expect(val.status, val.text).toBe(200);
    fake.products.get('DZ-C')!.price = 30_000;

    const report = await sync();
    const byRoute = Object.fromEntries(report.below_cost.map((e: any) => [e.route_id, e]));
    expect(byRoute[b!.id]).toEqual({
      route_id: b!.id, product_code: 'DZ-B', sku: 'DZ-B', cost: 22_500, lowest_price: 22_000, reached: 'cost', action: 'repriced', reason: 'policy',
      prices: [
        { catalog_id: demoCatalog, tier: 'diamond', before: 22_000, after: 25_000 }, { catalog_id: demoCatalog, tier: 'gold', before: 24_000, after: 27_000 },
        { catalog_id: demoCatalog, tier: 'platinum', before: 23_000, after: 26_000 },
      ],
    });
    expect(byRoute[val.body.data.id]).toMatchObject({ action: 'route_disabled', reason: 'no_rule', lowest_price: 30_000 });
    expect(await prices('DZ-B')).toEqual({ gold: 27_000, platinum: 26_000, diamond: 25_000 });
    const [after] = await routesTo('DZ-B');
    expect([Number(after!.cost), Number(after!.enabled)]).toEqual([22_500, 1]);
    expect(Number((await db().selectFrom('product_routes').select('enabled').where('id', '=', val.body.data.id).executeTakeFirstOrThrow()).enabled)).toBe(0);
    const [repriced] = await audits('route.repriced');
    const tierPrices = (p: number[]) => ['diamond', 'gold', 'platinum'].map((tier, i) => ({ catalog_id: demoCatalog, tier, price: p[i] }));
    expect(JSON.parse(repriced!.after!)).toEqual({ cost: 22_500, prices: tierPrices([25_000, 27_000, 26_000]) });
    expect(JSON.parse(repriced!.before!)).toEqual({ cost: 20_000, prices: tierPrices([22_000, 24_000, 23_000]) });
    const open = (await op.get('/attention-items')).body.data.items;
    expect(open.map((i: any) => [i.target_id, i.details.action]).sort()).toEqual([[b!.id, 'repriced'], [val.body.data.id, 'route_disabled']].sort());
    // Synced again at the same cost: nothing more to do, no new item.
    expect((await sync()).below_cost).toEqual([]);
    expect((await op.get('/attention-items')).body.meta.total).toBe(2);
  });

  it('an order is never submitted on a route whose cost is above its price: the next route is tried, else it fails and refunds', async () => {
    // FF-310 (gold 45 000): Digiflazz first at a cost of 46 000, the sandbox second.
    await db().updateTable('product_routes').set({ priority: 5 }).where('product_code', '=', 'FF-310').execute();
    const dz = await op.post('/routes', { product_code: 'FF-310', supplier: 'Digiflazz', sku: 'DZ-A', priority: 1, cost: 46_000 });
    expect(dz.status, dz.text).toBe(200);
    const ref = uniqueRef('pr');
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-310', target: randomTarget() });
    expect(placed.status, placed.text).toBe(200);
    const o = await waitForTerminal(t.client, ref);
    expect(o.status).toBe('success');
    expect(fake.requests.some((q) => q.body?.ref_id === o.order_id)).toBe(false);
    expect(await db().selectFrom('sandbox_orders').select('reference').where('reference', '=', o.order_id).execute()).toHaveLength(1);

    await db().updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', 'FF-310').where('supplier_id', '!=', supplierId).execute();
    const before = (await t.client.get('/balance')).body.data.balance;
    const ref2 = uniqueRef('pr');
    expect((await t.client.post('/order', { ref_id: ref2, product_code: 'FF-310', target: randomTarget() })).status).toBe(200);
    const failed = await waitForTerminal(t.client, ref2);
    expect(failed.status).toBe('failed');
    expect(fake.requests.some((q) => q.body?.ref_id === failed.order_id)).toBe(false);
    expect((await t.client.get('/balance')).body.data.balance).toBe(before);
  });
});
