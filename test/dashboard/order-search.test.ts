import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from '../../src/domain/csv.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import type { ResellerClient } from '../support/client.js';
import { approve, expectDeclared, generateKey, registerAccount, type Account } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

/** Parses what csvDocument writes (quoted cells with "" escapes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += c;
  }
  return rows;
}

describe('CSV cells', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell(-1500)).toBe('-1500');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(parseCsv(csvDocument(['a', 'b'], [['=1+1', 'x,"y"']]))).toEqual([['a', 'b'], ["'=1+1", 'x,"y"']]);
  });
});

describe.each(storeKinds())('dashboard order search, detail and exports (%s)', (kind) => {
  let t: TestApp;
  let a: Account;
  let api: ResellerClient;
  const placed: { id: string; ref: string; code: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
    a = await registerAccount(t);
    await approve(t, a.id, { balance: 10_000_000 });
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    api = (await generateKey(t, a.client)).api;
    for (const [ref, code] of [['shop-A-1', 'FF-100'], ['shop-A-2', 'ML-86'], ['shop-B-1', 'FF-100'], ['other-1', 'FF-100'], ['🎮-é-1', 'FF-100']] as const) {
      const o = await api.post('/order', { ref_id: ref, product_code: code, target: '5550001', zone: code === 'ML-86' ? '2001' : undefined });
      expect(o.status, o.text).toBe(200);
      placed.push({ id: o.body.data.order_id, ref, code });
    }
    for (const p of placed) await waitForTerminal(api, p.ref);
    // Another reseller's order with a matching ref_id and product stays invisible.
    const b = await registerAccount(t);
    await approve(t, b.id, { balance: 1_000_000 });
    await b.client.post('/whitelist', { ip: '127.0.0.1' });
    await b.client.post('/whitelist', { ip: '::1' });
    const bApi = (await generateKey(t, b.client)).api;
    expect((await bApi.post('/order', { ref_id: 'shop-A-9', product_code: 'FF-100', target: '5550001' })).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it('filters by product_code and by ref_id prefix, with exact totals, combined with status', async () => {
    const byProduct = await a.client.get('/orders?product_code=FF-100');
    expectDeclared(t, 'GET', '/orders', byProduct);
    expect(byProduct.body.meta.total).toBe(4);
    expect(byProduct.body.data.orders.map((o: any) => o.ref_id).sort()).toEqual(['other-1', 'shop-A-1', 'shop-B-1', '🎮-é-1'].sort());
    // A prefix with characters outside ASCII (one of them outside the BMP).
    expect((await a.client.get(`/orders?ref_id=${encodeURIComponent('🎮-é')}`)).body.data.orders.map((o: any) => o.ref_id)).toEqual(['🎮-é-1']);

    const byRef = await a.client.get('/orders?ref_id=shop-A');
    expect(byRef.body.data.orders.map((o: any) => o.ref_id).sort()).toEqual(['shop-A-1', 'shop-A-2']);
    expect(byRef.body.meta.total).toBe(2);
    // A search counts and pages through its first 10,000 matches (test/store/dashboard-search.test.ts: past them).
    expect(byRef.body.data.matches_capped).toBe(false);
    expect((await a.client.get('/orders')).body.data.matches_capped).toBe(false);
    expectJsonError(await a.client.get('/orders?ref_id=shop-&limit=50&page=201'), 400, 'INVALID_PAGINATION');
    expect((await a.client.get('/orders?limit=50&page=201')).status).toBe(200);
    expect((await a.client.get('/orders?ref_id=shop-a')).body.meta.total).toBe(0);
    expect((await a.client.get('/orders?ref_id=shop-&product_code=FF-100&limit=1&page=2')).body).toMatchObject({ meta: { total: 2, page: 2, has_more: false }, data: { orders: [{}] } });
    expect((await a.client.get('/orders?ref_id=shop-A-1')).body.data.orders[0].order_id).toBe(placed[0]!.id);
    const status = (await a.client.get('/orders?ref_id=shop-A-1')).body.data.orders[0].status;
    expect((await a.client.get(`/orders?ref_id=shop-A&status=${status}`)).body.meta.total).toBeGreaterThanOrEqual(1);
    expect((await a.client.get('/orders?product_code=NOPE')).body.meta.total).toBe(0);

    expectJsonError(await a.client.get(`/orders?ref_id=${'x'.repeat(101)}`), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.get('/orders?product_code=a%00b'), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.get('/orders?ref_id=x&status=bogus'), 400, 'INVALID_STATUS_FILTER');
    expectJsonError(await a.client.get('/orders?ref_id=x&limit=500'), 400, 'INVALID_PAGINATION');
  });

  it("an order's detail has its ledger entries, a timeline and every callback attempt", async () => {
    const r = await a.client.get(`/orders/${placed[0]!.id}`);
    expectDeclared(t, 'GET', '/orders/{id}', r);
    const d = r.body.data;
    expect(d.ledger_entries[0]).toMatchObject({ type: 'order_debit', order_id: placed[0]!.id, ref_id: 'shop-A-1' });
    expect(d.ledger_entries[0].amount).toBe(-d.price);
    const events = d.timeline.map((x: any) => x.event);
    expect(events[0]).toBe('placed');
    expect(events).toContain('debited');
    expect(events).toContain(d.status === 'success' ? 'succeeded' : 'failed');
    // What each sentence is made of, so the apps say it in their reader's language.
    expect(d.timeline[0].params).toMatchObject({ product_code: d.product_code, target: d.target_id, ref_id: 'shop-A-1' });
    expect(d.timeline.find((x: any) => x.event === 'debited').params).toEqual({ amount: d.price, balance_after: d.ledger_entries[0].balance_after });
    const times = d.timeline.map((x: any) => Date.parse(x.at));
    expect([...times].sort((p, q) => p - q)).toEqual(times);
    expect(Array.isArray(d.callbacks)).toBe(true);
    // Another reseller's order is not found, like a missing one.
    const other = await registerAccount(t);
    expectJsonError(await other.client.get(`/orders/${placed[0]!.id}`), 404, 'NOT_FOUND');
  });

  it('exports the filtered list as CSV, scoped to the reseller', async () => {
    const r = await a.client.request('GET', '/orders/export.csv?ref_id=shop-');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
    expect(r.headers['x-export-truncated']).toBeUndefined();
    const rows = parseCsv(r.text);
    expect(rows[0]!.slice(0, 4)).toEqual(['order_code', 'order_id', 'ref_id', 'product_code']);
    expect(rows.slice(1).map((x) => x[2]).sort()).toEqual(['shop-A-1', 'shop-A-2', 'shop-B-1']);
    const all = parseCsv((await a.client.request('GET', '/orders/export.csv')).text);
    expect(all.length).toBe(1 + placed.length);
    expectJsonError(await a.client.request('GET', '/orders/export.csv?status=bogus'), 400, 'INVALID_STATUS_FILTER');
    expectJsonError(await a.client.request('GET', '/orders/export.csv?page=2'), 400, 'VALIDATION_ERROR');
  });

  it('exports the filtered ledger as CSV with formula-looking notes defused', async () => {
    await t.platform.repos.ledger.adjust(a.id, 5000, '=HYPERLINK("http://evil.example","x")', Date.now());
    const r = await a.client.request('GET', '/wallet-history/export.csv?type=credit');
    expect(r.status, r.text).toBe(200);
    expect(r.headers['content-disposition']).toBe('attachment; filename="wallet-history.csv"');
    const rows = parseCsv(r.text);
    expect(rows[0]).toEqual(['id', 'created_at', 'type', 'source', 'amount', 'balance_after', 'order_code', 'order_id', 'ref_id', 'deposit_code', 'note']);
    expect(rows.slice(1).map((x) => [x[2], x[3]])).toEqual([['credit', 'operator'], ['credit', 'operator']]);
    expect(rows[1]![10]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    const debits = parseCsv((await a.client.request('GET', '/wallet-history/export.csv?type=order_debit')).text);
    expect(debits.length).toBe(1 + placed.length);
    expectJsonError(await a.client.request('GET', '/wallet-history/export.csv?type=bogus'), 400, 'VALIDATION_ERROR');
  });
});
