import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';
import { bumpVersion } from '../../src/store/cache-versions.js';

const DAY = 86_400_000;

/**
 * The fast paths of issue 6 must give the same answers as the plain queries they replace:
 * sequence-number pages and hour-bucket totals, the credential and catalog caches (with
 * invalidation from another process sharing the store), and group commit.
 */
describe.each(storeKinds())('fast read and order paths (%s)', (kind) => {
  let t: TestApp;
  let other: TestApp; // a second server process on the same store
  beforeAll(async () => {
    t = await startTestApp(kind);
    other = await startTestApp(kind, { store: t.store, seed: false });
  });
  /**
   * A change committed by the other server. On PostgreSQL this server applies it once it
   * has heard the change's notification (PostgresVersionFeed): wait for that, which also
   * proves the change was announced. SQLite reads the versions on every request.
   */
  const byOther = async (change: () => Promise<unknown>) => {
    const feed = t.platform.versionFeed;
    const heard = feed?.notifications ?? 0;
    await change();
    if (feed) await vi.waitFor(() => expect(feed.notifications).toBeGreaterThan(heard), { timeout: 2000, interval: 5 });
  };
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('history pages (sequence ranges) and totals (counters, hour buckets) equal the plain queries at every depth and filter', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 10_000_000 });
    const { db } = t.platform.database;
    for (let i = 0; i < 23; i++) expect((await r.client.post('/order', { ref_id: `p-${i}`, product_code: 'FF-100', target: '1' })).status).toBe(200);
    // Spread orders over days and statuses, as time and fulfilment would (triggers keep the buckets).
    const now = Date.now();
    for (let i = 0; i < 23; i++) {
      await db.updateTable('orders').set({ created_at: now - (23 - i) * 0.4 * DAY, status: (['success', 'failed', 'processing'] as const)[i % 3] }).where('reseller_id', '=', r.id).where('ref_id', '=', `p-${i}`).execute();
    }
    await r.client.post('/order', { ref_id: 'broke', product_code: 'FF-100', target: '1' }); // one more
    const all = await db.selectFrom('orders').select(['ref_id', 'status', 'created_at']).where('reseller_id', '=', r.id).execute();
    const byNewest = [...all].sort((a, b) => Number(b.created_at) - Number(a.created_at));
    // Unfiltered: every page, newest first, exact total, no gaps or repeats.
    const seen: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const res = await r.client.get(`/orders?limit=5&page=${page}`);
      expect(res.body.meta).toMatchObject({ total: all.length, page, limit: 5, total_pages: 5, has_more: page < 5 });
      seen.push(...res.body.data.orders.map((o: any) => o.ref_id));
    }
    expect(seen).toEqual(byNewest.map((o) => o.ref_id));
    // Filtered totals against counting the rows, for whole-day and partial-day ranges.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const cases: [string, (o: (typeof all)[number]) => boolean][] = [
      ['status=failed', (o) => o.status === 'failed'],
      ['status=success,processing', (o) => o.status !== 'failed'],
      [`start_date=${day(now - 5 * DAY)}&end_date=${day(now - 2 * DAY)}`, (o) => Number(o.created_at) >= Date.parse(day(now - 5 * DAY)) && Number(o.created_at) < Date.parse(day(now - 2 * DAY)) + DAY],
      [`status=failed&start_date=${iso(now - 6.3 * DAY)}&end_date=${iso(now - 1.7 * DAY)}`, (o) => o.status === 'failed' && Number(o.created_at) >= now - 6.3 * DAY && Number(o.created_at) <= now - 1.7 * DAY],
      [`start_date=${iso(now - 3.1 * DAY)}&end_date=${iso(now - 2.9 * DAY)}`, (o) => Number(o.created_at) >= now - 3.1 * DAY && Number(o.created_at) <= now - 2.9 * DAY],
    ];
    for (const [q, match] of cases) {
      const res = await r.client.get(`/orders?${q}&limit=100`);
      expect(res.status, q).toBe(200);
      const expected = all.filter(match).length;
      expect(res.body.meta.total, q).toBe(expected);
      expect(res.body.data.orders.length, q).toBe(expected);
      // Past the last page no row carries the total: it is counted alone.
      const past = await r.client.get(`/orders?${q}&limit=100&page=3`);
      expect(past.body.meta, q).toMatchObject({ total: expected, has_more: false });
      expect(past.body.data.orders, q).toEqual([]);
    }
    // Wallet history: ledger entries by seq, exact total, running balances chain across pages.
    const entries: any[] = [];
    for (let page = 1; page <= 3; page++) entries.push(...(await r.client.get(`/wallet-history?limit=10&page=${page}`)).body.data.entries);
    const count = await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('reseller_id', '=', r.id).executeTakeFirstOrThrow();
    expect(entries.length).toBe(Number(count.n));
    const past = await r.client.get('/wallet-history?limit=10&page=4');
    expect(past.body.meta).toMatchObject({ total: Number(count.n), page: 4, has_more: false });
    expect(past.body.data.entries).toEqual([]);
    for (let i = 0; i < entries.length - 1; i++) expect(entries[i].balance_after - entries[i].amount).toBe(entries[i + 1].balance_after);
  });

  it('deep filtered pages (whole hours skipped by their counts) equal the plain query at every offset', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 0 });
    const { db } = t.platform.database;
    // 2,600 orders over ~8 days, statuses cycling, some sharing a created_at (id breaks ties).
    const base = Date.UTC(2026, 5, 20, 13, 17);
    const statuses = ['success', 'failed', 'processing', 'refunded'] as const;
    const rows = Array.from({ length: 2600 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reseller_id: r.id, ref_id: `deep-${i}`, product_code: 'FF-100', product_name: 'FF 100',
      category_slug: 'free-fire', target: '1', zone: null, price: 1_000, status: statuses[i % 4]!, serial_number: null, failure_code: null, failure_reason: null,
      created_at: base - (i - (i % 7 === 1 ? 1 : 0)) * 277_000, completed_at: null, updated_at: base, checker_verified: 0,
    }));
    // Orders on the first and the last millisecond of days and of hours inside days: the
    // edges of the skipped buckets (hours) and of whole-day ranges.
    for (let k = 0; k < 14; k++) rows[100 + k * 150]!.created_at = Date.UTC(2026, 5, 20 - Math.floor(k / 2)) - (k % 2);
    for (let k = 0; k < 10; k++) rows[175 + k * 230]!.created_at = Date.UTC(2026, 5, 19 - Math.floor(k / 2), 5 + 2 * k) - (k % 2);
    for (let i = 0; i < rows.length; i += 200) await db.insertInto('orders').values(rows.slice(i, i + 200)).execute();
    const newestFirst = (xs: typeof rows) => [...xs].sort((a, b) => b.created_at - a.created_at || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
    const cases: { name: string; statuses: (typeof statuses)[number][] | null; from: number | null; to: number | null }[] = [
      { name: 'one status, no dates', statuses: ['failed'], from: null, to: null },
      { name: 'two statuses, no dates', statuses: ['success', 'processing'], from: null, to: null },
      { name: 'dates only, whole days', statuses: null, from: Date.UTC(2026, 5, 14), to: Date.UTC(2026, 5, 20) - 1 },
      { name: 'statuses + times inside days', statuses: ['success', 'failed', 'processing'], from: base - 6.3 * DAY, to: base - 0.45 * DAY },
      { name: 'dates only, times inside days', statuses: null, from: base - 7.7 * DAY + 1234, to: base - 1.2 * DAY },
      { name: 'one status, whole hours', statuses: ['refunded'], from: Date.UTC(2026, 5, 13, 9), to: Date.UTC(2026, 5, 19, 17) - 1 },
      { name: 'a range inside one hour', statuses: null, from: Date.UTC(2026, 5, 18, 11, 0, 0, 1), to: Date.UTC(2026, 5, 18, 11, 59) },
    ];
    for (const c of cases) {
      const expected = newestFirst(rows.filter((o) => (!c.statuses || c.statuses.includes(o.status)) && (c.from === null || o.created_at >= c.from) && (c.to === null || o.created_at <= c.to)));
      for (const offset of [0, 999, 1000, 1001, 1234, expected.length - 50, expected.length - 1, expected.length, expected.length + 100].filter((x) => x >= 0)) {
        const page = await t.platform.repos.orderHistory.list({ resellerId: r.id, statuses: c.statuses, from: c.from, to: c.to, limit: 50, offset });
        expect(page.total, `${c.name} @${offset}`).toBe(expected.length);
        expect(page.orders.map((o) => o.id), `${c.name} @${offset}`).toEqual(expected.slice(offset, offset + 50).map((o) => o.id));
      }
    }
  });

  it('a ledger entry written without a seq (a future code path) still gets the next number', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 50_000 });
    const { db } = t.platform.database;
    await db.insertInto('ledger_entries').values({ reseller_id: r.id, type: 'credit', amount: 0, balance_after: 50_000, order_id: null, note: 'raw', created_at: Date.now() }).execute();
    expect((await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' })).status).toBe(200);
    const seqs = await db.selectFrom('ledger_entries').select('seq').where('reseller_id', '=', r.id).orderBy('id').execute();
    expect(seqs.map((s) => Number(s.seq))).toEqual([1, 2, 3]);
    const h = await r.client.get('/wallet-history?limit=2&page=2');
    expect(h.body.meta.total).toBe(3);
    expect(h.body.data.entries.map((e: any) => e.note)).toEqual(['test opening balance']);
  });

  it('credential cache: suspension, key revocation and whitelist edits by another process apply to the next request (PostgreSQL: once announced)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const odb = other.platform.database.db; // writes go through the other server's connection
    expect((await r.client.get('/balance')).status).toBe(200); // cached now
    await byOther(() => other.platform.repos.resellers.setStatus(r.id, 'suspended', Date.now()));
    expectError(await r.client.get('/balance'), 403, 'RESELLER_INACTIVE');
    await byOther(() => other.platform.repos.resellers.setStatus(r.id, 'active', Date.now()));
    expect((await r.client.get('/balance')).status).toBe(200);
    await byOther(() => odb.deleteFrom('ip_whitelist').where('reseller_id', '=', r.id).execute());
    expectError(await r.client.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    await byOther(() => other.platform.repos.resellers.addWhitelistIp(r.id, '127.0.0.1', Date.now()));
    expect((await r.client.get('/balance')).status).toBe(200);
    await byOther(() => odb.updateTable('api_keys').set({ revoked_at: Date.now() }).where('reseller_id', '=', r.id).execute());
    expectError(await r.client.get('/balance'), 401, 'INVALID_API_KEY');
    expectError(await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' }), 401, 'INVALID_API_KEY');
  });

  it('catalog cache: price, tier, route and assignment changes by another process apply to the next request (PostgreSQL: once announced)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const odb = other.platform.database.db;
    const price = async () => (await r.client.get('/products?limit=100')).body.data.products.find((p: any) => p.code === 'FF-100');
    const before = await price();
    await byOther(() => odb.updateTable('catalog_prices').set((eb) => ({ price: eb('price', '+', 1) })).where('product_code', '=', 'FF-100').execute());
    expect((await price()).price).toBe(before.price + 1);
    expectError(await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1', price: before.price }), 409, 'PRICE_NOT_MATCH');
    const ok = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1', price: before.price + 1 });
    expect(ok.body.data.price).toBe(before.price + 1);
    await byOther(() => odb.updateTable('catalog_prices').set((eb) => ({ price: eb('price', '-', 1) })).where('product_code', '=', 'FF-100').execute());
    // Tier: prices follow at once.
    await byOther(() => other.platform.repos.resellers.setTier(r.id, 'diamond', Date.now()));
    const diamond = await odb.selectFrom('catalog_prices').select('price').where('product_code', '=', 'FF-100').where('tier', '=', 'diamond').executeTakeFirstOrThrow();
    expect((await price()).price).toBe(Number(diamond.price));
    // Routes: the gate closes and status turns inactive at once; and back.
    await byOther(() => odb.updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', 'FF-100').execute());
    try {
      expect((await price()).status).toBe('inactive');
      expectError(await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' }), 503, 'ORDER_FAILED_SUPPLIER_GATE');
    } finally {
      await byOther(() => odb.updateTable('product_routes').set({ enabled: 1 }).where('product_code', '=', 'FF-100').execute());
    }
    expect((await price()).status).toBe('active');
    // Assignment: unassigned from the catalog, the products are gone.
    await byOther(() => odb.deleteFrom('reseller_catalogs').where('reseller_id', '=', r.id).execute());
    expect((await r.client.get('/products')).body.meta.total).toBe(0);
    expectError(await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' }), 404, 'PRODUCT_NOT_FOUND');
  });

  it('catalog page cache: each query its own page, the same bytes and headers when served again', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const p1 = await r.client.get('/products?limit=2&page=1');
    const p2 = await r.client.get('/products?limit=2&page=2');
    const again = await r.client.get('/products?page=1&limit=2');
    expect(p1.status).toBe(200);
    expect(p1.body.data.products).toHaveLength(2);
    expect(p2.body.data.products.map((p: any) => p.code)).not.toEqual(p1.body.data.products.map((p: any) => p.code));
    expect(again.text).toBe(p1.text);
    for (const res of [p1, again]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, max-age=60, must-revalidate');
      expect(res.headers['vary']).toBe('X-Api-Key');
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    }
    // Counted per request even when the page is cached.
    expect(Number(again.headers['x-ratelimit-remaining'])).toBeLessThan(Number(p1.headers['x-ratelimit-remaining']));
    const slug: string = p1.body.data.products[0].category_slug;
    const filtered = await r.client.get(`/products?limit=2&category_slug=${encodeURIComponent(slug)}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.products.every((p: any) => p.category_slug === slug)).toBe(true);
    // Pages are per reseller and tier: a Diamond reseller's first page carries Diamond prices.
    const s = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000, tier: 'diamond' });
    const sp = await s.client.get('/products?limit=2&page=1');
    expect(sp.status).toBe(200);
    const diamond = await t.platform.database.db.selectFrom('catalog_prices').select(['product_code', 'price']).where('tier', '=', 'diamond').execute();
    for (const p of sp.body.data.products) expect(diamond.some((d) => d.product_code === p.code && Number(d.price) === p.price)).toBe(true);
    // Invalid queries are refused before any cache.
    expectError(await r.client.get('/products?limit=0'), 400, 'INVALID_PAGINATION');
  });

  it('bumpVersion() invalidates both caches (for changes triggers cannot see)', async () => {
    const db = t.platform.database.db;
    const before = await db.selectFrom('cache_versions').select(['name', 'version']).orderBy('name').execute();
    await bumpVersion(db);
    const after = await db.selectFrom('cache_versions').select(['name', 'version']).orderBy('name').execute();
    expect(after.map((v) => Number(v.version))).toEqual(before.map((v) => Number(v.version) + 1));
  });

  it('group commit: concurrent orders of several resellers, with duplicates and a short balance, each get their own exact answer', async () => {
    const a = await createReseller(t.platform, t.baseUrl, { balance: 15_000 * 5 }); // room for 5 orders
    const b = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const refsB = Array.from({ length: 20 }, (_, i) => `g-${i}`);
    const results = await Promise.all([
      ...Array.from({ length: 12 }, () => a.client.post('/order', { ref_id: uniqueRef('a'), product_code: 'FF-100', target: '1' })),
      ...refsB.flatMap((ref) => [b.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '1' }), b.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '1' })]),
    ]);
    const ra = results.slice(0, 12);
    expect(ra.filter((x) => x.status === 200)).toHaveLength(5);
    for (const x of ra.filter((y) => y.status !== 200)) {
      expectError(x, 402, 'INSUFFICIENT_BALANCE');
      expect(x.body.message).toMatch(/^balance 0 IDR is lower than the price/); // the exact balance, from the group's own check
    }
    const rb = results.slice(12);
    expect(rb.filter((x) => x.status === 200)).toHaveLength(20);
    for (const x of rb.filter((y) => y.status !== 200)) expectError(x, 409, 'DUPLICATE_REF_ID');
    const { db } = t.platform.database;
    for (const r of [a, b]) {
      const wallet = await db.selectFrom('resellers').select(['balance', 'order_seq', 'ledger_seq']).where('id', '=', r.id).executeTakeFirstOrThrow();
      const sum = await db.selectFrom('ledger_entries').select((eb) => eb.fn.sum<number>('amount').as('s')).where('reseller_id', '=', r.id).executeTakeFirstOrThrow();
      expect(Number(sum.s)).toBe(Number(wallet.balance));
      const orders = await db.selectFrom('orders').select('seq').where('reseller_id', '=', r.id).orderBy('seq').execute();
      expect(orders.map((o) => Number(o.seq))).toEqual(orders.map((_, i) => i + 1)); // gap-free
      expect(Number(wallet.order_seq)).toBe(orders.length);
    }
    expect(Number((await db.selectFrom('resellers').select('balance').where('id', '=', a.id).executeTakeFirstOrThrow()).balance)).toBe(0);
  });

  it('group commit: orders that arrive in the same turn of the event loop commit in few groups (SQLite: one)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const orders = t.platform.repos.orders;
    const before = { ...orders.groupStats };
    // A SQLite group runs synchronously: started at the first order, it would hold that one
    // alone. PostgreSQL starts a group at the first order; the other 29, of the same
    // reseller, wait for it (never two groups of one reseller at once) and go as one group.
    const placed = await Promise.all(
      Array.from({ length: 30 }, () =>
        orders.placeWithDebit(
          { id: crypto.randomUUID(), resellerId: r.id, refId: uniqueRef('turn'), productCode: 'FF-100', productName: 'FF 100', categorySlug: 'free-fire', target: '1', zone: null, price: 1_000, checkerVerified: false },
          Date.now(),
        ),
      ),
    );
    expect(placed).toHaveLength(30);
    expect(orders.groupStats.orders - before.orders).toBe(30);
    expect(orders.groupStats.groups - before.groups).toBe(kind === 'sqlite' ? 1 : 2);
  });
});
