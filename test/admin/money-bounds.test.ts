import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXACT_MINOR } from '../../src/domain/money.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** A small seeded PRNG (mulberry32): the random sequence below is the same on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_OP = 1_000_000_000_000; // MAX_OPERATION_AMOUNT of these tests, IDR (no decimals)

/**
 * Issue 28 item 2: every amount and every balance stays an exact integer of minor units.
 * balance = Σ entries is checked with BigInt from the store's own text of the numbers, so a
 * lost digit cannot hide behind a double's rounding.
 */
describe.each(storeKinds())('money bounds (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    // Four-eyes off: these bounds are about amounts far above any approval threshold, applied at once.
    t = await startTestApp(kind, { env: { MAX_OPERATION_AMOUNT: String(MAX_OP), FOUR_EYES_THRESHOLD: '0' } });
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  /** balance and Σ entries of every reseller, exactly (BigInt of the stored values). */
  async function exactLedger() {
    const { db } = t.platform.database;
    const resellers = await db.selectFrom('resellers').select(['id', 'balance']).execute();
    for (const r of resellers) {
      const entries = await db.selectFrom('ledger_entries').select(['amount']).where('reseller_id', '=', r.id).execute();
      const sum = entries.reduce((s, e) => s + BigInt(String(e.amount)), 0n);
      expect(BigInt(String(r.balance)), r.id).toBe(sum);
      expect(BigInt(String(r.balance)) <= BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    }
    await ledgerConsistent(db);
  }

  it('refuses an amount over MAX_OPERATION_AMOUNT with VALIDATION_ERROR saying the limit, changing nothing (the 8e15 reproduction)', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    for (const amount of [8e15, 8e15, MAX_OP + 1, 1e300]) {
      const res = await op.post(`/resellers/${r.id}/wallet/credit`, { amount, note: 'huge' });
      expectJsonError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toContain(`at most ${MAX_OP} IDR (MAX_OPERATION_AMOUNT)`);
    }
    expectJsonError(await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 8e15, note: 'huge' }), 400, 'VALIDATION_ERROR');
    expect(await stateSnapshot(t.platform)).toEqual(before);
    for (let i = 0; i < 2; i++) expect((await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 1, note: 'one' })).body.data.balance).toBe(i + 1);
    expect((await op.post(`/resellers/${r.id}/wallet/credit`, { amount: MAX_OP, note: 'the most one credit may move' })).status).toBe(200);
    await exactLedger();
  });

  it('refuses a credit that would take the balance past the largest exact balance, saying the limit', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    await t.platform.repos.ledger.adjust(r.id, MAX_EXACT_MINOR - 10, 'near the bound', Date.now());
    const before = await stateSnapshot(t.platform);
    const refused = await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 11, note: 'one too many' });
    expectJsonError(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.message).toContain(`past the largest balance the service holds, ${MAX_EXACT_MINOR} IDR; nothing was changed`);
    expect(await stateSnapshot(t.platform)).toEqual(before);
    const exact = await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 10, note: 'exactly to the bound' });
    expect(exact.body.data.balance).toBe(MAX_EXACT_MINOR);
    expect(await t.platform.repos.ledger.adjust(r.id, 1, 'store guard too', Date.now())).toBeNull();
    await exactLedger();
  });

  it('bounds price inputs the same way: catalog prices and supplier costs', async () => {
    const catalogId = (await op.get('/catalogs')).body.data.catalogs[0].id;
    const price = await op.put(`/catalogs/${catalogId}/prices`, { prices: [{ product_code: 'FF-100', tier: 'gold', price: MAX_OP + 1 }] });
    expectJsonError(price, 400, 'VALIDATION_ERROR');
    expect(price.body.message).toContain('MAX_OPERATION_AMOUNT');
    expectJsonError(await op.post('/routes', { product_code: 'FF-100', supplier: 'sandbox', sku: uniqueRef(), priority: 9, cost: 9e15 }), 400, 'VALIDATION_ERROR');
  });

  it('no sequence of credits, debits, orders and refunds (huge values included) leaves balance ≠ Σ entries', async () => {
    const random = prng(28);
    const r = await createReseller(t.platform, t.baseUrl);
    // Start near the bound so that the sequence meets it.
    await t.platform.repos.ledger.adjust(r.id, MAX_EXACT_MINOR - 3 * MAX_OP, 'near the bound', Date.now());
    const orders: string[] = [];
    const amounts = () => {
      const pick = random();
      if (pick < 0.3) return Math.floor(random() * 100_000) + 1;
      if (pick < 0.5) return MAX_OP;
      if (pick < 0.6) return MAX_OP + Math.floor(random() * 10);
      if (pick < 0.7) return 8e15;
      if (pick < 0.8) return Number.MAX_SAFE_INTEGER;
      if (pick < 0.9) return 0.5;
      return Math.floor(random() * MAX_OP);
    };
    const outcomes = new Map<number, number>();
    for (let i = 0; i < 120; i++) {
      const what = random();
      let status: number;
      if (what < 0.35) status = (await op.post(`/resellers/${r.id}/wallet/credit`, { amount: amounts(), note: `credit ${i}` })).status;
      else if (what < 0.6) status = (await op.post(`/resellers/${r.id}/wallet/debit`, { amount: amounts(), note: `debit ${i}` })).status;
      else if (what < 0.85) {
        const placed = await r.client.post('/order', { ref_id: `seq-${i}-${uniqueRef()}`, product_code: 'FF-100', target: '123456789' });
        status = placed.status;
        if (placed.status === 200) orders.push(placed.body.data.order_id);
      } else {
        const id = orders[Math.floor(random() * orders.length)];
        status = id ? (await op.post(`/orders/${id}/refund`, { note: `refund ${i}` })).status : 0;
      }
      expect(status).not.toBe(500);
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
      if (i % 20 === 19) await exactLedger();
    }
    // The sequence met every kind of answer: applied, refused by a bound, refused for the balance.
    expect(outcomes.get(200)).toBeGreaterThan(10);
    expect(outcomes.get(400)).toBeGreaterThan(5);
    await exactLedger();
  }, 120_000);
});
