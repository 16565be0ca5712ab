import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount } from '../support/dashboard.js';
import { eventually } from '../support/eventually.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/**
 * Issue 40: a credited deposit is told to its shop once, in its language, written by the
 * job the credit commits with; a shop that turned the message off is not told.
 */
describe.each(storeKinds())('deposit credited notices (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let account = '';
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true, env: { PUBLIC_BASE_URL: 'https://topup.example' } });
    op = await operatorClient(t);
    const r = await op.post('/bank-accounts', { bank: 'BCA', number: '8880123456', holder: 'PT Topup', active: true });
    expect(r.status, r.text).toBe(200);
    account = r.body.data.id;
  });
  afterAll(async () => t?.close());

  const notices = (resellerId: string) => t.platform.database.db.selectFrom('outbox_messages').selectAll().where('recipient_id', '=', resellerId).where('template', '=', 'deposit_credited').execute();
  const paidTicket = async (language: 'en' | 'id', off = false) => {
    const shop = await registerAccount(t);
    await approve(t, shop.id);
    await shop.client.put('/me/language', { language });
    if (off) await shop.client.put('/me/notifications', { enabled: { deposit_credited: false } });
    const d = (await shop.client.post('/deposits', { amount: 150_000, bank_account_id: account, sender_name: 'Budi Santoso' })).body.data;
    const [a, b] = await Promise.all([op.post(`/deposits/${d.id}/mark-paid`, { reference: 'R1' }), op.post(`/deposits/${d.id}/mark-paid`, { reference: 'R2' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    return { shop, id: d.id as string };
  };

  it('tells the shop once, in its language, with the amount and the new balance', async () => {
    const { shop, id } = await paidTicket('id');
    const [m] = await eventually(async () => { const n = await notices(shop.id); return n.length > 0 && n; }, 'the deposit notice');
    expect(m!.subject).toBe(`Test Shop: deposit ${id} masuk`);
    expect(m!.body_text).toContain(`Deposit Anda ${id} sebesar IDR 150,000 telah masuk. Saldo Anda sekarang IDR 150,000.`);
    expect(m!.body_text).toContain('https://topup.example/dashboard/wallet');
    // The job run again writes nothing more.
    await t.platform.jobHandlers.deposit_credited!({ id: 0, kind: 'deposit_credited', payload: { depositId: id }, attempts: 0, runAt: Date.now() });
    expect(await notices(shop.id)).toHaveLength(1);
  });

  it('tells nothing to a shop that turned the notice off', async () => {
    const { shop, id } = await paidTicket('en', true);
    await t.platform.jobHandlers.deposit_credited!({ id: 0, kind: 'deposit_credited', payload: { depositId: id }, attempts: 0, runAt: Date.now() });
    await eventually(async () => (await t.platform.database.db.selectFrom('jobs').select('id').where('kind', '=', 'deposit_credited').execute()).length === 0, 'the notice jobs done');
    expect(await notices(shop.id)).toEqual([]);
  });

  it('tells a shop its balance fell below its threshold once per crossing', async () => {
    const shop = await registerAccount(t);
    await approve(t, shop.id, { balance: 100_000 });
    expect((await shop.client.put('/low-balance', { threshold: 50_000 })).status).toBe(200);
    const told = async () => (await t.platform.database.db.selectFrom('outbox_messages').select(['subject', 'body_text']).where('recipient_id', '=', shop.id).where('template', '=', 'low_balance').execute());
    expect(await t.platform.lowBalanceNotices.run()).toBe(0);
    await t.platform.repos.ledger.adjust(shop.id, -60_000, 'test debit', Date.now());
    expect(await t.platform.lowBalanceNotices.run()).toBe(1);
    expect(await t.platform.lowBalanceNotices.run()).toBe(0);
    expect((await told()).map((m) => m.subject)).toEqual(['Test Shop: balance below IDR 50,000']);
    expect((await told())[0]!.body_text).toContain('Your balance is IDR 40,000');
    // Back above, then below again: a new crossing, told again.
    await t.platform.repos.ledger.adjust(shop.id, 20_000, 'test credit', Date.now());
    expect(await t.platform.lowBalanceNotices.run()).toBe(0);
    await t.platform.repos.ledger.adjust(shop.id, -15_000, 'test debit', Date.now());
    expect(await t.platform.lowBalanceNotices.run()).toBe(1);
    expect(await told()).toHaveLength(2);
  });
});
