import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

const gameForm = [
  { name: 'user_id', label: 'User ID', role: 'account_id', type: 'text', placeholder: '123' },
  { name: 'server', label: 'Server', role: 'server', type: 'select', options: [{ value: 'asia', label: 'Asia' }, { value: 'eu', label: 'Europe' }] },
];

describe.each(storeKinds())('operator API: catalog (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let operatorId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
    operatorId = (await op.get('/me')).body.data.id;
  });
  afterAll(async () => t?.close());

  const audit = (action: string, targetId: string) =>
    t.platform.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId).orderBy('id').execute();

  it('creates, lists and updates categories; the slug stays, the rename reaches API v1 at once; every change audited', async () => {
    const created = await op.post('/categories', { slug: 'genshin', name: 'Genshin Impact', type: 'game', form: gameForm, checker_enabled: false, sort_order: 7 });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data).toMatchObject({ slug: 'genshin', name: 'Genshin Impact', type: 'game', checker_enabled: false, sort_order: 7, product_count: 0 });
    expect(created.body.data.form[0]).toMatchObject({ name: 'user_id', role: 'account_id', required: true });
    const list = await op.get('/categories');
    expect(list.body.data.categories.map((c: any) => c.slug)).toContain('genshin');
    expect(list.body.data.categories.find((c: any) => c.slug === 'free-fire').product_count).toBe(2);

    const renamed = await op.patch('/categories/free-fire', { name: 'Garena Free Fire', sort_order: 3 });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ slug: 'free-fire', name: 'Garena Free Fire', sort_order: 3 });
    const v1 = await t.client.get('/categories');
    expect(v1.body.data.categories.find((c: any) => c.slug === 'free-fire').name).toBe('Garena Free Fire');
    const products = await t.client.get('/products?category_slug=free-fire');
    expect(products.body.data.products[0].category).toBe('Garena Free Fire');

    const newForm = [{ name: 'player_id', label: 'Player ID', role: 'account_id', type: 'number' }];
    expect((await op.patch('/categories/genshin', { form: newForm, checker_enabled: true })).body.data).toMatchObject({ checker_enabled: true, form: [{ name: 'player_id', required: true }] });

    const [create] = await audit('category.create', 'genshin');
    expect(create).toMatchObject({ operator_id: operatorId, target_kind: 'category', before: null });
    expect(JSON.parse(create!.after!)).toMatchObject({ slug: 'genshin', name: 'Genshin Impact' });
    const [rename] = await audit('category.update', 'free-fire');
    expect(JSON.parse(rename!.before!)).toMatchObject({ name: 'Free Fire' });
    expect(JSON.parse(rename!.after!)).toMatchObject({ name: 'Garena Free Fire' });
  });

  it('refuses bad categories by naming the problem, and changes nothing', async () => {
    const before = (await op.get('/categories')).body.data;
    const auditBefore = await t.platform.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const refusals: [unknown, string][] = [
      [{ slug: 'Bad Slug', name: 'x', type: 'game', form: gameForm }, 'slug'],
      [{ slug: 'dup-names', name: 'x', type: 'game', form: [gameForm[0], { ...gameForm[0], role: 'other' }] }, 'used twice'],
      [{ slug: 'no-account', name: 'x', type: 'game', form: [gameForm[1]] }, 'exactly one field with role account_id'],
      [{ slug: 'two-accounts', name: 'x', type: 'game', form: [gameForm[0], { ...gameForm[0], name: 'other_id' }] }, 'exactly one field with role account_id (found 2)'],
      [{ slug: 'empty-select', name: 'x', type: 'game', form: [gameForm[0], { ...gameForm[1], options: [] }] }, 'at least one option'],
      [{ slug: 'dup-options', name: 'x', type: 'game', form: [gameForm[0], { ...gameForm[1], options: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] }] }, 'option values must be unique'],
      [{ slug: 'voucher-form', name: 'x', type: 'voucher', form: gameForm }, 'voucher category has no form'],
      [{ slug: 'bad-role', name: 'x', type: 'game', form: [{ ...gameForm[0], role: 'admin' }] }, 'role'],
      [{ slug: 'extra', name: 'x', type: 'game', form: gameForm, colour: 'red' }, "unknown field 'colour'"],
      [{ slug: 'extra-field', name: 'x', type: 'game', form: [{ ...gameForm[0], hint: 'x' }] }, 'hint'],
    ];
    for (const [body, hint] of refusals) {
      const r = await op.post('/categories', body);
      expectJsonError(r, 400, 'VALIDATION_ERROR');
      expect(r.body.message).toContain(hint);
    }
    expectJsonError(await op.post('/categories', { slug: 'free-fire', name: 'Again', type: 'game', form: gameForm }), 409, 'CONFLICT');
    expectJsonError(await op.patch('/categories/free-fire', { form: [] }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.patch('/categories/free-fire', { slug: 'renamed' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.patch('/categories/steam-wallet', { checker_enabled: true }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.patch('/categories/nope', { name: 'x' }), 404, 'NOT_FOUND');
    expect((await op.get('/categories')).body.data).toEqual(before);
    const auditAfter = await t.platform.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(auditAfter.n)).toBe(Number(auditBefore.n));
  });

  it('adds and updates products; a disabled product leaves GET /products and answers PRODUCT_NOT_FOUND on POST /order at once', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const created = await op.post('/products', { code: 'STEAM-120K', name: 'Steam Wallet IDR 120,000', category_slug: 'steam-wallet' });
    expect(created.body.data).toMatchObject({ code: 'STEAM-120K', kind: 'voucher', enabled: true, limit_gated: false, route_count: 0, category_name: 'Steam Wallet Code' });
    expectJsonError(await op.post('/products', { code: 'STEAM-120K', name: 'x', category_slug: 'steam-wallet' }), 409, 'CONFLICT');
    expectJsonError(await op.post('/products', { code: 'X-1', name: 'x', category_slug: 'nope' }), 404, 'NOT_FOUND');
    expectJsonError(await op.post('/products', { code: 'bad code!', name: 'x', category_slug: 'free-fire' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/products', { code: 'X-2', name: 'x', category_slug: 'free-fire', kind: 'bundle' }), 400, 'VALIDATION_ERROR');

    const disabled = await op.patch('/products/ML-86', { enabled: false });
    expect(disabled.body.data).toMatchObject({ code: 'ML-86', enabled: false, route_count: 1 });
    const all = (await op.get('/products')).body.data.products;
    expect(all.find((p: any) => p.code === 'ML-86')).toMatchObject({ enabled: false, category_slug: 'mobile-legends' });
    const listed = await r.client.get('/products?category_slug=mobile-legends');
    expect(listed.body.data.products.map((p: any) => p.code)).not.toContain('ML-86');
    const order = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'ML-86', target: '12345678', zone: '1234' });
    expectJsonError(order, 404, 'PRODUCT_NOT_FOUND');

    await op.patch('/products/ML-86', { enabled: true, name: '86 Diamonds (promo)', limit_gated: true, sort_order: 9 });
    const back = (await r.client.get('/products?category_slug=mobile-legends')).body.data.products;
    expect(back.find((p: any) => p.code === 'ML-86')?.name).toBe('86 Diamonds (promo)');
    expectJsonError(await op.patch('/products/NOPE', { enabled: false }), 404, 'PRODUCT_NOT_FOUND');
    expectJsonError(await op.patch('/products/ML-86', { enabled: 'no' }), 400, 'VALIDATION_ERROR');

    const lines = await audit('product.update', 'ML-86');
    expect(JSON.parse(lines[0]!.before!)).toMatchObject({ enabled: true });
    expect(JSON.parse(lines[0]!.after!)).toMatchObject({ enabled: false });
  });

  it('a price change shows in GET /products and is enforced by POST /order at once (old price: PRICE_NOT_MATCH)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const demo = (await op.get('/catalogs')).body.data.catalogs.find((c: any) => c.name === 'Demo catalog');
    expect(demo.price_count).toBe(24);
    const set = await op.put(`/catalogs/${demo.id}/prices`, { prices: [{ product_code: 'FF-310', tier: 'gold', price: 44000 }, { product_code: 'FF-310', tier: 'diamond', price: 41000 }] });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.prices).toContainEqual({ product_code: 'FF-310', tier: 'gold', price: 44000 });
    const listed = (await r.client.get('/products?category_slug=free-fire')).body.data.products;
    expect(listed.find((p: any) => p.code === 'FF-310').price).toBe(44000);
    const old = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-310', target: '123456789', price: 45000 });
    expectJsonError(old, 409, 'PRICE_NOT_MATCH');
    const ok = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-310', target: '123456789', price: 44000 });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.price).toBe(44000);

    const [line] = await audit('catalog.prices.set', demo.id);
    expect(JSON.parse(line!.before!)).toEqual({ 'FF-310/gold': 45000, 'FF-310/diamond': 42750 });
    expect(JSON.parse(line!.after!)).toEqual({ 'FF-310/gold': 44000, 'FF-310/diamond': 41000 });

    // Removing the gold price hides the product from gold resellers.
    const removed = await op.delete(`/catalogs/${demo.id}/prices/FF-310/gold`);
    expect(removed.status, removed.text).toBe(200);
    expect((await r.client.get('/products?category_slug=free-fire')).body.data.products.map((p: any) => p.code)).toEqual(['FF-100']);
    expectJsonError(await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-310', target: '123456789' }), 404, 'PRODUCT_NOT_FOUND');
    await op.put(`/catalogs/${demo.id}/prices`, { prices: [{ product_code: 'FF-310', tier: 'gold', price: 45000 }] });
  });

  it('refuses bad price changes as a whole: one bad line changes nothing', async () => {
    const demo = (await op.get('/catalogs')).body.data.catalogs.find((c: any) => c.name === 'Demo catalog');
    const before = (await op.get(`/catalogs/${demo.id}`)).body.data;
    const good = { product_code: 'FF-100', tier: 'gold', price: 1 };
    const cases: [unknown, number, string, string][] = [
      [{ prices: [good, { product_code: 'FF-100', tier: 'platinum', price: 14550.5 }] }, 400, 'VALIDATION_ERROR', 'decimal'],
      [{ prices: [good, { product_code: 'FF-100', tier: 'platinum', price: -1 }] }, 400, 'VALIDATION_ERROR', 'price'],
      [{ prices: [good, { product_code: 'FF-100', tier: 'platinum', price: 0 }] }, 400, 'VALIDATION_ERROR', 'more than 0'],
      [{ prices: [good, { product_code: 'FF-100', tier: 'bronze', price: 1 }] }, 400, 'VALIDATION_ERROR', 'tier'],
      [{ prices: [good, good] }, 400, 'VALIDATION_ERROR', 'twice'],
      [{ prices: [good, { product_code: 'NOPE', tier: 'gold', price: 1 }] }, 404, 'PRODUCT_NOT_FOUND', 'NOPE'],
      [{ prices: [] }, 400, 'VALIDATION_ERROR', 'prices'],
      [{ prices: [{ ...good, currency: 'USD' }] }, 400, 'VALIDATION_ERROR', "unknown field 'prices[0].currency'"],
    ];
    for (const [body, status, code, hint] of cases) {
      const r = await op.put(`/catalogs/${demo.id}/prices`, body);
      expectJsonError(r, status, code);
      expect(r.body.message).toContain(hint);
    }
    expectJsonError(await op.put('/catalogs/nope/prices', { prices: [good] }), 404, 'NOT_FOUND');
    expect((await op.get(`/catalogs/${demo.id}`)).body.data).toEqual(before);
  });

  it('creates catalogs and assigns them to resellers (and back); assignment decides what a reseller sees', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { catalog: false, tier: 'platinum' });
    expect((await r.client.get('/products')).body.data.products).toEqual([]);
    const created = await op.post('/catalogs', { name: 'Partners' });
    expect(created.body.data).toMatchObject({ name: 'Partners', price_count: 0, reseller_count: 0 });
    const id = created.body.data.id;
    expectJsonError(await op.post('/catalogs', { name: 'Partners' }), 409, 'CONFLICT');
    await op.put(`/catalogs/${id}/prices`, { prices: [{ product_code: 'VAL-475', tier: 'platinum', price: 50000 }, { product_code: 'VAL-475', tier: 'gold', price: 52000 }] });
    expect((await op.get(`/catalogs/${id}`)).body.data).toMatchObject({ price_count: 2, prices: [{ product_code: 'VAL-475', tier: 'gold', price: 52000 }, { product_code: 'VAL-475', tier: 'platinum', price: 50000 }] });

    const assigned = await op.post(`/resellers/${r.id}/catalogs/${id}`);
    expect(assigned.body.data).toEqual({ reseller_id: r.id, catalog_ids: [id] });
    expect((await op.post(`/resellers/${r.id}/catalogs/${id}`)).body.data).toEqual({ reseller_id: r.id, catalog_ids: [id] });
    const seen = (await r.client.get('/products')).body.data.products;
    expect(seen).toEqual([expect.objectContaining({ code: 'VAL-475', price: 50000 })]);
    expect((await audit('reseller.catalog.assign', r.id)).length).toBe(1);

    expectJsonError(await op.post(`/resellers/nobody/catalogs/${id}`), 404, 'NOT_FOUND');
    expectJsonError(await op.post(`/resellers/${r.id}/catalogs/nope`), 404, 'NOT_FOUND');
    expect((await op.delete(`/resellers/${r.id}/catalogs/${id}`)).body.data).toEqual({ reseller_id: r.id, catalog_ids: [] });
    expect((await r.client.get('/products')).body.data.products).toEqual([]);
    const [un] = await audit('reseller.catalog.unassign', r.id);
    expect(JSON.parse(un!.before!)).toEqual({ catalog_ids: [id] });
  });

  it('needs an operator session', async () => {
    const anon = new JsonClient(op.baseUrl);
    expectJsonError(await anon.get('/categories'), 401, 'UNAUTHENTICATED');
    expectJsonError(await anon.post('/catalogs', { name: 'x' }), 401, 'UNAUTHENTICATED');
  });
});
