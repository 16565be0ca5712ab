import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: wallet (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('credits and debits as ledger entries with the note, seen in API v1 and operator wallet-history', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const c = await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 150000, note: 'bank transfer 2026-03-01' });
    expect(c.status, c.text).toBe(200);
    expect(c.body.data).toMatchObject({ reseller_id: r.id, balance: 150000, entry: { type: 'credit', amount: 150000, balance_after: 150000, note: 'bank transfer 2026-03-01', order_id: null } });
    const d = await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 50000, note: 'correction of a double transfer' });
    expect(d.body.data).toMatchObject({ balance: 100000, entry: { type: 'debit', amount: -50000, balance_after: 100000 } });

    const balance = await r.client.get('/balance');
    expect(balance.body.data.balance).toBe(100000);
    const history = await r.client.get('/wallet-history');
    expect(history.body.data.entries.map((e: any) => [e.type, e.amount, e.note])).toEqual([
      ['debit', -50000, 'correction of a double transfer'],
      ['credit', 150000, 'bank transfer 2026-03-01'],
    ]);
    const adminHistory = await op.get(`/resellers/${r.id}/wallet-history`);
    expect(adminHistory.status).toBe(200);
    expect(adminHistory.body.data.entries).toEqual(history.body.data.entries);
    expect(adminHistory.body.meta).toMatchObject({ total: 2, page: 1 });
    expect((await op.get(`/resellers/${r.id}/wallet-history?type=credit`)).body.data.entries).toHaveLength(1);
    expect(adminHistory.body.data.entries[0]).toEqual(d.body.data.entry);
    await ledgerConsistent(t.platform.database.db);
  });

  it('audits each change with the balance before and after, in the same transaction', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 7000, note: 'top up' });
    await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 2000, note: 'fee' });
    const lines = (await op.get(`/audit?target_id=${r.id}`)).body.data.entries;
    expect(lines.map((l: any) => [l.action, l.before, l.after.balance, l.after.amount, l.note])).toEqual([
      ['wallet.debit', { balance: 7000 }, 5000, -2000, 'fee'],
      ['wallet.credit', { balance: 0 }, 7000, 7000, 'top up'],
    ]);
  });

  it('refuses a debit below zero with INSUFFICIENT_BALANCE and changes nothing (no entry, no audit line)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1000 });
    const before = await stateSnapshot(t.platform);
    const auditBefore = (await op.get('/audit')).body.meta.total;
    const refused = await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 1001, note: 'too much' });
    expectJsonError(refused, 402, 'INSUFFICIENT_BALANCE');
    expect(await stateSnapshot(t.platform)).toEqual(before);
    expect((await op.get('/audit')).body.meta.total).toBe(auditBefore);
    const exact = await op.post(`/resellers/${r.id}/wallet/debit`, { amount: 1000, note: 'close the account' });
    expect(exact.body.data.balance).toBe(0);
    await ledgerConsistent(t.platform.database.db);
  });

  it('refuses bad amounts and notes by name, changing nothing', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await stateSnapshot(t.platform);
    const url = `/resellers/${r.id}/wallet/credit`;
    for (const body of [
      { amount: 0, note: 'zero' },
      { amount: -5, note: 'negative' },
      { amount: 10.5, note: 'IDR has no minor units' },
      { amount: 'a lot', note: 'not a number' },
      { amount: 100, note: '   ' },
      { amount: 100 },
      { note: 'no amount' },
      { amount: 100, note: 'x', balance: 5 },
    ]) {
      const res = await op.post(url, body);
      expectJsonError(res, 400, 'VALIDATION_ERROR');
    }
    expect((await op.post(url, { amount: 100, note: 'x', balance: 5 })).body.message).toContain("unknown field 'balance'");
    expect((await op.post(url, { amount: 10.5, note: 'x' })).body.message).toMatch(/decimals/);
    expectJsonError(await op.post('/resellers/nobody/wallet/credit', { amount: 1, note: 'x' }), 404, 'NOT_FOUND');
    expectJsonError(await op.get('/resellers/nobody/wallet-history'), 404, 'NOT_FOUND');
    expectJsonError(await op.get(`/resellers/${r.id}/wallet-history?type=gift`), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.get(`/resellers/${r.id}/wallet-history?start_date=2026-01-01&end_date=2026-12-31`), 400, 'DATE_RANGE_TOO_LARGE');
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('concurrent debits never take the balance below zero', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 5000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => op.post(`/resellers/${r.id}/wallet/debit`, { amount: 1000, note: 'race' })));
    expect(results.filter((x) => x.status === 200)).toHaveLength(5);
    for (const x of results.filter((x) => x.status !== 200)) expectJsonError(x, 402, 'INSUFFICIENT_BALANCE');
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(0);
    await ledgerConsistent(t.platform.database.db);
  });
});
