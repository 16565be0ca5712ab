import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount, type Account } from '../support/dashboard.js';
import { FakeMoota } from '../support/fake-moota.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { storeKinds } from '../support/stores.js';

const SECRET = 'moota-secret-token-0123456789';
let accountSeq = 0;

/**
 * Bank-transfer deposits end to end over HTTP (issue 36): tickets with unique codes, expiry,
 * and the three ways a transfer is matched, each crediting a ticket at most once.
 */
describe.each(storeKinds())('bank-transfer deposits (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let moota: FakeMoota;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
    moota = new FakeMoota(`${t.origin}/hooks/bank-mutations`, SECRET);
    expect((await op.request('PUT', '/deposit-settings/webhook-secret', { secret: SECRET })).body.data).toEqual({ webhook_secret_set: true });
  });
  afterAll(async () => t?.close());

  async function bankAccount(extra: Record<string, unknown> = {}) {
    accountSeq++;
    const r = await op.post('/bank-accounts', { bank: 'BCA', number: `8880${Date.now() % 1_000_000}${accountSeq}`, holder: 'PT Topup', active: true, ...extra });
    expect(r.status, r.text).toBe(200);
    return r.body.data as { id: string; number: string };
  }
  async function shop(): Promise<Account> {
    const a = await registerAccount(t);
    await approve(t, a.id);
    return a;
  }
  const ask = (a: Account, bankAccountId: string, amount = 100_000) => a.client.post('/deposits', { amount, bank_account_id: bankAccountId, sender_name: 'Budi Santoso' });
  const balance = async (a: Account) => (await a.client.get('/low-balance')).body.data.balance as number;
  async function settings(patch: Record<string, unknown>) {
    const cur = (await op.get('/deposit-settings')).body.data;
    const { webhook_secret_set: _s, webhook_url: _u, ...body } = cur;
    const r = await op.request('PUT', '/deposit-settings', { ...body, ...patch });
    expect(r.status, r.text).toBe(200);
  }

  it('gives concurrent tickets of one account and amount distinct codes, each amount + code', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const answers = await Promise.all(Array.from({ length: 25 }, () => ask(a, acc.id, 50_000)));
    for (const r of answers) expect(r.status, r.text).toBe(200);
    const tickets = answers.map((r) => r.body.data);
    expect(new Set(tickets.map((d) => d.payable)).size).toBe(25);
    for (const d of tickets) {
      expect(d.unique_code).toBeGreaterThanOrEqual(1);
      expect(d.unique_code).toBeLessThanOrEqual(999);
      expect(d.payable).toBe(50_000 + d.unique_code);
      expect(d).toMatchObject({ state: 'open', amount: 50_000, transfer_note: d.id, bank_account: { id: acc.id, bank: 'BCA' } });
      expect(d.id).toMatch(/^DEP-[0-9A-Z]{10}$/);
    }
    const list = await a.client.get('/deposits?state=open&limit=10');
    expect(list.body.meta).toMatchObject({ total: 25, limit: 10, total_pages: 3 });
  });

  it('refuses amounts out of bounds, inactive accounts and bad names, creating nothing', async () => {
    const acc = await bankAccount();
    const off = await bankAccount({ active: false });
    const a = await shop();
    expectJsonError(await ask(a, acc.id, 9_999), 400, 'VALIDATION_ERROR');
    expectJsonError(await ask(a, acc.id, 100_000_001), 400, 'VALIDATION_ERROR');
    expectJsonError(await ask(a, acc.id, 10_000.5), 400, 'VALIDATION_ERROR');
    expectJsonError(await ask(a, off.id), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/deposits', { amount: 20_000, bank_account_id: acc.id, sender_name: '  ' }), 400, 'VALIDATION_ERROR');
    expect((await a.client.get('/deposits')).body.meta.total).toBe(0);
    const pending = await registerAccount(t);
    expectJsonError(await ask(pending, acc.id), 409, 'INVALID_STATE');
  });

  it('expires open tickets past their expiry; an expired ticket is not auto-matched but an operator can mark it paid', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id)).body.data;
    await t.platform.database.db.updateTable('deposits').set({ expires_at: Date.now() - 1 }).where('id', '=', d.id).execute();
    expect((await a.client.get(`/deposits/${d.id}`)).body.data.state).toBe('expired');
    expect((await a.client.get('/deposits?state=expired')).body.data.deposits.map((x: any) => x.id)).toEqual([d.id]);
    const m = FakeMoota.credit(acc.number, d.payable);
    expect((await moota.push([m])).body.data).toMatchObject({ unmatched: 1, matched: 0 });
    expect(await balance(a)).toBe(0);
    expectJsonError(await a.client.post(`/deposits/${d.id}/cancel`, {}), 409, 'INVALID_STATE');
    const paid = await op.post(`/deposits/${d.id}/mark-paid`, { reference: 'BCA-REF-1' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data).toMatchObject({ deposit: { state: 'paid', matched_by: 'operator', reference: 'BCA-REF-1' }, balance: 100_000 });
  });

  it('marks a ticket paid once: the second mark credits nothing; the audit log has it; the wallet shows the deposit', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id, 250_000)).body.data;
    expectJsonError(await op.post(`/deposits/${d.id}/mark-paid`, {}), 400, 'VALIDATION_ERROR');
    const [one, two] = await Promise.all([op.post(`/deposits/${d.id}/mark-paid`, { reference: 'R1' }), op.post(`/deposits/${d.id}/mark-paid`, { reference: 'R2' })]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    expectJsonError(await op.post(`/deposits/${d.id}/mark-paid`, { reference: 'R3' }), 409, 'INVALID_STATE');
    expect(await balance(a)).toBe(250_000);
    const audit = (await op.get(`/audit?action=deposit.mark_paid&target_id=${a.id}`)).body.data.entries;
    expect(audit).toHaveLength(1);
    const history = await a.client.get('/wallet-history');
    expect(history.body.data.entries.map((e: any) => [e.type, e.source, e.deposit_code, e.amount])).toEqual([['credit', 'deposit', d.id, 250_000]]);
    expectJsonError(await a.client.post(`/deposits/${d.id}/cancel`, {}), 409, 'INVALID_STATE');
    await ledgerConsistent(t.platform.database.db);
  });

  it('cancels an open ticket, which frees its code and is never auto-matched', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id)).body.data;
    const c = await a.client.post(`/deposits/${d.id}/cancel`, {});
    expect(c.body.data.state).toBe('cancelled');
    expect((await moota.push([FakeMoota.credit(acc.number, d.payable)])).body.data).toMatchObject({ unmatched: 1 });
    expect(await balance(a)).toBe(0);
    const other = await shop();
    expectJsonError(await other.client.post(`/deposits/${d.id}/cancel`, {}), 404, 'NOT_FOUND');
  });

  it('imports a statement: the preview shows matched, unmatched and already-imported lines; applying twice credits once', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const b = await shop();
    const da = (await ask(a, acc.id, 1_000_000)).body.data;
    const db = (await ask(b, acc.id, 300_000)).body.data;
    expectJsonError(await op.post(`/bank-accounts/${acc.id}/statement/preview`, { csv: 'x' }), 409, 'INVALID_STATE');
    const map = await op.request('PUT', `/bank-accounts/${acc.id}/statement-mapping`, { date: 'Tanggal', description: 'Keterangan', amount: 'Jumlah', decimal: ',', delimiter: 'semicolon' });
    expect(map.status, map.text).toBe(200);
    const fmt = (n: number) => n.toLocaleString('de-DE') + ',00';
    const first = [
      'Tanggal;Keterangan;Jumlah',
      `27/11/2026;TRSF E-BANKING CR ${da.id} BUDI;${fmt(da.payable)} CR`,
      `27/11/2026;TRSF E-BANKING CR TOKO X;${fmt(777_777)} CR`,
      `27/11/2026;BIAYA ADM;${fmt(15_000)} DB`,
      `27/11/2026;TRSF E-BANKING CR;${fmt(db.payable + 1)} CR`,
    ].join('\n');
    const preview = await op.post(`/bank-accounts/${acc.id}/statement/preview`, { csv: first });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.data.lines.map((l: any) => [l.status, l.amount, l.deposit?.id ?? null])).toEqual([
      ['matched', da.payable, da.id], ['unmatched', 777_777, null], ['debit', 15_000, null], ['unmatched', db.payable + 1, null],
    ]);
    expect(await balance(a)).toBe(0); // a preview changes nothing
    const applied = await op.post(`/bank-accounts/${acc.id}/statement/apply`, { csv: first });
    expect(applied.body.data).toMatchObject({ matched: 1, unmatched: 2, debit: 1, duplicate: 0 });
    expect(await balance(a)).toBe(1_000_000);

    // The next export overlaps: the same lines again, and b's exact transfer.
    const second = `${first}\n27/11/2026;TRSF E-BANKING CR;${fmt(db.payable)} CR`;
    const p2 = await op.post(`/bank-accounts/${acc.id}/statement/preview`, { csv: second });
    expect(p2.body.data.lines.map((l: any) => [l.status, l.previous_state])).toEqual([
      ['already_imported', 'matched'], ['already_imported', 'unmatched'], ['already_imported', 'debit'], ['already_imported', 'unmatched'], ['matched', null],
    ]);
    expect((await op.post(`/bank-accounts/${acc.id}/statement/apply`, { csv: second })).body.data).toMatchObject({ matched: 1, duplicate: 4 });
    expect((await op.post(`/bank-accounts/${acc.id}/statement/apply`, { csv: second })).body.data).toMatchObject({ matched: 0, duplicate: 5 });
    expect(await balance(a)).toBe(1_000_000);
    expect(await balance(b)).toBe(300_000);
    expect((await a.client.get(`/deposits/${da.id}`)).body.data).toMatchObject({ state: 'paid', matched_by: 'statement' });
    await ledgerConsistent(t.platform.database.db);
  });

  it('reads credit/debit columns and the bank id of a line; two identical lines without an id are two transfers', async () => {
    const acc = await bankAccount();
    const a = await shop();
    await op.request('PUT', `/bank-accounts/${acc.id}/statement-mapping`, { date: 'Date', description: 'Desc', credit: 'Credit', debit: 'Debit', decimal: '.', delimiter: 'comma' });
    const d = (await ask(a, acc.id, 20_000)).body.data;
    const csv = `Date,Desc,Debit,Credit\n2026-11-27,SETOR,,"${d.payable}.00"\n2026-11-27,SETOR,,"${d.payable}.00"\n2026-11-27,TARIK,"5,000.00",\n`;
    const r = await op.post(`/bank-accounts/${acc.id}/statement/apply`, { csv });
    expect(r.body.data).toMatchObject({ matched: 1, unmatched: 1, debit: 1 });
    expect((await op.post(`/bank-accounts/${acc.id}/statement/apply`, { csv })).body.data).toMatchObject({ duplicate: 3 });
    expectJsonError(await op.post(`/bank-accounts/${acc.id}/statement/preview`, { csv: 'Tanggal,Ket\n1,2\n' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post(`/bank-accounts/${acc.id}/statement/preview`, { csv: 'Date,Desc,Debit,Credit\n2026-11-27,X,,abc\n' }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a webhook with a forged or missing signature, storing and crediting nothing', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id)).body.data;
    const m = FakeMoota.credit(acc.number, d.payable);
    expectJsonError(await moota.push([m], { secret: 'not-the-secret-at-all' }), 401, 'INVALID_SIGNATURE');
    expectJsonError(await moota.push([m], { signature: null }), 401, 'INVALID_SIGNATURE');
    expectJsonError(await moota.push([m], { signature: 'ab'.repeat(32) }), 401, 'INVALID_SIGNATURE');
    expect(await balance(a)).toBe(0);
    expect((await op.get('/bank-mutations')).body.data.mutations.filter((x: any) => x.bank_account_id === acc.id)).toEqual([]);
  });

  it('credits a mutation delivered twice (also at once) once, by bank_id or account number', async () => {
    const acc = await bankAccount({ mutation_bank_id: `moota-${accountSeq}-${Date.now()}` });
    const a = await shop();
    const d = (await ask(a, acc.id, 500_000)).body.data;
    const accounts = (await op.get('/bank-accounts')).body.data.bank_accounts;
    const bankId = accounts.find((x: any) => x.id === acc.id).mutation_bank_id;
    const m = { ...FakeMoota.credit('000', d.payable, `TRF ${d.id}`), account_number: undefined, bank_id: bankId };
    const [r1, r2] = await Promise.all([moota.push([m]), moota.push([m])]);
    expect([r1.body.data.matched, r2.body.data.matched].sort()).toEqual([0, 1]);
    expect((await moota.push([m])).body.data).toMatchObject({ duplicate: 1, matched: 0 });
    expect(await balance(a)).toBe(500_000);
    expect((await a.client.get(`/deposits/${d.id}`)).body.data).toMatchObject({ state: 'paid', matched_by: 'webhook' });
    expect((await moota.push([FakeMoota.credit('999999', 5)])).body.data).toMatchObject({ unknown_account: 1 });
    expectJsonError(await moota.push([{ ...m, type: 'XX' as 'CR' }]), 400, 'VALIDATION_ERROR');
    await ledgerConsistent(t.platform.database.db);
  });

  it('never auto-matches a wrong amount; the operator assigns it once, or marks other money handled', async () => {
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id, 100_000)).body.data;
    const wrong = FakeMoota.credit(acc.number, 100_000, `TRF ${d.id}`); // the note names the ticket, the amount lacks the code
    const stray = FakeMoota.credit(acc.number, d.payable + 1);
    expect((await moota.push([wrong, stray])).body.data).toMatchObject({ unmatched: 2, matched: 0 });
    expect(await balance(a)).toBe(0);
    const queue = (await op.get('/bank-mutations?state=unmatched')).body.data.mutations.filter((x: any) => x.bank_account_id === acc.id);
    expect(queue.map((x: any) => x.amount).sort()).toEqual([100_000, d.payable + 1].sort());
    const w = queue.find((x: any) => x.amount === 100_000);
    const s = queue.find((x: any) => x.amount !== 100_000);
    const [x1, x2] = await Promise.all([op.post(`/bank-mutations/${w.id}/assign`, { deposit_id: d.id }), op.post(`/bank-mutations/${w.id}/assign`, { deposit_id: d.id })]);
    expect([x1.status, x2.status].sort()).toEqual([200, 409]);
    expect(await balance(a)).toBe(100_000); // what arrived
    expectJsonError(await op.post(`/bank-mutations/${s.id}/assign`, { deposit_id: d.id }), 409, 'INVALID_STATE');
    expectJsonError(await op.post(`/bank-mutations/${s.id}/handle`, { note: '' }), 400, 'VALIDATION_ERROR');
    const h = await op.post(`/bank-mutations/${s.id}/handle`, { note: 'refunded to sender by the bank' });
    expect(h.body.data).toMatchObject({ state: 'handled', note: 'refunded to sender by the bank' });
    expectJsonError(await op.post(`/bank-mutations/${s.id}/handle`, { note: 'again' }), 409, 'INVALID_STATE');
    const audit = (await op.get('/audit?action=bank_mutation.handle')).body.data.entries;
    expect(audit.map((e: any) => e.target_id)).toContain(s.id);
    await ledgerConsistent(t.platform.database.db);
  });

  it('raises an attention item for money unmatched for an hour, resolved when it is assigned', async () => {
    const acc = await bankAccount();
    expect((await moota.push([FakeMoota.credit(acc.number, 123_456)])).body.data.unmatched).toBe(1);
    const m = (await op.get('/bank-mutations?state=unmatched')).body.data.mutations.find((x: any) => x.bank_account_id === acc.id);
    await t.platform.database.db.updateTable('bank_mutations').set({ created_at: Date.now() - 2 * 3_600_000 }).where('id', '=', m.id).execute();
    await op.get('/deposits/summary');
    await op.get('/deposits/summary');
    const items = (await op.get('/attention-items')).body.data.items.filter((i: any) => i.target_id === m.id);
    expect(items).toHaveLength(1);
    await op.post(`/bank-mutations/${m.id}/handle`, { note: 'returned' });
    expect((await op.get('/attention-items')).body.data.items.filter((i: any) => i.target_id === m.id)).toHaveLength(0);
  });

  it('holds the daily cap per reseller, and a matched transfer above the review amount waits for an operator', async () => {
    const acc = await bankAccount();
    await settings({ daily_cap: 300_000, review_above: 150_000 });
    try {
      const a = await shop();
      const small = (await ask(a, acc.id, 100_000)).body.data;
      const big = (await ask(a, acc.id, 200_000)).body.data;
      const over = await ask(a, acc.id, 10_000);
      expectJsonError(over, 400, 'VALIDATION_ERROR');
      expect(over.body.message).toContain('300000');
      expect((await a.client.get('/deposits/options')).body.data).toMatchObject({ daily_cap: 300_000, remaining_today: 0 });
      // A cancelled ticket no longer counts against the cap.
      await a.client.post(`/deposits/${small.id}/cancel`, {});
      expect((await ask(a, acc.id, 100_000)).status).toBe(200);

      expect((await moota.push([FakeMoota.credit(acc.number, big.payable)])).body.data).toMatchObject({ review: 1 });
      expect((await a.client.get(`/deposits/${big.id}`)).body.data.state).toBe('review');
      expect(await balance(a)).toBe(0);
      expect((await op.get('/deposits/summary')).body.data.review).toBeGreaterThanOrEqual(1);
      const ok = await op.post(`/deposits/${big.id}/mark-paid`, {});
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.data.deposit).toMatchObject({ state: 'paid', matched_by: 'webhook' });
      expectJsonError(await op.post(`/deposits/${big.id}/mark-paid`, {}), 409, 'INVALID_STATE');
      expect(await balance(a)).toBe(200_000);
      const today = (await op.get('/deposits/summary')).body.data.today.find((x: any) => x.channel === 'bank');
      expect(today.amount).toBeGreaterThanOrEqual(200_000);
    } finally {
      await settings({ daily_cap: null, review_above: null });
    }
  });

  it('credits the unique code too when the operator says so', async () => {
    await settings({ credit_unique_code: true });
    try {
      const acc = await bankAccount();
      const a = await shop();
      const d = (await ask(a, acc.id, 40_000)).body.data;
      expect(d.amount).toBe(d.payable);
      await moota.push([FakeMoota.credit(acc.number, d.payable)]);
      expect(await balance(a)).toBe(d.payable);
    } finally {
      await settings({ credit_unique_code: false });
    }
  });

  it('keeps the low-balance threshold per reseller', async () => {
    const a = await shop();
    expect((await a.client.get('/low-balance')).body.data).toEqual({ threshold: null, balance: 0, below: false });
    expect((await a.client.request('PUT', '/low-balance', { threshold: 50_000 })).body.data).toEqual({ threshold: 50_000, balance: 0, below: true });
    expectJsonError(await a.client.request('PUT', '/low-balance', { threshold: -1 }), 400, 'VALIDATION_ERROR');
    expect((await a.client.request('PUT', '/low-balance', { threshold: null })).body.data.below).toBe(false);
  });

  it('validates settings and refuses changes from roles without deposits.manage', async () => {
    expectJsonError(await op.request('PUT', '/deposit-settings', { min_amount: 10, max_amount: 5, ticket_hours: 24, credit_unique_code: false, daily_cap: null, review_above: null, webhook_signature_header: 'Signature' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.request('PUT', '/deposit-settings/webhook-secret', { secret: 'short' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/bank-accounts', { bank: 'BCA', number: 'abc', holder: 'x', active: true }), 400, 'VALIDATION_ERROR');
    const support = await t.platform.operator.operators.create(`support-${Date.now()}@example.com`, 'Support', undefined, ['support']);
    const sup = new JsonClient(`${t.origin}/admin/v1`);
    expect((await sup.signIn(support.email, support.password)).status).toBe(200);
    expect((await sup.get('/deposits')).status).toBe(200);
    expectJsonError(await sup.post('/bank-accounts', { bank: 'BCA', number: '1', holder: 'x', active: true }), 403, 'FORBIDDEN_ROLE');
    const acc = await bankAccount();
    const a = await shop();
    const d = (await ask(a, acc.id)).body.data;
    expectJsonError(await sup.post(`/deposits/${d.id}/mark-paid`, { reference: 'x' }), 403, 'FORBIDDEN_ROLE');
    expect(await balance(a)).toBe(0);
  });
});
