import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inCutOff } from '../../src/adapters/suppliers/digiflazz/price-list.js';
import { RC_TABLE } from '../../src/adapters/suppliers/digiflazz/response-codes.js';
import { DigiflazzSupplier } from '../../src/adapters/suppliers/digiflazz/supplier.js';
import type { DigiflazzCredentials } from '../../src/adapters/suppliers/digiflazz/protocol.js';
import type { SubmitRequest } from '../../src/adapters/suppliers/types.js';
import { startFakeDigiflazz, type FakeDigiflazz } from '../support/fake-digiflazz.js';

/**
 * The digiflazz adapter against the fake Digiflazz server on loopback (written from the
 * protocol facts). The adapter touches no store; the service tests with both stores are
 * digiflazz.test.ts and digiflazz-crash.test.ts.
 */
const WIB = 7 * 3600_000;
/** 2026-11-25 10:00 WIB. */
const TEN_WIB = Date.UTC(2026, 10, 25, 10, 0) - WIB;

describe('digiflazz adapter against the fake supplier', () => {
  let fake: FakeDigiflazz;
  let now = TEN_WIB;
  const clock = { now: () => now };
  const deposits: number[] = [];
  let shorts = 0;
  const make = (creds: Partial<DigiflazzCredentials> = {}, settings: { timeoutMs?: number } = {}) =>
    new DigiflazzSupplier(
      async () => ({ baseUrl: fake.url, username: fake.username, apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, ...creds }),
      clock,
      { minorPerRupiah: 1, timeoutMs: settings.timeoutMs ?? 5_000 },
      { read: async (b) => void deposits.push(b), short: async () => void shorts++ },
    );
  let dz: DigiflazzSupplier;
  const order = (o: Partial<SubmitRequest> = {}): SubmitRequest => ({
    reference: randomUUID(), sku: 'ML-86', target: `${Math.floor(Math.random() * 1e9)}`, zone: null, kind: 'instant', price: 25_000, cost: 20_000, options: {}, ...o,
  });

  beforeAll(async () => {
    fake = await startFakeDigiflazz({
      products: [
        { buyer_sku_code: 'ML-86', price: 19_500, unlimited_stock: true },
        { buyer_sku_code: 'FF-70', price: 9_000, unlimited_stock: true },
      ],
    });
    fake.now = () => now;
  });
  afterAll(async () => fake?.close());
  beforeEach(() => {
    now = TEN_WIB;
    dz = make();
    fake.failAll = null;
  });

  it('places with the attempt\'s reference as ref_id, max_price the route cost, the signed body, and reads the serial and the price charged', async () => {
    const o = order();
    expect(await dz.submit(o)).toEqual({ kind: 'success', voucherCode: expect.stringMatching(/^SN\d+$/), supplierSerial: expect.stringMatching(/^SN\d+$/), supplierMessage: 'Transaksi Sukses', charged: 19500 });
    const sent = fake.requests.filter((r) => r.body?.ref_id === o.reference);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ username: fake.username, buyer_sku_code: 'ML-86', customer_no: o.target, max_price: 20_000 });
    expect(sent[0]!.body.testing).toBeUndefined();
  });

  it('max_price is never above the order price; without a route cost it is the price', async () => {
    const a = order({ cost: 30_000, price: 25_000 });
    await dz.submit(a);
    const b = order({ cost: null, price: 21_000 });
    await dz.submit(b);
    const sent = (ref: string) => fake.requests.find((r) => r.body?.ref_id === ref)!.body;
    expect(sent(a.reference).max_price).toBe(25_000);
    expect(sent(b.reference).max_price).toBe(21_000);
  });

  it('a price above max_price is refused upstream and another route may be tried (never charged)', async () => {
    const before = fake.deposit;
    const r = await dz.submit(order({ cost: 19_000 }));
    expect(r).toMatchObject({ kind: 'failed', otherRoute: true, code: 'PRODUCT_UNAVAILABLE' });
    expect(fake.deposit).toBe(before);
  });

  it('joins target and zone into customer_no by the route format, and sends testing mode', async () => {
    const o = order({ target: '12345678', zone: '2001', options: { customerNo: '{target}{zone}', testing: true } });
    await dz.submit(o);
    expect(fake.transactions.get(o.reference)).toMatchObject({ customer_no: '123456782001', testing: true });
    const p = order({ target: '555', zone: '7', options: { customerNo: '{target}|{zone}' } });
    await dz.submit(p);
    expect(fake.transactions.get(p.reference)!.customer_no).toBe('555|7');
  });

  it('asks about an order by re-sending the same ref_id: the supplier answers it, no second transaction', async () => {
    const o = order();
    fake.behaviours.set(o.target, { kind: 'pending' });
    expect(await dz.submit(o)).toEqual({ kind: 'pending' });
    expect(await dz.status(o.reference, o)).toEqual({ kind: 'pending' });
    await fake.settle(o.reference, { status: 'Sukses', sn: 'SN-777' });
    expect(await dz.status(o.reference, o)).toEqual({ kind: 'success', voucherCode: 'SN-777', supplierSerial: 'SN-777', supplierMessage: 'Transaksi Sukses', charged: expect.any(Number) });
    expect(fake.transactions.get(o.reference)!.checks).toBe(2);
    expect([...fake.transactions.values()].filter((t) => t.customer_no === o.target)).toHaveLength(1);
  });

  it('a timeout after the supplier took the order is unknown; asking again finds it', async () => {
    const quick = make({}, { timeoutMs: 300 });
    const o = order();
    fake.behaviours.set(o.target, { kind: 'hang' });
    expect(await quick.submit(o)).toMatchObject({ kind: 'unknown' });
    expect(fake.transactions.get(o.reference)!.status).toBe('Pending');
    await fake.settle(o.reference, { status: 'Gagal', rc: '54' });
    expect(await quick.status(o.reference, o)).toMatchObject({ kind: 'failed', otherRoute: false, code: 'INVALID_ID' });
    fake.releaseHeld();
  });

  it('a voucher success without its code (sn) is asked about again, never delivered codeless', async () => {
    const o = order({ kind: 'voucher' });
    fake.behaviours.set(o.target, { kind: 'success', sn: '' });
    expect(await dz.submit(o)).toMatchObject({ kind: 'unknown' });
    await fake.settle(o.reference, { status: 'Sukses', sn: 'VCHR-1234-5678' });
    expect(await dz.status(o.reference, o)).toEqual({ kind: 'success', voucherCode: 'VCHR-1234-5678', supplierSerial: 'VCHR-1234-5678', supplierMessage: 'Transaksi Sukses', charged: expect.any(Number) });
  });

  it("an instant product's success keeps the supplier's serial (sn) and message for disputes", async () => {
    const o = order({ kind: 'instant' });
    fake.behaviours.set(o.target, { kind: 'success', sn: '1234-5678-ABCD' });
    expect(await dz.submit(o)).toEqual({ kind: 'success', voucherCode: '1234-5678-ABCD', supplierSerial: '1234-5678-ABCD', supplierMessage: 'Transaksi Sukses', charged: expect.any(Number) });
  });

  it("rc 51 (destination blocked) is a definite SUPPLIER_REJECTED with the supplier's own words", async () => {
    const o = order();
    fake.behaviours.set(o.target, { kind: 'rc', rc: '51', status: 'Gagal', message: 'Nomor tujuan diblokir' });
    expect(await dz.submit(o)).toEqual({ kind: 'failed', otherRoute: false, code: 'SUPPLIER_REJECTED', message: 'Nomor tujuan diblokir' });
  });

  it('a wrong key is refused by the supplier (rc 41): the call is refused, nothing stored, the cause named', async () => {
    const o = order();
    const r = await make({ apiKey: 'wrong' }).submit(o);
    expect(r).toMatchObject({ kind: 'refused', code: 'NO_SUPPLIER_AVAILABLE', message: 'rc 41: signature refused: check the API key (and the username) (the supplier said: "Signature Anda salah")' });
    expect(fake.transactions.has(o.reference)).toBe(false);
  });

  it('a refused connection is a refused call, to a submission and a status query alike', async () => {
    const port = await closedPort();
    const down = make({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const o = order();
    expect(await down.submit(o)).toMatchObject({ kind: 'refused', code: 'SUPPLIER_UNREACHABLE' });
    expect(await down.status(o.reference, o)).toMatchObject({ kind: 'refused', code: 'SUPPLIER_UNREACHABLE' });
    await expect(down.health()).rejects.toThrow('the balance call did not answer: ECONNREFUSED');
  });

  it('an insufficient deposit (rc 44) tries the next route and reports the short deposit', async () => {
    const saved = fake.deposit;
    fake.deposit = 100;
    try {
      const before = shorts;
      expect(await dz.submit(order())).toMatchObject({ kind: 'refused', code: 'NO_SUPPLIER_AVAILABLE' });
      expect(shorts).toBe(before + 1);
    } finally {
      fake.deposit = saved;
    }
  });

  /**
   * Every rc, each row's answer written here by hand (not read from the table), so a wrong
   * row fails: these are the rows where a wrong answer costs money.
   */
  describe('every rc', () => {
    /** The outcome is not known: placing or asking, ask again (never refund, never another route). */
    const UNKNOWN = ['01', '49', '99'];
    /** The call was refused: placing, nothing was stored (next route); asking, it says nothing about the order. */
    const CALL_REFUSED: Record<string, string> = {
      '40': 'SUPPLIER_REJECTED', '41': 'NO_SUPPLIER_AVAILABLE', '42': 'NO_SUPPLIER_AVAILABLE', '43': 'PRODUCT_UNAVAILABLE', '44': 'NO_SUPPLIER_AVAILABLE',
      '45': 'NO_SUPPLIER_AVAILABLE', '61': 'NO_SUPPLIER_AVAILABLE', '80': 'NO_SUPPLIER_AVAILABLE', '81': 'NO_SUPPLIER_AVAILABLE', '82': 'NO_SUPPLIER_AVAILABLE',
      '83': 'NO_SUPPLIER_AVAILABLE', '85': 'NO_SUPPLIER_AVAILABLE', '86': 'NO_SUPPLIER_AVAILABLE',
    };
    /** A final Gagal never taken, for the supplier's reason: the next route may be tried. */
    const NEXT_ROUTE: Record<string, string> = {
      '53': 'PRODUCT_UNAVAILABLE', '55': 'PRODUCT_UNAVAILABLE', '56': 'NO_SUPPLIER_AVAILABLE', '58': 'SUPPLIER_MAINTENANCE', '62': 'SUPPLIER_MAINTENANCE',
      '63': 'PURCHASE_LIMIT', '64': 'NO_SUPPLIER_AVAILABLE', '65': 'PURCHASE_LIMIT', '66': 'SUPPLIER_MAINTENANCE', '67': 'NO_SUPPLIER_AVAILABLE',
      '68': 'PRODUCT_UNAVAILABLE', '84': 'PRODUCT_UNAVAILABLE',
    };
    /** A final Gagal no other route changes: the order fails (its failure code is the table's). */
    const FAILED = ['02', '47', '51', '52', '54', '57', '59', '60', '73', '74'];
    const expected = (rc: string): { submit: object; status: object } => {
      if (rc === '00') return { submit: { kind: 'success' }, status: { kind: 'success' } };
      if (rc === '03') return { submit: { kind: 'pending' }, status: { kind: 'pending' } };
      if (rc === '50') return { submit: { kind: 'not-found' }, status: { kind: 'not-found' } };
      if (UNKNOWN.includes(rc)) return { submit: { kind: 'unknown' }, status: { kind: 'unknown' } };
      if (rc in CALL_REFUSED) return { submit: { kind: 'refused', code: CALL_REFUSED[rc] }, status: { kind: 'refused', code: CALL_REFUSED[rc] } };
      if (rc in NEXT_ROUTE) return { submit: { kind: 'failed', otherRoute: true, code: NEXT_ROUTE[rc] }, status: { kind: 'failed', otherRoute: true, code: NEXT_ROUTE[rc] } };
      if (FAILED.includes(rc)) return { submit: { kind: 'failed', otherRoute: false }, status: { kind: 'failed', otherRoute: false } };
      throw new Error(`rc ${rc} is in the table but not classified here: classify it by hand`);
    };

    it('every row of the table is classified here', () => {
      for (const rc of Object.keys(RC_TABLE)) expect(() => expected(rc), rc).not.toThrow();
    });

    for (const [rc, row] of Object.entries(RC_TABLE)) {
      it(`rc ${rc} (${row.meaning})`, async () => {
        const want = expected(rc);
        const o = order();
        const status = rc === '00' ? 'Sukses' : rc === '03' ? 'Pending' : 'Gagal';
        fake.behaviours.set(o.target, { kind: 'rc', rc, status });
        expect(await dz.submit(o)).toMatchObject(want.submit);
        // Asking again answers the recorded transaction by the same rules.
        expect(await dz.status(o.reference, o)).toMatchObject(want.status);
        // Refused before any transaction (a refusal of the call, nothing stored): the same answer.
        const p = order();
        fake.behaviours.set(p.target, { kind: 'rc', rc });
        if (status === 'Gagal') expect(await dz.submit(p)).toMatchObject(want.submit);
      });
    }

    it('asking about a pending order, a refused or unknown answer is never a final failure', async () => {
      for (const rc of [...UNKNOWN, ...Object.keys(CALL_REFUSED), '50', '77']) {
        const o = order();
        fake.behaviours.set(o.target, { kind: 'pending' });
        expect(await dz.submit(o)).toEqual({ kind: 'pending' });
        fake.failAll = rc;
        const answer = await dz.status(o.reference, o);
        fake.failAll = null;
        expect(['refused', 'unknown', 'not-found'], `rc ${rc}: ${JSON.stringify(answer)}`).toContain(answer.kind);
      }
    });

    it('an rc not in the table is unknown, even with a Gagal; a Pending is pending', async () => {
      const o = order();
      fake.behaviours.set(o.target, { kind: 'rc', rc: '77', status: 'Gagal' });
      expect(await dz.submit(o)).toMatchObject({ kind: 'unknown' });
      expect(await dz.status(o.reference, o)).toMatchObject({ kind: 'unknown' });
      const p = order();
      fake.behaviours.set(p.target, { kind: 'rc', rc: '77', status: 'Pending' });
      expect(await dz.submit(p)).toEqual({ kind: 'pending' });
    });

    it('a refused call that also carries a price above max_price is still only a refused call', async () => {
      const o = order({ cost: 19_000 });
      fake.behaviours.set(o.target, { kind: 'pending' });
      const saved = fake.maxPriceRc;
      fake.maxPriceRc = '45';
      try {
        // The fake stores this max_price refusal with rc 45 and the product's price (19,500).
        expect(await dz.submit(o)).toMatchObject({ kind: 'refused', code: 'NO_SUPPLIER_AVAILABLE' });
        expect(fake.transactions.get(o.reference)!.price).toBeGreaterThan(19_000);
      } finally {
        fake.maxPriceRc = saved;
      }
    });
  });

  it('keeps refused transactions for good: the same ref_id with another SKU is rc 49 (unknown), a new ref_id is placed', async () => {
    fake.products.set('OFF-53', { buyer_sku_code: 'OFF-53', price: 1_000, seller_product_status: false });
    try {
      const o = order({ sku: 'OFF-53' });
      expect(await dz.submit(o)).toMatchObject({ kind: 'failed', otherRoute: true, code: 'PRODUCT_UNAVAILABLE' });
      expect(fake.transactions.get(o.reference)).toMatchObject({ status: 'Gagal', rc: '53' });
      expect(await dz.status(o.reference, o)).toMatchObject({ kind: 'failed', otherRoute: true });
      expect(await dz.submit({ ...o, sku: 'ML-86' })).toMatchObject({ kind: 'unknown' });
      expect(await dz.submit({ ...o, sku: 'ML-86', reference: `${o.reference}-r2` })).toMatchObject({ kind: 'success' });
    } finally {
      fake.products.delete('OFF-53');
    }
  });

  it('docs/suppliers/digiflazz.md shows exactly this rc table', () => {
    const doc = readFileSync('docs/suppliers/digiflazz.md', 'utf8');
    const rows = [...doc.matchAll(/^\| `(\d\d)` \| [^|]+ \| ([a-z-]+) \| ([A-Z_]+|—) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    // (Object.entries lists "40".."99" before "00".."03": integer-like keys first.)
    const table = Object.entries(RC_TABLE).map(([rc, r]) => [rc, r.verdict.kind, 'code' in r.verdict ? r.verdict.code : '—']).sort((a, b) => a[0]!.localeCompare(b[0]!));
    expect(rows).toEqual(table);
  });

  describe('availability from the cached price list', () => {
    it('needs both product statuses, stock, and no cut-off now (WIB, wrapping midnight, equal times: none)', async () => {
      fake.products.set('A-OFF-BUYER', { buyer_sku_code: 'A-OFF-BUYER', price: 1, buyer_product_status: false, unlimited_stock: true });
      fake.products.set('A-OFF-SELLER', { buyer_sku_code: 'A-OFF-SELLER', price: 1, seller_product_status: false, unlimited_stock: true });
      fake.products.set('A-NO-STOCK', { buyer_sku_code: 'A-NO-STOCK', price: 1, unlimited_stock: false, stock: 0 });
      fake.products.set('A-STOCK', { buyer_sku_code: 'A-STOCK', price: 1, unlimited_stock: false, stock: 3 });
      fake.products.set('A-CUT-NOW', { buyer_sku_code: 'A-CUT-NOW', price: 1, start_cut_off: '09:30', end_cut_off: '10:30' });
      fake.products.set('A-CUT-LATER', { buyer_sku_code: 'A-CUT-LATER', price: 1, start_cut_off: '23:45', end_cut_off: '00:15' });
      fake.products.set('A-CUT-NONE', { buyer_sku_code: 'A-CUT-NONE', price: 1, start_cut_off: '10:00', end_cut_off: '10:00' });
      const skus = ['ML-86', 'A-OFF-BUYER', 'A-OFF-SELLER', 'A-NO-STOCK', 'A-STOCK', 'A-CUT-NOW', 'A-CUT-LATER', 'A-CUT-NONE', 'NOT-LISTED'];
      expect(Object.fromEntries(await dz.available(skus))).toEqual({
        'ML-86': true, 'A-OFF-BUYER': false, 'A-OFF-SELLER': false, 'A-NO-STOCK': false, 'A-STOCK': true, 'A-CUT-NOW': false, 'A-CUT-LATER': true, 'A-CUT-NONE': true, 'NOT-LISTED': false,
      });
      // 23:50 WIB: the wrapping window is on; the list is re-read after its TTL.
      now = TEN_WIB + (13 * 60 + 50) * 60_000;
      const later = await dz.available(['A-CUT-LATER', 'A-CUT-NOW']);
      expect(Object.fromEntries(later)).toEqual({ 'A-CUT-LATER': false, 'A-CUT-NOW': true });
    });

    it('reads the list at most once per TTL; asked too often (rc 83) a recent list still answers; no list: the check throws', async () => {
      const lists = () => fake.requests.filter((r) => r.path === '/price-list').length;
      const before = lists();
      await dz.available(['ML-86']);
      await dz.available(['ML-86']);
      expect(lists()).toBe(before + 1);
      fake.priceListMinIntervalMs = 24 * 3600_000;
      now += 10 * 60_000;
      expect((await dz.available(['ML-86'])).get('ML-86')).toBe(true);
      expect(lists()).toBe(before + 2);
      await expect(make().available(['ML-86'])).rejects.toThrow(/rc 83/);
      fake.priceListMinIntervalMs = 0;
    });

    it('cut-off windows: half-open, in the supplier time zone', () => {
      const at = (hh: number, mm: number) => Date.UTC(2026, 0, 1, hh, mm) - WIB;
      expect(inCutOff({ start_cut_off: '23:00', end_cut_off: '01:00' }, at(0, 30))).toBe(true);
      expect(inCutOff({ start_cut_off: '23:00', end_cut_off: '01:00' }, at(1, 0))).toBe(false);
      expect(inCutOff({ start_cut_off: '23:00', end_cut_off: '01:00' }, at(23, 0))).toBe(true);
      expect(inCutOff({ start_cut_off: '01:00', end_cut_off: '03:00' }, at(0, 59))).toBe(false);
      expect(inCutOff({ start_cut_off: '00:00', end_cut_off: '00:00' }, at(12, 0))).toBe(false);
    });
  });

  describe('health', () => {
    it('reads the deposit (in minor units) and is up', async () => {
      fake.deposit = 750_000;
      expect(await dz.health()).toBe('up');
      expect(deposits.at(-1)).toBe(750_000);
    });

    it('names the cause when the account is refused (rc 45: IP not whitelisted; rc 41: the key)', async () => {
      fake.failAll = '45';
      await expect(dz.health()).rejects.toThrow("the balance call was refused: rc 45: this server's IP is not whitelisted at the supplier: add it in the supplier's member area");
      fake.failAll = null;
      await expect(make({ apiKey: 'wrong' }).health()).rejects.toThrow('the balance call was refused: rc 41: signature refused: check the API key');
    });

    it('is down when most recent orders got no readable answer', async () => {
      const quick = make({}, { timeoutMs: 100 });
      for (let i = 0; i < 10; i++) {
        const o = order();
        fake.behaviours.set(o.target, { kind: 'hang' });
        await quick.submit(o);
      }
      fake.releaseHeld();
      expect(await quick.health()).toBe('down');
      expect(await dz.health()).toBe('up');
      // Said once, the window starts afresh: a closed gate sends no orders to move it.
      expect(await quick.health()).toBe('up');
    });
  });
});

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}
