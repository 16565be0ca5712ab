import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ledgerConsistent } from '../support/ledger.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('POST /order concurrency (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('50 simultaneous requests with one ref_id make exactly one order and one debit', async () => {
    const ref = uniqueRef('race');
    const before = (await t.client.get('/balance')).body.data.balance;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toBe('DUPLICATE_REF_ID');
    const after = (await t.client.get('/balance')).body.data.balance;
    expect(before - after).toBe(15000);
    const { db } = t.platform.database;
    const orders = await db.selectFrom('orders').select('id').where('ref_id', '=', ref).execute();
    expect(orders).toHaveLength(1);
    const debits = await db.selectFrom('ledger_entries').select('id').where('order_id', '=', orders[0]!.id).execute();
    const jobs = await db.selectFrom('jobs').select('payload').execute();
    expect(debits).toHaveLength(1);
    expect(jobs.filter((j) => j.payload.includes(orders[0]!.id))).toHaveLength(1);
    await ledgerConsistent(db);
  });

  it('concurrent orders with distinct ref_ids never overdraw the wallet', async () => {
    const { db } = t.platform.database;
    const bal = (await t.client.get('/balance')).body.data.balance as number;
    // Leave exactly three orders' worth, then race ten orders for it.
    await t.platform.repos.ledger.adjust(t.demo.resellerId, -(bal - 45000), 'test: leave room for three orders', Date.now());
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.client.post('/order', { ref_id: uniqueRef(`spend${i}`), product_code: 'FF-100', target: '123456789' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body.error).toBe('INSUFFICIENT_BALANCE');
    expect((await t.client.get('/balance')).body.data.balance).toBe(0);
    await ledgerConsistent(db);
  });
});
