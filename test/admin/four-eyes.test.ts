import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import type { OperatorRole } from '../../src/domain/operator-roles.js';
import { supplierCredentials } from '../../src/store/fulfilment-repo.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { JsonClient } from '../support/json-client.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** FF-100 costs a gold reseller 15000: above this threshold its refund waits; a credit of 10000 does not. */
const THRESHOLD = 10_000;

describe('four-eyes setting', () => {
  it('FOUR_EYES_THRESHOLD is major units, 10 000 000 by default, 0 turns it off', () => {
    const base = { NODE_ENV: 'test', MASTER_KEY: 'ab'.repeat(32), DATABASE_URL: 'sqlite::memory:' };
    expect(parseConfig(base).fourEyesThreshold).toBe(10_000_000);
    expect(parseConfig({ ...base, FOUR_EYES_THRESHOLD: '0' }).fourEyesThreshold).toBe(0);
    expect(() => parseConfig({ ...base, FOUR_EYES_THRESHOLD: '-1' })).toThrow(/FOUR_EYES_THRESHOLD/);
  });
});

describe.each(storeKinds())('four-eyes approval (%s)', (kind) => {
  let t: TestApp;
  const operatorWith = async (roles: OperatorRole[]) => {
    const o = await t.platform.operator.operators.create(`${roles.join('-')}-${Math.random().toString(16).slice(2, 8)}@example.com`, roles.join(' '), undefined, roles);
    const s = await t.platform.core.sessions.open('operator', o.id);
    return { id: o.id, client: new JsonClient(`${t.origin}/admin/v1`, s.token) };
  };
  let financeA: Awaited<ReturnType<typeof operatorWith>>;
  let financeB: Awaited<ReturnType<typeof operatorWith>>;
  let owner: Awaited<ReturnType<typeof operatorWith>>;
  let catalog: Awaited<ReturnType<typeof operatorWith>>;
  let support: Awaited<ReturnType<typeof operatorWith>>;
  const balance = async (id: string) => Number((await t.platform.database.db.selectFrom('resellers').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance);
  const ledgerCount = async (id: string) => (await t.platform.database.db.selectFrom('ledger_entries').select('id').where('reseller_id', '=', id).execute()).length;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { FOUR_EYES_THRESHOLD: String(THRESHOLD) } });
    await t.platform.operator.operators.ensureFirst();
    financeA = await operatorWith(['finance']);
    financeB = await operatorWith(['finance']);
    owner = await operatorWith(['owner']);
    catalog = await operatorWith(['catalog']);
    support = await operatorWith(['support']);
  });
  afterAll(async () => t?.close());

  it('at or below the threshold a credit and a debit apply at once, as before (200)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 0 });
    const c = await financeA.client.post(`/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD, note: 'top-up' });
    expect(c.status, c.text).toBe(200);
    expect(c.body.data).toMatchObject({ reseller_id: r.id, balance: THRESHOLD });
    const d = await financeA.client.post(`/resellers/${r.id}/wallet/debit`, { amount: 1, note: 'fee' });
    expect(d.status, d.text).toBe(200);
    expect(await balance(r.id)).toBe(THRESHOLD - 1);
    expect((await financeA.client.get('/approvals?state=pending')).body.data.requests.filter((q: { target_id: string }) => q.target_id === r.id)).toEqual([]);
  });

  it('above it a credit answers 202 with a pending request and changes nothing; the requester cannot approve it; another finance operator approves it once', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 0 });
    const asked = await financeA.client.post(`/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD + 1, note: 'bank transfer 0042' });
    expect(asked.status, asked.text).toBe(202);
    const req = asked.body.data;
    expect(req).toMatchObject({ kind: 'wallet.credit', target_kind: 'reseller', target_id: r.id, amount: THRESHOLD + 1, note: 'bank transfer 0042', state: 'pending', requested_by: financeA.id, permission: 'wallet.adjust', roles: ['owner', 'finance'] });
    expect(await balance(r.id)).toBe(0);
    expect(await ledgerCount(r.id)).toBe(0);

    const pending = (await support.client.get('/approvals?state=pending')).body.data.requests;
    expect(pending.map((q: { id: string }) => q.id)).toContain(req.id);
    expectJsonError(await financeA.client.post(`/approvals/${req.id}/approve`, {}), 403, 'FOUR_EYES_SELF_APPROVAL');
    expectJsonError(await financeA.client.post(`/approvals/${req.id}/reject`, { reason: 'no' }), 403, 'FOUR_EYES_SELF_APPROVAL');
    // A role that may decide some requests, but not money ones.
    const refused = await catalog.client.post(`/approvals/${req.id}/approve`, {});
    expectJsonError(refused, 403, 'FORBIDDEN_ROLE');
    expect(refused.body.message).toMatch(/owner or finance/);
    expectJsonError(await support.client.post(`/approvals/${req.id}/approve`, {}), 403, 'FORBIDDEN_ROLE');
    expect(await balance(r.id)).toBe(0);

    // Two approvers at once: one applies, the other is told it was decided.
    const [x, y] = await Promise.all([financeB.client.post(`/approvals/${req.id}/approve`, {}), owner.client.post(`/approvals/${req.id}/approve`, {})]);
    const statuses = [x.status, y.status].sort();
    expect(statuses, `${x.text} ${y.text}`).toEqual([200, 409]);
    const ok = x.status === 200 ? x : y;
    expect(ok.body.data).toMatchObject({ state: 'approved', result: { balance: THRESHOLD + 1 } });
    expect(await balance(r.id)).toBe(THRESHOLD + 1);
    expect(await ledgerCount(r.id)).toBe(1);
    expectJsonError(await financeB.client.post(`/approvals/${req.id}/approve`, {}), 409, 'INVALID_STATE');
    expect(await ledgerCount(r.id)).toBe(1);

    // The audit log names both people on the applied credit.
    const { entries } = await t.platform.core.repos.audit.list({ targetId: r.id, action: 'wallet.credit', limit: 5, offset: 0 });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operatorId: financeA.id, approvedBy: ok.body.data.decided_by, after: { amount: THRESHOLD + 1, approval_request_id: req.id } });
    const audit = await owner.client.get(`/audit?target_id=${r.id}`);
    expect(audit.body.data.entries[0]).toMatchObject({ action: 'wallet.credit', operator_id: financeA.id, approved_by: ok.body.data.decided_by });
  });

  it('the Idempotency-Key replays the 202 (one request); below the threshold it replays the 200', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 0 });
    const key = { 'idempotency-key': uniqueRef('k') };
    const first = await financeA.client.request('POST', `/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD * 2, note: 'big' }, key);
    const again = await financeA.client.request('POST', `/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD * 2, note: 'big' }, key);
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const mine = (await financeA.client.get('/approvals?state=pending')).body.data.requests.filter((q: { target_id: string }) => q.target_id === r.id);
    expect(mine).toHaveLength(1);
    const small = { 'idempotency-key': uniqueRef('k') };
    const s1 = await financeA.client.request('POST', `/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'small' }, small);
    const s2 = await financeA.client.request('POST', `/resellers/${r.id}/wallet/credit`, { amount: 5, note: 'small' }, small);
    expect([s1.status, s2.status]).toEqual([200, 200]);
    expect(s2.body.data).toEqual(s1.body.data);
    expect(await balance(r.id)).toBe(5);
  });

  it('a rejected request changes nothing; a cancelled one neither, and only its requester may cancel', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 0 });
    const a = (await financeA.client.post(`/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD + 5, note: 'a' })).body.data;
    expectJsonError(await financeB.client.post(`/approvals/${a.id}/reject`, { reason: ' ' }), 400, 'VALIDATION_ERROR');
    const rej = await financeB.client.post(`/approvals/${a.id}/reject`, { reason: 'no such transfer on the statement' });
    expect(rej.status, rej.text).toBe(200);
    expect(rej.body.data).toMatchObject({ state: 'rejected', reason: 'no such transfer on the statement', decided_by: financeB.id });
    expectJsonError(await owner.client.post(`/approvals/${a.id}/approve`, {}), 409, 'INVALID_STATE');
    const b = (await financeA.client.post(`/resellers/${r.id}/wallet/credit`, { amount: THRESHOLD + 6, note: 'b' })).body.data;
    expectJsonError(await financeB.client.post(`/approvals/${b.id}/cancel`, {}), 403, 'FORBIDDEN_ROLE');
    const can = await financeA.client.post(`/approvals/${b.id}/cancel`, {});
    expect(can.body.data).toMatchObject({ state: 'cancelled' });
    expect(await balance(r.id)).toBe(0);
    expect(await ledgerCount(r.id)).toBe(0);
    const listed = (await owner.client.get('/approvals?state=rejected,cancelled')).body.data.requests.map((q: { id: string }) => q.id);
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    expectJsonError(await owner.client.get('/approvals?state=maybe'), 400, 'VALIDATION_ERROR');
    expectJsonError(await owner.client.get('/approvals/nope'), 404, 'NOT_FOUND');
  });

  it('a debit that can no longer be applied when approved fails with the reason, changing nothing', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: THRESHOLD * 3 });
    const req = (await financeA.client.post(`/resellers/${r.id}/wallet/debit`, { amount: THRESHOLD * 2, note: 'chargeback' })).body.data;
    expect(req.state).toBe('pending');
    // Meanwhile the balance drops below the debit (at once: a small debit).
    expect((await financeA.client.post(`/resellers/${r.id}/wallet/debit`, { amount: THRESHOLD, note: 'fee' })).status).toBe(200);
    expect((await financeA.client.post(`/resellers/${r.id}/wallet/debit`, { amount: THRESHOLD, note: 'fee' })).status).toBe(200);
    const before = await ledgerCount(r.id);
    const res = await owner.client.post(`/approvals/${req.id}/approve`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'failed', decided_by: owner.id });
    expect(res.body.data.reason).toMatch(/INSUFFICIENT_BALANCE/);
    expect(await balance(r.id)).toBe(THRESHOLD);
    expect(await ledgerCount(r.id)).toBe(before);
    expectJsonError(await financeB.client.post(`/approvals/${req.id}/approve`, {}), 409, 'INVALID_STATE');
  });

  it("a manual refund above the threshold waits (202) and is applied once when approved", async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const placed = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    expect(placed.status, placed.text).toBe(200);
    const orderId = placed.body.data.order_id;
    const asked = await financeA.client.post(`/orders/${orderId}/refund`, { note: 'never delivered' });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body.data).toMatchObject({ kind: 'order.refund', target_id: orderId, amount: 15000, permission: 'orders.refund' });
    expect(await balance(r.id)).toBe(85_000);
    const ok = await financeB.client.post(`/approvals/${asked.body.data.id}/approve`, {});
    expect(ok.body.data).toMatchObject({ state: 'approved', result: { order_status: 'refunded' } });
    expect(await balance(r.id)).toBe(100_000);
    const order = await owner.client.get(`/orders/${orderId}`);
    expect(order.body.data.status).toBe('refunded');
    // A second request for a refunded order is refused at once, as before.
    expectJsonError(await financeB.client.post(`/orders/${orderId}/refund`, { note: 'again' }), 409, 'INVALID_STATE');
  });

  it('two refund requests for one order: the first approved refunds it, the second fails with the reason (one refund entry)', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
    const placed = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    const orderId = placed.body.data.order_id;
    const a = (await financeA.client.post(`/orders/${orderId}/refund`, { note: 'first desk' })).body.data;
    const b = (await financeB.client.post(`/orders/${orderId}/refund`, { note: 'second desk' })).body.data;
    expect([a.state, b.state]).toEqual(['pending', 'pending']);
    expect((await owner.client.post(`/approvals/${a.id}/approve`, {})).body.data.state).toBe('approved');
    const second = await owner.client.post(`/approvals/${b.id}/approve`, {});
    expect(second.body.data).toMatchObject({ state: 'failed' });
    expect(second.body.data.reason).toMatch(/INVALID_STATE/);
    expect(await balance(r.id)).toBe(100_000);
    const refunds = await t.platform.database.db.selectFrom('ledger_entries').select('id').where('order_id', '=', orderId).where('type', '=', 'order_refund').execute();
    expect(refunds).toHaveLength(1);
    const { entries } = await t.platform.core.repos.audit.list({ targetId: b.id, action: 'approval.fail', limit: 5, offset: 0 });
    expect(entries[0]).toMatchObject({ operatorId: owner.id });
  });

  it("a supplier's credentials always wait (202), kept sealed and never shown; approved by an owner (not the requester, not finance) they apply", async () => {
    const s = await t.platform.operator.supply.addUpstreamV1({ name: `up-${Math.random().toString(16).slice(2, 8)}`, baseUrl: 'https://old.example/api/v1', apiKey: 'old-key', apiSecret: 'old-secret' }, owner.id);
    const sealedBefore = await supplierCredentials(t.platform.database.db, s.id);
    expectJsonError(await catalog.client.put(`/suppliers/${s.id}/credentials`, { api_key: 'k' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await support.client.put(`/suppliers/${s.id}/credentials`, { api_key: 'k' }), 403, 'FORBIDDEN_ROLE');
    const asked = await catalog.client.put(`/suppliers/${s.id}/credentials`, { base_url: 'https://new.example/api/v1', api_key: 'new-key', api_secret: 'new-secret-value', note: 'rotated' });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body.data).toMatchObject({ kind: 'supplier.credentials', target_id: s.id, amount: null, state: 'pending', permission: 'supply.manage' });
    expect(asked.text).not.toContain('new-secret-value');
    expect(asked.text).not.toContain('new-key');
    const row = await t.platform.database.db.selectFrom('approval_requests').select('payload_enc').where('id', '=', asked.body.data.id).executeTakeFirstOrThrow();
    expect(row.payload_enc).toMatch(/^v1\./);
    expect(row.payload_enc).not.toContain('new-secret-value');
    expect(await supplierCredentials(t.platform.database.db, s.id)).toBe(sealedBefore);
    expectJsonError(await catalog.client.post(`/approvals/${asked.body.data.id}/approve`, {}), 403, 'FOUR_EYES_SELF_APPROVAL');
    expectJsonError(await financeB.client.post(`/approvals/${asked.body.data.id}/approve`, {}), 403, 'FORBIDDEN_ROLE');
    const got = await owner.client.get(`/approvals/${asked.body.data.id}`);
    expect(got.text).not.toContain('new-secret-value');
    const ok = await owner.client.post(`/approvals/${asked.body.data.id}/approve`, {});
    expect(ok.body.data.state, ok.text).toBe('approved');
    const sealedAfter = await supplierCredentials(t.platform.database.db, s.id);
    expect(sealedAfter).toBe(row.payload_enc);
    expect(JSON.parse(t.platform.core.secrets.open(sealedAfter))).toEqual({ baseUrl: 'https://new.example/api/v1', apiKey: 'new-key', apiSecret: 'new-secret-value' });
    const { entries } = await t.platform.core.repos.audit.list({ targetId: s.id, action: 'supplier.credentials', limit: 5, offset: 0 });
    expect(entries[0]).toMatchObject({ operatorId: catalog.id, approvedBy: owner.id, after: { credentials: 'sealed' } });
    expect(JSON.stringify(entries)).not.toContain('new-secret-value');
  });
});
