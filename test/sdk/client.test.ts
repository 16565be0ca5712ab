import { orderTarget, TopupApiError, TopupClient, TopupFormError } from '@topup/reseller-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';
import { expectApiError, sdkFor } from './support.js';

/** The SDK against the real service: every endpoint, and every refusal and failure the sandbox produces. */
describe.each(storeKinds())('@topup/reseller-client against the service (%s)', (kind) => {
  let t: TestApp;
  let sdk: TopupClient;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
    sdk = sdkFor(t);
  });
  afterAll(async () => t?.close());

  it('has a typed method for every endpoint, each answering its data', async () => {
    const { categories } = await sdk.categories();
    expect(categories.map((c) => c.slug)).toContain('free-fire');
    const page = await sdk.products({ category_slug: 'free-fire', limit: 1 });
    expect(page.products).toEqual([expect.objectContaining({ code: 'FF-100', category_slug: 'free-fire', status: 'active' })]);
    expect(page.meta).toMatchObject({ page: 1, limit: 1, has_more: true });

    const before = await sdk.balance();
    const ref = uniqueRef('sdk');
    const placed = await sdk.placeOrder({ ref_id: ref, product_code: 'FF-100', target: '123456789', price: page.products[0]!.price });
    expect(placed).toMatchObject({ ref_id: ref, status: 'processing', recovered: false, price: page.products[0]!.price });
    expect(placed.order_code).toMatch(/^ORD-[0-9A-F]{12}$/);
    const final = await sdk.waitForFinal(ref, { intervalMs: 25, waitMs: 15_000 });
    expect(final).toMatchObject({ ref_id: ref, status: 'success', order_id: placed.order_id });
    expect(final.serial_number).toMatch(/^SRL-/);
    expect((await sdk.balance()).balance).toBe(before.balance - placed.price);
    expect(await sdk.checkStatus(ref)).toEqual(final);

    const orders = await sdk.orders({ status: 'success', limit: 5 });
    expect(orders.orders.map((o) => o.ref_id)).toContain(ref);
    expect(orders.meta.page).toBe(1);
    const ledger = await sdk.walletHistory({ limit: 5 });
    expect(ledger.entries.length).toBeGreaterThan(0);
    expect(ledger.meta.limit).toBe(5);

    const validation = await sdk.validate({ category_slug: 'free-fire', fields: { user_id: '123456789' } });
    expect(validation).toMatchObject({ valid: true, verdict: 'valid', target: '123456789' });
    const log = await sdk.callbackLog(ref);
    expect(log).toBeTruthy();
    await ledgerConsistent(t.platform.database.db);
  });

  it('throws the refusals of the pre-order checker and of the order rules as typed errors', async () => {
    const order = (target: string, extra: object = {}) => ({ ref_id: uniqueRef('sdk-refused'), product_code: 'FF-100', target, ...extra });
    await expectApiError(sdk.placeOrder(order('4040404040')), 400, 'INVALID_ID');
    await expectApiError(sdk.placeOrder(order('4030403040')), 400, 'REGION_LOCK');
    await expectApiError(sdk.placeOrder(order('4290429040')), 400, 'PURCHASE_LIMIT');
    await expectApiError(sdk.placeOrder(order('1', { price: 1 })), 409, 'PRICE_NOT_MATCH');
    await expectApiError(sdk.placeOrder({ ...order('1'), product_code: 'NOPE-1' }), 404, 'PRODUCT_NOT_FOUND');
    await expectApiError(sdk.placeOrder({ ...order('1'), colour: 'red' } as never), 400, 'VALIDATION_ERROR');
    // DUPLICATE_REF_ID on the first attempt is the caller's mistake: thrown, never resolved.
    const used = order('123456789');
    await sdk.placeOrder(used);
    await expectApiError(sdk.placeOrder(used), 409, 'DUPLICATE_REF_ID');
    // A different order under a used ref_id is not "recovered" even when resuming.
    await expectApiError(sdk.placeOrder({ ...used, target: '999' }, { resume: true }), 409, 'DUPLICATE_REF_ID');
    // Resuming the same order resolves to it.
    expect(await sdk.placeOrder(used, { resume: true })).toMatchObject({ ref_id: used.ref_id, recovered: true });

    await expectApiError(sdk.orderStatus('never-placed'), 404, 'PRODUCT_NOT_FOUND');
    await expectApiError(sdk.orderStatus(''), 400, 'REF_ID_REQUIRED');
    await expectApiError(sdk.products({ limit: 0 }), 400, 'INVALID_PAGINATION');
    await expectApiError(sdk.orders({ start_date: 'yesterday' }), 400, 'INVALID_DATE_RANGE');
    await expectApiError(sdk.orders({ start_date: '2025-01-01', end_date: '2025-06-01' }), 400, 'DATE_RANGE_TOO_LARGE');
    await expectApiError(sdk.orders({ status: 'lost' }), 400, 'INVALID_STATUS_FILTER');
    await expectApiError(sdk.validate({ category_slug: 'valorant', fields: {} }), 404, 'GAME_NOT_SUPPORTED');
    await expectApiError(sdk.validate({ category_slug: 'mobile-legends', fields: { user_id: '12345678' } }), 400, 'VALIDATION_FIELDS_MISSING');
    await expectApiError(sdk.validate({ category_slug: 'free-fire', fields: { user_id: '5030503050' } }), 503, 'CHECKER_UNAVAILABLE');
    // Over the 4 KB body limit (the SDK sends Content-Length, so never LENGTH_REQUIRED).
    await expectApiError(sdk.validate({ category_slug: 'free-fire', fields: { user_id: '1', note: 'x'.repeat(5000) } }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it("orderTarget builds from the service's own category form an order the service accepts", async () => {
    const { categories } = await sdk.categories();
    const ragnarok = categories.find((c) => c.slug === 'ragnarok-origin')!;
    const built = orderTarget(ragnarok, { user_id: '4001234', region: 'eu', server: 'geffen-2' });
    expect(built).toEqual({ target: '4001234', zone: 'eu|geffen-2' });
    const placed = await sdk.placeOrder({ ref_id: uniqueRef('sdk-form'), product_code: 'RO-60', ...built });
    expect((await sdk.orderStatus(placed.ref_id)).zone_id).toBe('eu|geffen-2');
    // What the helper refuses (a label), the service refuses too.
    expect(() => orderTarget(ragnarok, { user_id: '4001234', region: 'Europe', server: 'geffen-2' })).toThrow(TopupFormError);
    await expectApiError(sdk.placeOrder({ ref_id: uniqueRef('sdk-form'), product_code: 'RO-60', target: '4001234', zone: 'Europe|geffen-2' }), 400, 'VALIDATION_ERROR');
  });

  it('reports every sandbox fulfilment failure through waitForFinal with its failure_code', async () => {
    const cases: [string, string, string | undefined, string | null][] = [
      ['FF-100', '7000000001', undefined, 'SUPPLIER_MAINTENANCE'],
      ['FF-100', '7000000002', undefined, 'SUPPLIER_UNREACHABLE'],
      ['FF-100', '7000000003', undefined, 'SUPPLIER_REJECTED'],
      ['FF-100', '7000000004', undefined, 'PRODUCT_UNAVAILABLE'],
      ['FF-100', '7000000005', undefined, null],
      ['ML-WDP', '7000000003', '1234', 'WDP_LIMIT_LIKELY'],
      // The checker cannot answer: the order proceeds and succeeds.
      ['FF-100', '5030503050', undefined, 'success'],
    ];
    const refs = await Promise.all(cases.map(async ([product_code, target, zone]) => {
      const ref_id = uniqueRef('sdk-fail');
      await sdk.placeOrder({ ref_id, product_code, target, ...(zone ? { zone } : {}) });
      return ref_id;
    }));
    for (const [i, [, target, , code]] of cases.entries()) {
      const o = await sdk.waitForFinal(refs[i]!, { intervalMs: 25, waitMs: 15_000 });
      if (code === 'success') expect(o.status, target).toBe('success');
      else expect({ status: o.status, failure_code: o.failure_code, serial: o.serial_number }, target).toEqual({ status: 'failed', failure_code: code, serial: null });
    }
    await ledgerConsistent(t.platform.database.db);
  });

  it('throws the authentication, access, balance and supplier-gate refusals', async () => {
    const { baseUrl } = t;
    const poor = await createReseller(t.platform, baseUrl, { balance: 1 });
    await expectApiError(new TopupClient({ baseUrl, apiKey: poor.apiKey, apiSecret: poor.apiSecret }).placeOrder({ ref_id: uniqueRef(), product_code: 'FF-100', target: '1' }), 402, 'INSUFFICIENT_BALANCE');
    await expectApiError(sdkFor(t, { apiKey: 'tk_unknown' }).balance(), 401, 'INVALID_API_KEY');
    await expectApiError(sdkFor(t, { apiSecret: 'not-the-secret' }).balance(), 401, 'INVALID_SIGNATURE');
    await expectApiError(sdkFor(t, { now: () => Date.now() - 10 * 60_000 }).balance(), 400, 'TIMESTAMP_EXPIRED');
    const elsewhere = await createReseller(t.platform, baseUrl, { whitelist: ['203.0.113.7'] });
    await expectApiError(new TopupClient({ baseUrl, apiKey: elsewhere.apiKey, apiSecret: elsewhere.apiSecret }).balance(), 403, 'IP_NOT_WHITELISTED');
    const suspended = await createReseller(t.platform, baseUrl, { status: 'suspended' });
    await expectApiError(new TopupClient({ baseUrl, apiKey: suspended.apiKey, apiSecret: suspended.apiSecret }).balance(), 403, 'RESELLER_INACTIVE');

    const { db } = t.platform.database;
    await db.updateTable('suppliers').set({ enabled: 0 }).execute();
    const ref_id = uniqueRef('sdk-gate');
    try {
      // 503 is retried (safe: no order was created), then thrown.
      await expectApiError(sdk.placeOrder({ ref_id, product_code: 'FF-100', target: '1' }), 503, 'ORDER_FAILED_SUPPLIER_GATE');
      await expectApiError(sdk.orderStatus(ref_id), 404, 'PRODUCT_NOT_FOUND');
    } finally {
      await db.updateTable('suppliers').set({ enabled: 1 }).execute();
    }
    // The same ref_id is free: a later call orders once.
    expect(await sdk.placeOrder({ ref_id, product_code: 'FF-100', target: '1' })).toMatchObject({ ref_id, recovered: false });
  });
});

describe('RATE_LIMIT_EXCEEDED from the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { RATE_LIMIT_SCALE: '0.01' } });
  });
  afterAll(async () => t?.close());

  it('is thrown with its Retry-After when that is longer than the client will wait', async () => {
    const sdk = sdkFor(t, { retries: { max: 2, maxRetryAfterMs: 100 } });
    for (let i = 0; i < 3; i++) await sdk.balance();
    const e = await expectApiError(sdk.balance(), 429, 'RATE_LIMIT_EXCEEDED');
    expect(e.retryAfterMs).toBeGreaterThan(100);
    expect(e).toBeInstanceOf(TopupApiError);
    // POST /order is exempt, and still answers.
    expect(await sdk.placeOrder({ ref_id: uniqueRef(), product_code: 'FF-100', target: '1' })).toMatchObject({ status: 'processing' });
  });
});
