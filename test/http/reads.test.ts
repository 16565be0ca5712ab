import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

const DAY = 86_400_000;

describe.each(storeKinds())('read endpoints (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  describe('GET /order-status', () => {
    it('returns every Order field in its format', async () => {
      const ref = uniqueRef();
      await t.client.post('/order', { ref_id: ref, product_code: 'ML-86', target: '5550001', zone: '2001' });
      const r = await t.client.get(`/order-status?ref_id=${ref}`);
      expect(r.status).toBe(200);
      const o = r.body.data;
      expect(Object.keys(o).sort()).toEqual(
        ['completed_at', 'created_at', 'failure_code', 'failure_reason', 'order_code', 'order_id', 'price', 'product_code', 'product_name', 'ref_id', 'serial_number', 'status', 'target_id', 'zone_id'].sort(),
      );
      expect(o.order_id).toHaveLength(36);
      expect(o.order_code).toBe(`ORD-${o.order_id.replace(/-/g, '').slice(0, 12).toUpperCase()}`);
      expect(o.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(o).toMatchObject({ ref_id: ref, product_code: 'ML-86', product_name: '86 Diamonds', target_id: '5550001', zone_id: '2001', price: 20000, serial_number: null, completed_at: null, failure_code: null, failure_reason: null });
      expect(['processing', 'success', 'failed']).toContain(o.status);
    });

    it('REF_ID_REQUIRED, over-long ref_id, and unknown ref_id as PRODUCT_NOT_FOUND', async () => {
      expectError(await t.client.get('/order-status'), 400, 'REF_ID_REQUIRED');
      expectError(await t.client.get('/order-status?ref_id='), 400, 'REF_ID_REQUIRED');
      expectError(await t.client.get(`/order-status?ref_id=${'x'.repeat(101)}`), 400, 'VALIDATION_ERROR');
      const nf = await t.client.get('/order-status?ref_id=never-placed');
      expectError(nf, 404, 'PRODUCT_NOT_FOUND');
      expect(nf.body.message).toMatch(/order not found/i);
    });

    it('POST /check-status is a deprecated alias', async () => {
      const ref = uniqueRef();
      await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '1' });
      const r = await t.client.post('/check-status', { ref_id: ref });
      expect(r.status).toBe(200);
      expect(r.headers.deprecation).toBeDefined();
      expect(r.headers.link).toContain('/order-status');
      expect(r.body.data.ref_id).toBe(ref);
      expectError(await t.client.post('/check-status', {}), 400, 'REF_ID_REQUIRED');
    });
  });

  describe('GET /products and /categories', () => {
    it('lists products with the spec fields, pagination meta and cache headers', async () => {
      const r = await t.client.get('/products');
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('private, max-age=60, must-revalidate');
      expect(r.headers.vary).toMatch(/X-Api-Key/i);
      expect(r.body.meta).toEqual({ total: 8, page: 1, limit: 50, total_pages: 1, has_more: false });
      const p = r.body.data.products.find((x: any) => x.code === 'ML-86');
      expect(p).toMatchObject({ code: 'ML-86', name: '86 Diamonds', category: 'Mobile Legends: Bang Bang', category_slug: 'mobile-legends', price: 20000, status: 'active' });
      for (const x of r.body.data.products) {
        expect(typeof x.price).toBe('number');
        expect(['active', 'inactive']).toContain(x.status);
      }
    });

    it('pages and filters by category_slug', async () => {
      const p1 = await t.client.get('/products?limit=3');
      const p3 = await t.client.get('/products?limit=3&page=3');
      expect(p1.body.meta).toEqual({ total: 8, page: 1, limit: 3, total_pages: 3, has_more: true });
      expect(p3.body.meta).toEqual({ total: 8, page: 3, limit: 3, total_pages: 3, has_more: false });
      expect(p3.body.data.products).toHaveLength(2);
      const beyond = await t.client.get('/products?page=9');
      expect(beyond.body.data.products).toEqual([]);
      const ml = await t.client.get('/products?category_slug=mobile-legends');
      expect(ml.body.data.products.map((x: any) => x.code)).toEqual(['ML-86', 'ML-172', 'ML-WDP']);
      expect(ml.body.meta.total).toBe(3);
      expect((await t.client.get('/products?category_slug=unknown')).body.meta.total).toBe(0);
    });

    it('INVALID_PAGINATION for page under 1 or limit outside 1..100', async () => {
      for (const q of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=101', 'limit=x']) {
        expectError(await t.client.get(`/products?${q}`), 400, 'INVALID_PAGINATION');
      }
      expect((await t.client.get('/products?limit=100')).status).toBe(200);
    });

    it('prices are per tier and the lowest across assigned catalogs', async () => {
      const diamond = await createReseller(t.platform, t.baseUrl, { tier: 'diamond' });
      const ff = async (c: typeof t.client) => (await c.get('/products?category_slug=free-fire')).body.data.products[0].price;
      expect(await ff(t.client)).toBe(15000);
      expect(await ff(diamond.client)).toBe(Math.round(15000 * 0.95));

      const { db } = t.platform.database;
      const promo = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
      await db.insertInto('catalogs').values({ id: `promo-${promo.id}`, name: `Promo ${promo.id}`, created_at: Date.now() }).execute();
      await db.insertInto('catalog_prices').values([
        { catalog_id: `promo-${promo.id}`, product_code: 'FF-100', tier: 'gold', price: 14000 },
        { catalog_id: `promo-${promo.id}`, product_code: 'FF-310', tier: 'gold', price: 99000 },
      ]).execute();
      await db.insertInto('reseller_catalogs').values({ reseller_id: promo.id, catalog_id: `promo-${promo.id}` }).execute();
      const products = (await promo.client.get('/products?category_slug=free-fire')).body.data.products;
      expect(products.find((x: any) => x.code === 'FF-100').price).toBe(14000);
      expect(products.find((x: any) => x.code === 'FF-310').price).toBe(45000);
      expect((await promo.client.get('/products')).body.meta.total).toBe(8);
      // The order is charged the resolved price.
      const o = await promo.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1', price: 14000 });
      expect(o.body.data.price).toBe(14000);
    });

    it('status is inactive when no usable supply route exists', async () => {
      const { db } = t.platform.database;
      await db.updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', 'VAL-475').execute();
      try {
        const val = (await t.client.get('/products?category_slug=valorant')).body.data.products[0];
        expect(val.status).toBe('inactive');
      } finally {
        await db.updateTable('product_routes').set({ enabled: 1 }).where('product_code', '=', 'VAL-475').execute();
      }
      expect((await t.client.get('/products?category_slug=valorant')).body.data.products[0].status).toBe('active');
    });

    it('a price change shows at once', async () => {
      const { db } = t.platform.database;
      await db.updateTable('catalog_prices').set({ price: 55555 }).where('product_code', '=', 'VAL-475').where('tier', '=', 'gold').execute();
      expect((await t.client.get('/products?category_slug=valorant')).body.data.products[0].price).toBe(55555);
    });

    it('GET /categories lists slug, name, type and the ordered form with roles and options', async () => {
      const r = await t.client.get('/categories');
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('private, max-age=60, must-revalidate');
      const cats = r.body.data.categories;
      expect(cats.map((c: any) => c.slug)).toEqual(['free-fire', 'mobile-legends', 'ragnarok-origin', 'valorant', 'steam-wallet']);
      const ro = cats.find((c: any) => c.slug === 'ragnarok-origin');
      expect(ro.form.map((f: any) => [f.name, f.role, f.type])).toEqual([['user_id', 'account_id', 'text'], ['region', 'server', 'select'], ['server', 'server', 'select']]);
      expect(ro.form[1].options[0]).toEqual({ value: 'sea', label: 'Southeast Asia' });
      expect(cats.find((c: any) => c.slug === 'steam-wallet')).toMatchObject({ type: 'voucher', form: [] });
      expect(cats.find((c: any) => c.slug === 'mobile-legends').validation_supported).toBe(true);
      // The slug from /categories is the same key as products' category_slug.
      for (const c of cats) expect((await t.client.get(`/products?category_slug=${c.slug}`)).body.meta.total).toBeGreaterThan(0);
    });
    it("another catalog's games stay invisible to GET /categories and POST /validation", async () => {
      const { db } = t.platform.database;
      const suffix = uniqueRef().replace(/[^a-z0-9]/gi, '').toLowerCase();
      const slug = `hidden-${suffix}`;
      const now = Date.now();
      await db.insertInto('categories').values({ slug, name: `Hidden ${suffix}`, type: 'game', form: JSON.stringify([{ name: 'user_id', label: 'User ID', role: 'account_id', type: 'text', required: true }]), checker_enabled: 1, sort_order: 99, created_at: now }).execute();
      await db.insertInto('products').values({ code: `HID-${suffix}`, name: 'Hidden 1', category_slug: slug, kind: 'instant', limit_gated: 0, enabled: 1, sort_order: 0, created_at: now }).execute();
      await db.insertInto('catalogs').values({ id: `other-${suffix}`, name: `Other ${suffix}`, created_at: now }).execute();
      await db.insertInto('catalog_prices').values({ catalog_id: `other-${suffix}`, product_code: `HID-${suffix}`, tier: 'gold', price: 1000 }).execute();

      const outsider = await createReseller(t.platform, t.baseUrl);
      const seen = (await outsider.client.get('/categories')).body.data.categories.map((c: any) => c.slug);
      expect(seen).toEqual(['free-fire', 'mobile-legends', 'ragnarok-origin', 'valorant', 'steam-wallet']);
      expectError(await outsider.client.post('/validation', { category_slug: slug, fields: { user_id: '123456789' } }), 404, 'GAME_NOT_SUPPORTED');

      // The reseller the other catalog is assigned to sees the game and may validate for it.
      const insider = await createReseller(t.platform, t.baseUrl);
      await db.insertInto('reseller_catalogs').values({ reseller_id: insider.id, catalog_id: `other-${suffix}` }).execute();
      expect((await insider.client.get('/categories')).body.data.categories.map((c: any) => c.slug)).toContain(slug);
      expect((await insider.client.post('/validation', { category_slug: slug, fields: { user_id: '123456789' } })).status).not.toBe(404);
    });
  });

  describe('GET /orders, /balance, /wallet-history', () => {
    let r: Awaited<ReturnType<typeof createReseller>>;
    beforeAll(async () => {
      r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
      const { db } = t.platform.database;
      for (let i = 0; i < 5; i++) {
        const res = await r.client.post('/order', { ref_id: `hist-${i}`, product_code: 'FF-100', target: '1' });
        expect(res.status).toBe(200);
      }
      // Age and finish some orders directly in the store, as fulfilment would.
      const now = Date.now();
      await db.updateTable('orders').set({ created_at: now - 40 * DAY }).where('reseller_id', '=', r.id).where('ref_id', '=', 'hist-0').execute();
      await db.updateTable('orders').set({ status: 'success', completed_at: now }).where('reseller_id', '=', r.id).where('ref_id', '=', 'hist-1').execute();
      await db.updateTable('orders').set({ status: 'failed', completed_at: now }).where('reseller_id', '=', r.id).where('ref_id', '=', 'hist-2').execute();
    });

    it('lists orders newest first with meta, in the Order shape', async () => {
      const res = await r.client.get('/orders?limit=2');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ total: 5, page: 1, limit: 2, total_pages: 3, has_more: true });
      expect(res.body.data.orders.map((o: any) => o.ref_id)).toEqual(['hist-4', 'hist-3']);
      expect(res.body.data.orders[0].order_code).toMatch(/^ORD-[0-9A-F]{12}$/);
      expectError(await r.client.get('/orders?limit=500'), 400, 'INVALID_PAGINATION');
    });

    it('filters by status (one or a list) and refuses unknown statuses', async () => {
      const ok = await r.client.get('/orders?status=success');
      expect(ok.body.data.orders.map((o: any) => o.ref_id)).toEqual(['hist-1']);
      const two = await r.client.get('/orders?status=success,failed');
      expect(two.body.meta.total).toBe(2);
      expectError(await r.client.get('/orders?status=done'), 400, 'INVALID_STATUS_FILTER');
    });

    it('filters by date range, max 90 days', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
      expect((await r.client.get(`/orders?start_date=${daysAgo(7)}&end_date=${today}`)).body.meta.total).toBe(4);
      expect((await r.client.get(`/orders?start_date=${daysAgo(60)}&end_date=${daysAgo(30)}`)).body.meta.total).toBe(1);
      const iso = await r.client.get(`/orders?start_date=${encodeURIComponent(new Date(Date.now() - DAY).toISOString())}&end_date=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
      expect(iso.body.meta.total).toBe(4);
      expectError(await r.client.get('/orders?start_date=2026-13-01'), 400, 'INVALID_DATE_RANGE');
      expectError(await r.client.get('/orders?start_date=yesterday'), 400, 'INVALID_DATE_RANGE');
      expectError(await r.client.get('/orders?start_date=2026-02-30'), 400, 'INVALID_DATE_RANGE');
      expectError(await r.client.get(`/orders?start_date=${today}&end_date=${daysAgo(3)}`), 400, 'INVALID_DATE_RANGE');
      expectError(await r.client.get(`/orders?start_date=${daysAgo(120)}&end_date=${today}`), 400, 'DATE_RANGE_TOO_LARGE');
      expect((await r.client.get(`/orders?start_date=${daysAgo(89)}&end_date=${today}`)).status).toBe(200);
    });

    it('GET /balance returns the balance and currency', async () => {
      const b = await r.client.get('/balance');
      expect(b.body.data).toEqual({ balance: 1_000_000 - 5 * 15000, currency: 'IDR' });
    });

    it('GET /wallet-history is the ledger, newest first, with running balances', async () => {
      const h = await r.client.get('/wallet-history?limit=10');
      expect(h.status).toBe(200);
      expect(h.body.meta.total).toBe(6);
      const entries = h.body.data.entries;
      expect(entries[0]).toMatchObject({ type: 'order_debit', amount: -15000, balance_after: 925000, ref_id: 'hist-4' });
      expect(entries[0].order_code).toMatch(/^ORD-/);
      expect(entries[5]).toMatchObject({ type: 'credit', amount: 1_000_000, balance_after: 1_000_000, order_id: null, note: 'test opening balance' });
      for (let i = 0; i < entries.length - 1; i++) expect(entries[i].balance_after - entries[i].amount).toBe(entries[i + 1].balance_after);
      expect((await r.client.get('/wallet-history?type=credit')).body.meta.total).toBe(1);
      // Filtered, the same order as unfiltered, page by page.
      const debits = entries.filter((e: { type: string }) => e.type === 'order_debit');
      const filtered = [1, 2, 3].map((page) => r.client.get(`/wallet-history?type=order_debit&limit=2&page=${page}`));
      const pages = await Promise.all(filtered);
      expect(pages[0]!.body.meta.total).toBe(5);
      expect(pages.flatMap((p) => p.body.data.entries)).toEqual(debits);
      expectError(await r.client.get('/wallet-history?type=bogus'), 400, 'VALIDATION_ERROR');
      expectError(await r.client.get('/wallet-history?page=0'), 400, 'INVALID_PAGINATION');
    });
  });

  describe('isolation between resellers', () => {
    it('one reseller never sees another one’s orders or ledger; ref_ids are per reseller', async () => {
      const a = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
      const b = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
      const ref = uniqueRef('shared');
      expect((await a.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: 'a' })).status).toBe(200);
      expectError(await b.client.get(`/order-status?ref_id=${ref}`), 404, 'PRODUCT_NOT_FOUND');
      expectError(await b.client.post('/check-status', { ref_id: ref }), 404, 'PRODUCT_NOT_FOUND');
      expect((await b.client.get('/orders')).body.meta.total).toBe(0);
      expect((await b.client.get('/wallet-history')).body.data.entries.every((e: any) => e.order_id === null)).toBe(true);
      expect((await b.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: 'b' })).status).toBe(200);
      expect((await a.client.get(`/order-status?ref_id=${ref}`)).body.data.target_id).toBe('a');
      expect((await b.client.get(`/order-status?ref_id=${ref}`)).body.data.target_id).toBe('b');
      // Signing with another reseller's secret under one's own key fails.
      const forged = new (a.client.constructor as any)(t.baseUrl, a.apiKey, b.apiSecret);
      expectError(await forged.get('/balance'), 401, 'INVALID_SIGNATURE');
    });
  });
});
