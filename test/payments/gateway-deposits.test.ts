import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount, type Account } from '../support/dashboard.js';
import { signature, startFakeMidtrans, type FakeMidtrans } from '../support/fake-midtrans.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';

/**
 * Deposits by payment gateway against a fake Midtrans (test/support/fake-midtrans.ts):
 * every order and repetition of notifications credits once; forged, unconfirmed or
 * mismatched notifications credit nothing; closing statuses close; a refund asks the
 * operator, whose reversal debits once and never below zero.
 */
describe.each(storeKinds())('gateway deposits (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let fake: FakeMidtrans;
  beforeAll(async () => {
    fake = await startFakeMidtrans();
    recordSecret('midtrans server key', fake.serverKey);
    t = await startTestApp(kind, { env: { MIDTRANS_APP_URL: fake.url, MIDTRANS_API_URL: fake.url } });
    fake.notifyUrl = `${t.origin}/hooks/midtrans`;
    op = await operatorClient(t);
    const s = await op.put('/payment-gateway', { environment: 'sandbox', server_key: fake.serverKey, client_key: 'SB-Mid-client-x', expiry_minutes: 30 });
    expect(s.status, s.text).toBe(200);
    expect(s.body.data).toMatchObject({ environment: 'sandbox', server_key_source: 'settings', client_key: 'SB-Mid-client-x', expiry_minutes: 30, notification_url: expect.stringMatching(/\/hooks\/midtrans$/) });
    expect(s.text).not.toContain(fake.serverKey);
    expect((await op.put('/payment-methods/qris', { enabled: true, min_amount: 10000, max_amount: 5000000, fee_bps: 70, fee_mode: 'pass' })).status).toBe(200);
    expect((await op.put('/payment-methods/bca_va', { enabled: true, min_amount: 50000, max_amount: 5000000, fee_fixed: 4000, fee_mode: 'absorb' })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const shop = async (): Promise<Account> => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    return a;
  };
  const balance = async (a: Account) => Number((await t.platform.database.db.selectFrom('resellers').select('balance').where('id', '=', a.id).executeTakeFirstOrThrow()).balance);
  const depositEntries = async (id: string) => t.platform.database.db.selectFrom('ledger_entries').select(['type', 'amount']).where('deposit_id', '=', id).orderBy('id').execute();
  const pay = async (a: Account, amount = 100000, method = 'qris') => {
    const r = await a.client.post('/gateway-deposits', { amount, method });
    expect(r.status, r.text).toBe(200);
    return r.body.data as { id: string; state: string; payable: number; redirect_url: string };
  };
  const state = async (id: string) => (await t.platform.database.db.selectFrom('deposits').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
  const outcomes = async (id: string) => (await op.get(`/gateway-payments/${id}`)).body.data.notifications.map((n: any) => n.outcome);

  it('lists methods with the fee each adds, refuses amounts out of bounds, and creates a Snap payment of the payable', async () => {
    const a = await shop();
    const m = await a.client.get('/payment-methods?amount=100000');
    expect(m.status, m.text).toBe(200);
    expect(m.body.data.available).toBe(true);
    const by = Object.fromEntries(m.body.data.methods.map((x: any) => [x.code, x]));
    expect(Object.keys(by).sort()).toEqual(['bca_va', 'qris']);
    expect(by.qris).toMatchObject({ fee: 700, payable: 100700, fee_mode: 'pass', refusal: null });
    expect(by.bca_va).toMatchObject({ fee: 4000, payable: 100000, fee_mode: 'absorb', refusal: null });
    expect((await a.client.get('/payment-methods?amount=20000')).body.data.methods.find((x: any) => x.code === 'bca_va').refusal).toBe('below_min');

    const before = await t.platform.database.db.selectFrom('deposits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expectJsonError(await a.client.post('/gateway-deposits', { amount: 20000, method: 'bca_va' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/gateway-deposits', { amount: 20000, method: 'gopay' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/gateway-deposits', { amount: -5, method: 'qris' }), 400, 'VALIDATION_ERROR');
    const after = await t.platform.database.db.selectFrom('deposits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const d = await pay(a, 100000, 'qris');
    expect(d).toMatchObject({ state: 'open', amount: 100000, fee: 700, payable: 100700, method: 'qris' });
    expect(d.redirect_url).toMatch(new RegExp(`^${fake.url}/snap/v4/redirection/`));
    const snap = fake.snapRequests.at(-1);
    expect(snap).toMatchObject({ transaction_details: { order_id: d.id, gross_amount: 100700 }, enabled_payments: ['other_qris'], expiry: { unit: 'minutes', duration: 30 } });
    expect(snap.callbacks.finish).toMatch(new RegExp(`/dashboard/wallet/deposits/${d.id}$`));
    const absorbed = await pay(a, 100000, 'bca_va');
    expect(absorbed).toMatchObject({ fee: 4000, payable: 100000 });
    expect(fake.snapRequests.at(-1)).toMatchObject({ transaction_details: { gross_amount: 100000 }, enabled_payments: ['bca_va'] });
    // A retry is a new deposit with its own order id.
    expect((await pay(a, 100000, 'qris')).id).not.toBe(d.id);
  });

  it('credits once whatever the order and number of notifications (pending, settlement, settlement again, late pending; and concurrently)', async () => {
    const a = await shop();
    const d = await pay(a);
    const pending = fake.notification(d.id);
    expect((await fake.deliver(pending)).status).toBe(200);
    expect(await state(d.id)).toBe('open');
    fake.setStatus(d.id, 'settlement');
    const settlement = fake.notification(d.id);
    expect((await fake.deliver(settlement)).status).toBe(200);
    expect((await fake.deliver(settlement)).status).toBe(200);
    expect((await fake.deliver(pending)).status).toBe(200); // late: stale, not a disagreement
    expect(await balance(a)).toBe(100000);
    expect(await depositEntries(d.id)).toEqual([{ type: 'deposit', amount: 100000 }]);
    // The late pending is applied as the status API answers it (settlement): nothing more to do.
    expect(await outcomes(d.id)).toEqual(['pending', 'credited', 'already_credited', 'already_credited']);

    // Reverse order, and duplicates racing each other.
    const e = await pay(a);
    const ePending = fake.notification(e.id);
    fake.setStatus(e.id, 'settlement');
    const eSettled = fake.notification(e.id);
    const answers = await Promise.all([fake.deliver(eSettled), fake.deliver(eSettled), fake.deliver(eSettled)]);
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200]);
    expect((await fake.deliver(ePending)).status).toBe(200);
    expect(await balance(a)).toBe(200000);
    expect(await depositEntries(e.id)).toHaveLength(1);
    const read = await a.client.get(`/gateway-deposits/${e.id}`);
    expect(read.body.data).toMatchObject({ id: e.id, state: 'paid', amount: 100000 });
    const history = await a.client.get('/wallet-history');
    expect(history.status, history.text).toBe(200);
    // Cards: capture is paid only once fraud_status is accept.
    const c = await pay(a);
    fake.setStatus(c.id, 'capture', { fraud_status: 'challenge', payment_type: 'credit_card' });
    expect((await fake.deliver(fake.notification(c.id))).status).toBe(200);
    expect(await state(c.id)).toBe('open');
    fake.setStatus(c.id, 'capture', { fraud_status: 'accept' });
    expect((await fake.deliver(fake.notification(c.id))).status).toBe(200);
    expect(await state(c.id)).toBe('paid');
    expect(await balance(a)).toBe(300000);
    await ledgerConsistent(t.platform.database.db);
  });

  it('credits nothing for a forged signature, a status API that disagrees or fails (answered non-2xx, so Midtrans retries), or a gross_amount that differs', async () => {
    const a = await shop();
    const d = await pay(a);
    fake.setStatus(d.id, 'settlement');
    const forged = fake.notification(d.id, { signature_key: 'f'.repeat(128) });
    expectJsonError(jsonOf(await fake.deliver(forged)), 401, 'INVALID_SIGNATURE');
    const reSigned = fake.notification(d.id, { gross_amount: '1.00', signature_key: fake.notification(d.id).signature_key as string });
    expect((await fake.deliver(reSigned)).status).toBe(401);
    expect(await fake.deliver('not json')).toMatchObject({ status: 400 });
    // A stranger's unsigned notification for no payment of ours is refused and not kept.
    const unmatchedBefore = (await op.get('/gateway-payments/unmatched-notifications')).body.data.notifications.length;
    expect((await fake.deliver({ ...forged, order_id: 'DEP-NOTOURS000' })).status).toBe(401);
    expect((await op.get('/gateway-payments/unmatched-notifications')).body.data.notifications).toHaveLength(unmatchedBefore);
    // Signed, but about an order we never made (another app on the same merchant): 200, kept for the operator.
    const other = { order_id: 'shop-order-77', status_code: '200', gross_amount: '5000.00', transaction_status: 'settlement' };
    const otherAnswer = await fake.deliver({ ...other, signature_key: signature(other.order_id, other.status_code, other.gross_amount, fake.serverKey) });
    expect(otherAnswer.status).toBe(200);
    expect((await op.get('/gateway-payments/unmatched-notifications')).body.data.notifications[0]).toMatchObject({ order_id: 'shop-order-77', outcome: 'unknown_order', signature_valid: true });
    expect(await balance(a)).toBe(0);

    // Signed (the key leaked, or the gateway raced itself) but the status API says pending.
    fake.statusOverride.set(d.id, { transaction_status: 'pending', status_code: '201' });
    const settled = fake.notification(d.id);
    const refused = await fake.deliver(settled);
    expectJsonError(jsonOf(refused), 409, 'CONFLICT');
    fake.statusOverride.set(d.id, 'fail');
    expectJsonError(jsonOf(await fake.deliver(settled)), 502, 'GATEWAY_UNAVAILABLE');
    expect(await balance(a)).toBe(0);
    expect(await state(d.id)).toBe('open');
    // Midtrans retries; once the status API confirms, the retry credits, once.
    let attempt = 0;
    const deliveries = await fake.deliverWithRetries(settled, 5, async () => {
      if (++attempt === 1) fake.statusOverride.delete(d.id);
    });
    expect(deliveries.map((x) => x.status)).toEqual([502, 200]);
    expect(await balance(a)).toBe(100000);
    expect(await outcomes(d.id)).toEqual(['bad_signature', 'bad_signature', 'status_disagrees', 'status_unavailable', 'status_unavailable', 'credited']);
    const detail = await op.get(`/gateway-payments/${d.id}`);
    expect(detail.body.data.notifications[0]).toMatchObject({ signature_valid: false, body: JSON.stringify(forged) });

    // Paid, confirmed, but not the amount asked for: nothing, and the operator is told.
    const m = await pay(a);
    fake.setStatus(m.id, 'settlement', { gross_amount: '100.00' });
    expect((await fake.deliver(fake.notification(m.id))).status).toBe(200);
    expect(await state(m.id)).toBe('open');
    expect(await balance(a)).toBe(100000);
    const items = (await op.get('/attention-items')).body.data.items;
    expect(items.find((i: any) => i.target_id === m.id)).toMatchObject({ kind: 'gateway_amount_mismatch' });
  });

  it('closes an open deposit on expire, cancel, deny and failure; pending changes nothing; a closed one is still credited if the gateway later confirms payment', async () => {
    const a = await shop();
    const cases = [['expire', 'expired'], ['cancel', 'cancelled'], ['deny', 'failed'], ['failure', 'failed']] as const;
    for (const [status, expected] of cases) {
      const d = await pay(a);
      fake.setStatus(d.id, status);
      expect((await fake.deliver(fake.notification(d.id))).status).toBe(200);
      expect(await state(d.id)).toBe(expected);
      expect((await a.client.get(`/gateway-deposits/${d.id}`)).body.data.state).toBe(expected);
    }
    const late = await pay(a);
    fake.setStatus(late.id, 'expire');
    const expire = fake.notification(late.id);
    fake.setStatus(late.id, 'settlement');
    expect((await fake.deliver(fake.notification(late.id))).status).toBe(200);
    // The expire notification arriving after the settlement is not confirmed: refused, nothing changes.
    expect((await fake.deliver(expire)).status).toBe(409);
    expect(await state(late.id)).toBe('paid');
    expect(await balance(a)).toBe(100000);
  });

  it('settles on read when no notification arrives (the return page polls)', async () => {
    const a = await shop();
    const d = await pay(a);
    fake.setStatus(d.id, 'settlement');
    const r = await a.client.get(`/gateway-deposits/${d.id}`);
    expect(r.body.data.state).toBe('paid');
    expect(await balance(a)).toBe(100000);
    const other = await shop();
    expectJsonError(await other.client.get(`/gateway-deposits/${d.id}`), 404, 'NOT_FOUND');
  });

  it('a refund after the credit raises an attention item; the operator reversal debits once, never below zero', async () => {
    const a = await shop();
    const d = await pay(a);
    await fake.pay(d.id);
    expect(await balance(a)).toBe(100000);
    expectJsonError(await op.post(`/gateway-payments/${d.id}/reverse`, {}), 409, 'INVALID_STATE'); // no refund reported yet
    const deliveries = await fake.refund(d.id);
    expect(deliveries.at(-1)!.status).toBe(200);
    expect((await fake.deliver(fake.notification(d.id))).status).toBe(200); // the same refund again
    const items = (await op.get('/attention-items')).body.data.items.filter((i: any) => i.target_id === d.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'gateway_refund' });
    expect((await op.get(`/gateway-payments/${d.id}`)).body.data.refund).toMatchObject({ transaction_status: 'refund', resolved_at: null });

    // The reseller spent most of it: the reversal is refused whole, nothing debited.
    await t.platform.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('resellers').set({ balance: 0 }).where('id', '=', a.id).execute();
      await trx.insertInto('ledger_entries').values({ reseller_id: a.id, type: 'debit', amount: -100000, balance_after: 0, order_id: null, order_seq: null, deposit_id: null, note: 'spent', created_at: Date.now() }).execute();
    });
    await op.post(`/resellers/${a.id}/wallet/credit`, { amount: 30000, note: 'other money' });
    const short = await op.post(`/gateway-payments/${d.id}/reverse`, { note: 'refunded by Midtrans' });
    expectJsonError(short, 402, 'INSUFFICIENT_BALANCE');
    expect(short.body.message).toMatch(/never goes below zero/);
    expect(await balance(a)).toBe(30000);
    expect(await depositEntries(d.id)).toEqual([{ type: 'deposit', amount: 100000 }]);

    await op.post(`/resellers/${a.id}/wallet/credit`, { amount: 80000, note: 'more money' });
    // Two operators confirm at once: one reversal, the other is told it is done.
    const [r1, r2] = await Promise.all([
      op.post(`/gateway-payments/${d.id}/reverse`, { note: 'refunded by Midtrans' }),
      op.post(`/gateway-payments/${d.id}/reverse`, { note: 'refunded by Midtrans' }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const ok = r1.status === 200 ? r1 : r2;
    expect(ok.body.data).toMatchObject({ deposit_id: d.id, amount: 100000, balance: 10000 });
    expectJsonError(await op.post(`/gateway-payments/${d.id}/reverse`, {}), 409, 'INVALID_STATE');
    expect(await depositEntries(d.id)).toEqual([{ type: 'deposit', amount: 100000 }, { type: 'deposit_reversal', amount: -100000 }]);
    expect(await state(d.id)).toBe('reversed');
    expect((await op.get(`/gateway-payments/${d.id}`)).body.data.refund.resolved_at).not.toBeNull();
    const audit = (await op.get(`/audit?target_id=${d.id}`)).body.data.entries;
    expect(audit.map((l: any) => l.action)).toEqual(['deposit.reverse']);
    // A late settlement changes nothing after the reversal.
    expect(await balance(a)).toBe(10000);
    await ledgerConsistent(t.platform.database.db);

    // Partial refund: the operator says how much.
    const p = await pay(a);
    await fake.pay(p.id);
    await fake.refund(p.id, 40000);
    expectJsonError(await op.post(`/gateway-payments/${p.id}/reverse`, {}), 400, 'VALIDATION_ERROR');
    const part = await op.post(`/gateway-payments/${p.id}/reverse`, { amount: 40000 });
    expect(part.body.data).toMatchObject({ amount: 40000, balance: 70000 });
  });

  it('keeps settings and methods to finance and owner roles, audited, the server key never shown', async () => {
    const audit = (await op.get('/audit?target_id=midtrans')).body.data.entries;
    expect(audit[0]).toMatchObject({ action: 'gateway.settings', after: { server_key_changed: true, server_key_set: true } });
    expect(JSON.stringify(audit)).not.toContain(fake.serverKey);
    const g = await op.get('/payment-gateway');
    expect(g.text).not.toContain(fake.serverKey);
    expectJsonError(await op.put('/payment-methods/qris', { min_amount: 100, max_amount: 50 }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.put('/payment-methods/qris', { fee_mode: 'split' }), 400, 'VALIDATION_ERROR');
    const list = (await op.get('/gateway-payments?state=paid')).body;
    expect(list.data.payments.every((p: any) => p.state === 'paid')).toBe(true);
  });

  it('counts gateway payments in the daily deposit cap, beside bank tickets', async () => {
    const a = await shop();
    const settings = async (patch: Record<string, unknown>) => {
      const { webhook_secret_set: _s, webhook_url: _u, ...body } = (await op.get('/deposit-settings')).body.data;
      expect((await op.request('PUT', '/deposit-settings', { ...body, ...patch })).status).toBe(200);
    };
    await settings({ daily_cap: 250000 });
    try {
      await pay(a, 200000);
      const refused = await a.client.post('/gateway-deposits', { amount: 100000, method: 'qris' });
      expectJsonError(refused, 400, 'VALIDATION_ERROR');
      expect(refused.body.message).toMatch(/daily deposit limit is 250000 IDR and 50000 is left today/);
      await pay(a, 50000);
    } finally {
      await settings({ daily_cap: null });
    }
  });
});

function jsonOf(d: { status: number; body: string; headers: Record<string, string> }) {
  return { status: d.status, body: JSON.parse(d.body), text: d.body, headers: d.headers } as any;
}
