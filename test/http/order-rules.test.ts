import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

const base = (over: Record<string, unknown> = {}) => ({ ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789', ...over });

describe.each(storeKinds())('POST /order rules (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    if (t) await ledgerConsistent(t.platform.database.db);
    await t?.close();
  });

  /** Sends a body that must be refused with `code` and change nothing. */
  async function refused(body: unknown, status: number, code: string, message?: RegExp | string) {
    const before = await stateSnapshot(t.platform);
    const r = await t.client.post('/order', body);
    expect(r.status, r.text).toBe(status);
    expect(r.body.error).toBe(code);
    if (message !== undefined) {
      if (typeof message === 'string') expect(r.body.message).toBe(message);
      else expect(r.body.message).toMatch(message);
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
    return r;
  }

  it('accepts an order: exactly the spec fields, charged at the server price', async () => {
    const before = (await t.client.get('/balance')).body.data.balance;
    const body = base();
    const r = await t.client.post('/order', body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.success).toBe(true);
    expect(Object.keys(r.body.data).sort()).toEqual(['message', 'order_code', 'order_id', 'price', 'product_name', 'ref_id', 'status']);
    expect(r.body.data.order_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(r.body.data.order_code).toBe(`ORD-${r.body.data.order_id.replace(/-/g, '').slice(0, 12).toUpperCase()}`);
    expect(r.body.data.order_code).toHaveLength(16);
    expect(r.body.data).toMatchObject({ ref_id: body.ref_id, product_name: '100 Diamonds', price: 15000, status: 'processing' });
    expect(r.body.data.message).toMatch(/received/i);
    expect((await t.client.get('/balance')).body.data.balance).toBe(before - 15000);
  });

  it('unknown fields are refused, naming the field', async () => {
    const r = await refused({ ...base(), quantity: 2 }, 400, 'VALIDATION_ERROR');
    expect(r.body.message).toContain("'quantity'");
    await refused({ ...base(), order_id: 'x', extra: 1 }, 400, 'VALIDATION_ERROR', /'order_id', 'extra'/);
  });

  it("missing target says exactly 'target is required (string)'", async () => {
    const { target: _t, ...noTarget } = base();
    await refused(noTarget, 400, 'VALIDATION_ERROR', 'target is required (string)');
    await refused({ ...base(), target: 12345 }, 400, 'VALIDATION_ERROR', 'target is required (string)');
    await refused({ ...base(), target: '' }, 400, 'VALIDATION_ERROR', 'target is required (string)');
  });

  it('required strings and their types', async () => {
    const { ref_id: _r, ...noRef } = base();
    await refused(noRef, 400, 'VALIDATION_ERROR', /ref_id/);
    const { product_code: _p, ...noProduct } = base();
    await refused(noProduct, 400, 'VALIDATION_ERROR', /product_code/);
    await refused({ ...base(), ref_id: 7 }, 400, 'VALIDATION_ERROR', /ref_id/);
    await refused({ ...base(), zone: 1234 }, 400, 'VALIDATION_ERROR', /zone/);
  });

  it('length limits: ref_id 64, product_code 128, target 128, zone 64', async () => {
    await refused(base({ ref_id: 'r'.repeat(65) }), 400, 'VALIDATION_ERROR', /ref_id.*64/);
    await refused(base({ product_code: 'p'.repeat(129) }), 400, 'VALIDATION_ERROR', /product_code.*128/);
    await refused(base({ target: '1'.repeat(129) }), 400, 'VALIDATION_ERROR', /target.*128/);
    await refused(base({ product_code: 'ML-86', zone: 'z'.repeat(65) }), 400, 'VALIDATION_ERROR', /zone.*64/);
    const atLimit = await t.client.post('/order', base({ ref_id: 'r'.repeat(60) + uniqueRef('').slice(-4), target: '1'.repeat(128) }));
    expect(atLimit.status, atLimit.text).toBe(200);
  });

  it('price: number or numeric string compared exactly; omitted skips the check', async () => {
    expect((await t.client.post('/order', base({ price: 15000 }))).status).toBe(200);
    expect((await t.client.post('/order', base({ price: '15000' }))).status).toBe(200);
    expect((await t.client.post('/order', base({ price: '15000.00' }))).status).toBe(200);
    await refused(base({ price: 14999 }), 409, 'PRICE_NOT_MATCH');
    await refused(base({ price: '15001' }), 409, 'PRICE_NOT_MATCH');
    await refused(base({ price: 15000.5 }), 409, 'PRICE_NOT_MATCH');
  });

  it('price null, empty string or non-numeric is a validation error, not an omission', async () => {
    await refused(base({ price: null }), 400, 'VALIDATION_ERROR', /price/);
    await refused(base({ price: '' }), 400, 'VALIDATION_ERROR', /price/);
    await refused(base({ price: 'abc' }), 400, 'VALIDATION_ERROR', /price/);
    await refused(base({ price: true }), 400, 'VALIDATION_ERROR', /price/);
    await refused(base({ price: -15000 }), 400, 'VALIDATION_ERROR', /price/);
  });

  it('DUPLICATE_REF_ID on reuse, with no second charge, even when other fields change', async () => {
    const body = base();
    expect((await t.client.post('/order', body)).status).toBe(200);
    await refused(body, 409, 'DUPLICATE_REF_ID');
    await refused({ ...body, product_code: 'FF-310', price: 1 }, 409, 'DUPLICATE_REF_ID');
    // Whatever else would refuse it now: an unknown product, a target the checker refuses,
    // no supplier (a new ref_id is not looked up before these; a refusal looks it up first).
    await refused({ ...body, product_code: 'NOPE-1' }, 409, 'DUPLICATE_REF_ID');
    await refused({ ...body, target: '4040404040' }, 409, 'DUPLICATE_REF_ID');
    const { db } = t.platform.database;
    await db.updateTable('suppliers').set({ enabled: 0 }).execute();
    try {
      await refused(body, 409, 'DUPLICATE_REF_ID');
    } finally {
      await db.updateTable('suppliers').set({ enabled: 1 }).execute();
    }
  });

  it('PRODUCT_NOT_FOUND for unknown, disabled or unassigned products', async () => {
    await refused(base({ product_code: 'NOPE-1' }), 404, 'PRODUCT_NOT_FOUND');
    const { db } = t.platform.database;
    await db.updateTable('products').set({ enabled: 0 }).where('code', '=', 'FF-310').execute();
    try {
      await refused(base({ product_code: 'FF-310' }), 404, 'PRODUCT_NOT_FOUND');
    } finally {
      await db.updateTable('products').set({ enabled: 1 }).where('code', '=', 'FF-310').execute();
    }
    const stranger = await createReseller(t.platform, t.baseUrl, { catalog: false, balance: 100_000 });
    const r = await stranger.client.post('/order', base());
    expect(r.body.error).toBe('PRODUCT_NOT_FOUND');
  });

  it('INSUFFICIENT_BALANCE changes nothing and leaves the ref_id unused', async () => {
    const poor = await createReseller(t.platform, t.baseUrl, { balance: 10_000 });
    const body = base();
    const before = await stateSnapshot(t.platform);
    const r = await poor.client.post('/order', body);
    expect(r.status).toBe(402);
    expect(r.body.error).toBe('INSUFFICIENT_BALANCE');
    expect(await stateSnapshot(t.platform)).toEqual(before);
    expect((await poor.client.get(`/order-status?ref_id=${body.ref_id}`)).status).toBe(404);
    await t.platform.repos.ledger.adjust(poor.id, 5_000, 'top up', Date.now());
    expect((await poor.client.post('/order', body)).status).toBe(200);
  });

  it('zone: required for games with a server field, joined with | for two, ignored otherwise', async () => {
    await refused(base({ product_code: 'ML-86' }), 400, 'VALIDATION_ERROR', /zone/);
    const ml = base({ product_code: 'ML-86', zone: '2001' });
    expect((await t.client.post('/order', ml)).status).toBe(200);
    expect((await t.client.get(`/order-status?ref_id=${ml.ref_id}`)).body.data.zone_id).toBe('2001');

    const ro = base({ product_code: 'RO-60', zone: 'sea|prontera-1' });
    expect((await t.client.post('/order', ro)).status).toBe(200);
    expect((await t.client.get(`/order-status?ref_id=${ro.ref_id}`)).body.data.zone_id).toBe('sea|prontera-1');

    const ff = base({ zone: '9999' });
    expect((await t.client.post('/order', ff)).status).toBe(200);
    expect((await t.client.get(`/order-status?ref_id=${ff.ref_id}`)).body.data.zone_id).toBeNull();

    const val = base({ product_code: 'VAL-475', target: 'PlayerName#SEA1' });
    expect((await t.client.post('/order', val)).status).toBe(200);
    expect((await t.client.get(`/order-status?ref_id=${val.ref_id}`)).body.data).toMatchObject({ target_id: 'PlayerName#SEA1', zone_id: null });

    const voucher = base({ product_code: 'STEAM-60K', target: 'my-shop-order-77' });
    const v = await t.client.post('/order', voucher);
    expect(v.status).toBe(200);
    expect(v.body.data.price).toBe(63000);
  });

  it('zone of a game whose server fields have options: only their values, in the form order, are charged', async () => {
    const before = (await t.client.get('/balance')).body.data.balance;
    const ok = base({ product_code: 'RO-60', zone: 'eu|geffen-2' });
    const r = await t.client.post('/order', ok);
    expect(r.status, r.text).toBe(200);
    expect((await t.client.get('/balance')).body.data.balance).toBe(before - r.body.data.price);
    const allowed = 'region one of "sea", "eu"; server one of "prontera-1", "geffen-2"';
    for (const zone of ['Southeast Asia|Prontera 1', 'sea|prontera-9', 'sea', 'seaprontera-1', 'prontera-1|sea', 'sea|prontera-1|']) {
      const body = base({ product_code: 'RO-60', zone });
      const refusedOrder = await refused(body, 400, 'VALIDATION_ERROR');
      expect(refusedOrder.body.message, zone).toContain(`zone "${zone}" does not fit the form of Ragnarok Origin`);
      expect(refusedOrder.body.message, zone).toContain('<region>|<server>');
      expect(refusedOrder.body.message, zone).toContain(allowed);
      // The refusal does not take the ref_id: the corrected order goes through.
      expect((await t.client.post('/order', { ...body, zone: 'sea|prontera-1' })).status).toBe(200);
    }
    // A game whose server field is free text keeps any zone.
    expect((await t.client.post('/order', base({ product_code: 'ML-86', zone: 'any|thing' }))).status).toBe(200);
  });

  it('POST /validation refuses a select field value that is not one of its options (a label included)', async () => {
    await t.platform.operator.catalog.updateCategory('ragnarok-origin', { checkerEnabled: true }, 'test');
    try {
      const check = (fields: Record<string, string>) => t.client.post('/validation', { category_slug: 'ragnarok-origin', fields });
      const ok = await check({ user_id: '4001234', region: 'sea', server: 'prontera-1' });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.data.zone).toBe('sea|prontera-1');
      const label = await check({ user_id: '4001234', region: 'Southeast Asia', server: 'prontera-1' });
      expect(label.status, label.text).toBe(400);
      expect(label.body.error).toBe('VALIDATION_ERROR');
      expect(label.body.message).toBe('fields.region must be one of "sea", "eu" (the option values, not their labels)');
    } finally {
      await t.platform.operator.catalog.updateCategory('ragnarok-origin', { checkerEnabled: false }, 'test');
    }
  });

  it('ORDER_FAILED_SUPPLIER_GATE when no supplier can take the product: no order, no debit, ref_id free', async () => {
    const { db } = t.platform.database;
    await db.updateTable('suppliers').set({ enabled: 0 }).execute();
    const body = base();
    try {
      await refused(body, 503, 'ORDER_FAILED_SUPPLIER_GATE');
      expect((await t.client.get(`/order-status?ref_id=${body.ref_id}`)).status).toBe(404);
    } finally {
      await db.updateTable('suppliers').set({ enabled: 1 }).execute();
    }
    expect((await t.client.post('/order', body)).status).toBe(200);
  });
});
