import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketOf } from '../../src/domain/statement.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/**
 * Reseller statements (issue 38): over random histories of every writer of the ledger
 * (orders placed, failed and refunded, manual refunds, operator credits and debits) across
 * days, the statement of any range equals the ledger: opening + deposits + order debits +
 * refunds + adjustments = closing, each bucket the sum of that range's entries of its
 * types, the closing balance the ledger's, and adjacent ranges chain.
 */
const DAY = 86_400_000;
const OFFSET = 7 * 3_600_000; // Asia/Jakarta
const START = Date.UTC(2026, 8, 1, 0, 0) - OFFSET; // 2026-09-01 00:00 in Jakarta

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const iso = (ms: number) => new Date(ms + OFFSET).toISOString().slice(0, 10);

describe('statement buckets', () => {
  it('puts every entry type in one bucket; deposits and deposit reversals as issue 38 says', () => {
    expect(bucketOf('deposit')).toBe('deposits');
    expect(bucketOf('order_debit')).toBe('orderDebits');
    expect(bucketOf('order_refund')).toBe('refunds');
    for (const t of ['credit', 'debit', 'deposit_reversal', 'something_new']) expect(bucketOf(t)).toBe('adjustments');
  });
});

describe.each(storeKinds())('reseller statements (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('equal the ledger for random ranges over a random history', async () => {
    const r = rng(kind === 'sqlite' ? 11 : 29);
    const account = await registerAccount(t);
    await approve(t, account.id);
    const shop = { id: account.id };
    const { db, dialect } = t.platform.database;
    const fulfilment = new FulfilmentRepo(db, dialect);
    const processing: string[] = [];
    const delivered: string[] = [];
    let now = START;
    for (let step = 0; step < 220; step++) {
      now += Math.floor(r() * 9 * 3_600_000);
      const roll = r();
      if (roll < 0.2) {
        expect(await t.platform.repos.ledger.adjust(shop.id, 10_000 + Math.floor(r() * 90_000), 'top-up', now)).not.toBeNull();
      } else if (roll < 0.25) {
        await t.platform.repos.ledger.adjust(shop.id, -Math.floor(r() * 5_000) - 1, 'correction', now);
      } else if (roll < 0.6) {
        const o = await t.platform.repos.orders.placeWithDebit({ id: randomUUID(), resellerId: shop.id, refId: `st-${step}`, productCode: 'FF-100', productName: 'FF', categorySlug: 'free-fire', target: '1', zone: null, price: 1_000 + Math.floor(r() * 9_000), checkerVerified: false }, now)
          .catch((e: Error) => (e.constructor.name === 'InsufficientBalance' || /balance/i.test(e.message) ? null : Promise.reject(e)));
        if (o) processing.push(o.id);
      } else if (roll < 0.75 && processing.length) {
        const id = processing.splice(Math.floor(r() * processing.length), 1)[0]!;
        await fulfilment.succeed(id, `SN-${step}`, now);
        delivered.push(id);
      } else if (roll < 0.9 && processing.length) {
        await fulfilment.fail(processing.splice(Math.floor(r() * processing.length), 1)[0]!, { code: 'SUPPLIER_REJECTED', reason: 'x' } as never, now);
      } else if (delivered.length) {
        const id = delivered.splice(Math.floor(r() * delivered.length), 1)[0]!;
        expect((await t.platform.repos.operatorOrders.refundManually(id, 'by hand', now, { first: async () => {}, last: async () => {} })).ok).toBe(true);
      }
    }
    const entries = (await db.selectFrom('ledger_entries').select(['type', 'amount', 'balance_after', 'created_at', 'seq']).where('reseller_id', '=', shop.id).orderBy('seq').execute())
      .map((e) => ({ type: e.type, amount: Number(e.amount), after: Number(e.balance_after), at: Number(e.created_at) }));
    expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['credit', 'debit', 'order_debit', 'order_refund']));
    const balanceAt = (ms: number) => entries.filter((e) => e.at < ms).at(-1)?.after ?? 0;
    const days = Math.ceil((now - START) / DAY) + 1;
    const statement = (from: number, to: number) => t.platform.operator.statements.forReseller(shop.id, { from: iso(START + from * DAY), to: iso(START + to * DAY) });
    for (let i = 0; i < 12; i++) {
      const from = i === 0 ? 0 : Math.floor(r() * days);
      const to = Math.min(days + 1, from + Math.floor(r() * 40));
      const s = await statement(from, to);
      const inRange = entries.filter((e) => e.at >= START + from * DAY && e.at < START + (to + 1) * DAY);
      const sum = (types: string[]) => inRange.filter((e) => types.includes(e.type)).reduce((n, e) => n + e.amount, 0);
      expect(s.opening).toBe(balanceAt(START + from * DAY));
      expect(s.closing).toBe(balanceAt(START + (to + 1) * DAY));
      expect(s.totals.orderDebits.amount).toBe(sum(['order_debit']));
      expect(s.totals.refunds.amount).toBe(sum(['order_refund']));
      expect(s.totals.adjustments.amount).toBe(sum(['credit', 'debit']));
      expect(s.totals.deposits.amount).toBe(0);
      expect(s.totals.orderDebits.count + s.totals.refunds.count + s.totals.adjustments.count).toBe(inRange.length);
      expect(s.opening + s.totals.deposits.amount + s.totals.orderDebits.amount + s.totals.refunds.amount + s.totals.adjustments.amount).toBe(s.closing);
      expect(s.days).toHaveLength(to - from + 1);
      expect(s.days.at(-1)!.closing).toBe(s.closing);
      // The next range starts where this one ended.
      expect((await statement(to + 1, to + 1)).opening).toBe(s.closing);
    }
    // Up to today the closing balance is the wallet's.
    const whole = await t.platform.operator.statements.forReseller(shop.id, { from: iso(START), to: iso(Date.now()) });
    const wallet = await db.selectFrom('resellers').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow();
    expect(whole.closing).toBe(Number(wallet.balance));
    expect(whole.opening).toBe(0);

    // The operator's and the reseller's API answer the same statement, and its CSV.
    const range = `from=${iso(START)}&to=${iso(START + 30 * DAY)}`;
    const a = await op.get(`/resellers/${shop.id}/statement?${range}`);
    expect(a.status, a.text).toBe(200);
    const month = await statement(0, 30);
    expect(a.body.data).toMatchObject({ reseller_id: shop.id, opening_balance: month.opening, closing_balance: month.closing, order_debits: { amount: month.totals.orderDebits.amount, count: month.totals.orderDebits.count }, currency: 'IDR', time_zone: 'Asia/Jakarta' });
    const me = account.client;
    const d = await me.get(`/wallet/statement?${range}`);
    expect(d.status, d.text).toBe(200);
    expect(d.body.data).toEqual(a.body.data);
    const csv = await fetch(`${t.origin}/admin/v1/resellers/${shop.id}/statement/export.csv?${range}`, { headers: { authorization: `Bearer ${op.token}` } });
    const lines = (await csv.text()).trim().split('\r\n').map((l) => l.split(','));
    expect(lines[0]).toEqual(['date', 'line', 'deposits', 'order_debits', 'refunds', 'adjustments', 'balance']);
    expect(lines[1]).toEqual([iso(START), 'opening balance', '', '', '', '', String(month.opening)]);
    expect(lines.at(-1)).toEqual([iso(START + 30 * DAY), 'closing balance', '', '', '', '', String(month.closing)]);
    expect(lines.at(-2)!.slice(2, 6).map(Number)).toEqual([0, month.totals.orderDebits.amount, month.totals.refunds.amount, month.totals.adjustments.amount]);

    expect((await op.get(`/resellers/nope/statement`)).status).toBe(404);
    expect((await op.get(`/resellers/${shop.id}/statement?from=2026-01-01&to=2027-06-01`)).body.error).toBe('DATE_RANGE_TOO_LARGE');
    expect((await me.get(`/wallet/statement?from=2026-02-30`)).body.error).toBe('INVALID_DATE_RANGE');
  });
});
