import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** Issue 28 item 3: operator money changes take an Idempotency-Key and never apply twice. */
describe.each(storeKinds())('operator API: Idempotency-Key (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  const withKey = (c: JsonClient, path: string, body: unknown, key: string) => c.request('POST', path, body, { 'idempotency-key': key });
  const entries = async (resellerId: string) =>
    Number((await t.platform.database.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('reseller_id', '=', resellerId).executeTakeFirstOrThrow()).n);

  it('a credit retried with the same key and body answers the first result again, applied once', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const key = uniqueRef('idem');
    const first = await withKey(op, `/resellers/${r.id}/wallet/credit`, { amount: 5000, note: 'transfer 1' }, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await withKey(op, `/resellers/${r.id}/wallet/credit`, { note: 'transfer 1', amount: 5000 }, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await entries(r.id)).toBe(1);
    expect((await op.get(`/audit?action=wallet.credit&target_id=${r.id}`)).body.meta.total).toBe(1);
    await ledgerConsistent(t.platform.database.db);
  });

  it('the same key with another body or another route is 422 IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const key = uniqueRef('idem');
    expect((await withKey(op, `/resellers/${r.id}/wallet/credit`, { amount: 5000, note: 'x' }, key)).status).toBe(200);
    const before = await stateSnapshot(t.platform);
    for (const [path, body] of [[`/resellers/${r.id}/wallet/credit`, { amount: 5001, note: 'x' }], [`/resellers/${r.id}/wallet/debit`, { amount: 5000, note: 'x' }]] as const) {
      const res = await withKey(op, path, body, key);
      expectJsonError(res, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(res.body.message).toContain('different request');
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('a debit retried with the same key and body answers the first result again, applied once; another body is refused', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 10_000 });
    const entriesBefore = await entries(r.id);
    const key = uniqueRef('idem');
    const path = `/resellers/${r.id}/wallet/debit`;
    const first = await withKey(op, path, { amount: 4000, note: 'chargeback 1' }, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await withKey(op, path, { note: 'chargeback 1', amount: 4000 }, key);
    expect(again.status, again.text).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await entries(r.id)).toBe(entriesBefore + 1);
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(6000);
    expect((await op.get(`/audit?action=wallet.debit&target_id=${r.id}`)).body.meta.total).toBe(1);

    const before = await stateSnapshot(t.platform);
    for (const body of [{ amount: 4001, note: 'chargeback 1' }, { amount: 4000, note: 'chargeback 2' }]) {
      const res = await withKey(op, path, body, key);
      expectJsonError(res, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(res.body.message).toContain('different request');
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(6000);
    await ledgerConsistent(t.platform.database.db);
  });

  it('keys are per operator, a refused change keeps no key, and a key expires after 24 hours', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const key = uniqueRef('idem');
    // Refused (insufficient balance): nothing kept, so the retry after a credit is a new attempt.
    expectJsonError(await withKey(op, `/resellers/${r.id}/wallet/debit`, { amount: 100, note: 'd' }, key), 402, 'INSUFFICIENT_BALANCE');
    await op.post(`/resellers/${r.id}/wallet/credit`, { amount: 300, note: 'c' });
    expect((await withKey(op, `/resellers/${r.id}/wallet/debit`, { amount: 100, note: 'd' }, key)).status).toBe(200);

    const creds = await t.platform.operator.operators.create(`op-${uniqueRef()}@example.com`, 'Second operator', undefined, ['owner']);
    const other = new JsonClient(`${t.origin}/admin/v1`);
    await other.signIn(creds.email, creds.password);
    const theirs = await withKey(other, `/resellers/${r.id}/wallet/debit`, { amount: 100, note: 'd' }, key);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(100);

    await t.platform.database.db.updateTable('idempotency_keys').set((eb) => ({ created_at: eb('created_at', '-', 24 * 3_600_000 + 1) })).where('idem_key', '=', key).execute();
    const later = await withKey(op, `/resellers/${r.id}/wallet/debit`, { amount: 100, note: 'd' }, key);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(0);
    await ledgerConsistent(t.platform.database.db);
  });

  it('a manual refund with a key is replayed, not refused, when retried', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const placed = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    const id = placed.body.data.order_id;
    const key = uniqueRef('idem');
    const first = await withKey(op, `/orders/${id}/refund`, { note: 'goodwill' }, key);
    expect(first.status, first.text).toBe(200);
    const again = await withKey(op, `/orders/${id}/refund`, { note: 'goodwill' }, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expectJsonError(await op.post(`/orders/${id}/refund`, { note: 'goodwill' }), 409, 'INVALID_STATE');
    await ledgerConsistent(t.platform.database.db);
  });

  it('twenty concurrent manual refunds with one key all answer the one refund (the first, then its replays); one refund entry', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const placed = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    const id = placed.body.data.order_id;
    const key = uniqueRef('idem');
    const results = await Promise.all(Array.from({ length: 20 }, () => withKey(op, `/orders/${id}/refund`, { note: 'race' }, key)));
    // The key is taken before the order is read: the others wait for it and replay its answer,
    // never INVALID_STATE (the order they would have read is refunded by then).
    expect(results.map((x) => x.status === 200 ? 200 : x.body.error)).toEqual(results.map(() => 200));
    expect(results.filter((x) => x.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const x of results) expect(x.body).toEqual(results[0]!.body);
    expect(results[0]!.body.data.status).toBe('refunded');
    const refunds = await t.platform.database.db.selectFrom('ledger_entries').select('id').where('order_id', '=', id).where('type', '=', 'order_refund').execute();
    expect(refunds).toHaveLength(1);
    await ledgerConsistent(t.platform.database.db);
  });

  it('twenty concurrent credits with one key: every answer is the one credit (never IN_PROGRESS), applied once', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const key = uniqueRef('idem');
    const results = await Promise.all(Array.from({ length: 20 }, () => withKey(op, `/resellers/${r.id}/wallet/credit`, { amount: 700, note: 'race all' }, key)));
    expect(results.map((x) => x.status === 200 ? 200 : x.body.error)).toEqual(results.map(() => 200));
    for (const x of results) expect(x.body).toEqual(results[0]!.body);
    expect(await entries(r.id)).toBe(1);
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(700);
  });

  it('refuses a key that is empty or too long (control characters never pass the HTTP parser)', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    for (const key of ['', 'k'.repeat(256)]) {
      expectJsonError(await withKey(op, `/resellers/${r.id}/wallet/credit`, { amount: 1, note: 'x' }, key), 400, 'VALIDATION_ERROR');
    }
    expect(await entries(r.id)).toBe(0);
  });
});
