import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: resellers (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  const auditOf = async (targetId: string) => (await op.get(`/audit?target_id=${targetId}`)).body.data.entries;
  const row = (id: string) => t.platform.database.db.selectFrom('resellers').select(['status', 'tier', 'balance', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();

  it('creates a pending reseller, or an active one when approved at once; audited without secrets', async () => {
    const r = await op.post('/resellers', { name: 'Toko Satu', email: 'Satu@Example.com', tier: 'platinum' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Toko Satu', email: 'satu@example.com', tier: 'platinum', status: 'pending', balance: 0, api_keys: [], ip_whitelist: [], catalogs: [] });
    const approved = await op.post('/resellers', { name: 'Toko Dua', email: 'dua@example.com', approve: true });
    expect(approved.body.data).toMatchObject({ status: 'active', tier: 'gold' });

    const [line] = await auditOf(r.body.data.id);
    expect(line).toMatchObject({ action: 'reseller.create', target_kind: 'reseller', before: null, after: { email: 'satu@example.com', tier: 'platinum', status: 'pending' } });
    expect(line.operator_email).toBe('admin@localhost');
  });

  it('refuses a taken email, bad tiers, unknown fields and empty names, creating nothing', async () => {
    const before = await op.get('/resellers?limit=100');
    expectJsonError(await op.post('/resellers', { name: 'Again', email: 'SATU@example.com' }), 409, 'CONFLICT');
    const badTier = await op.post('/resellers', { name: 'X', email: 'x@example.com', tier: 'bronze' });
    expectJsonError(badTier, 400, 'VALIDATION_ERROR');
    expect(badTier.body.message).toContain('gold, platinum, diamond');
    const unknown = await op.post('/resellers', { name: 'X', email: 'x@example.com', balance: 100 });
    expectJsonError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.message).toContain("unknown field 'balance'");
    expectJsonError(await op.post('/resellers', { name: '   ', email: 'x@example.com' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/resellers', { name: 'X', email: 'not-an-email' }), 400, 'VALIDATION_ERROR');
    expect((await op.get('/resellers?limit=100')).body.meta.total).toBe(before.body.meta.total);
  });

  it('lists and searches by name or email, status and tier, paged like API v1', async () => {
    const all = await op.get('/resellers?limit=2');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ page: 1, limit: 2, has_more: true });
    expect(all.body.data.resellers).toHaveLength(2);
    expect(all.body.data.resellers[0].email).toBe('dua@example.com'); // newest first

    const byName = await op.get('/resellers?q=toko%20s');
    expect(byName.body.data.resellers.map((r: any) => r.email)).toEqual(['satu@example.com']);
    const byEmail = await op.get('/resellers?q=DUA@');
    expect(byEmail.body.data.resellers.map((r: any) => r.email)).toEqual(['dua@example.com']);
    const wildcard = await op.get('/resellers?q=%25');
    expect(wildcard.body.meta.total).toBe(0); // % is a character, not a wildcard
    const pending = await op.get('/resellers?status=pending');
    expect(pending.body.data.resellers.every((r: any) => r.status === 'pending')).toBe(true);
    expect(pending.body.meta.total).toBe(1);
    const platinum = await op.get('/resellers?tier=platinum');
    expect(platinum.body.data.resellers.map((r: any) => r.email)).toEqual(['satu@example.com']);

    expectJsonError(await op.get('/resellers?status=asleep'), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.get('/resellers?limit=0'), 400, 'INVALID_PAGINATION');
    expectJsonError(await op.get('/resellers?colour=red'), 400, 'VALIDATION_ERROR');
  });

  it('shows one reseller with masked API keys, whitelist and catalogs; never the secret', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['10.0.0.7'] });
    const v = await op.get(`/resellers/${r.id}`);
    expect(v.status).toBe(200);
    expect(v.body.data.ip_whitelist).toEqual(['10.0.0.7']);
    expect(v.body.data.catalogs).toEqual([expect.objectContaining({ name: 'Demo catalog' })]);
    expect(v.body.data.api_keys).toHaveLength(1);
    expect(v.body.data.api_keys[0]).toMatchObject({ masked_key: `${r.apiKey.slice(0, 7)}…${r.apiKey.slice(-4)}`, revoked_at: null });
    expect(v.text).not.toContain(r.apiKey);
    expect(v.text).not.toContain(r.apiSecret);
    expectJsonError(await op.get('/resellers/no-such-id'), 404, 'NOT_FOUND');
  });

  it('approves a pending reseller with a tier once; approving again is INVALID_STATE and changes nothing', async () => {
    const created = (await op.post('/resellers', { name: 'Toko Tiga', email: 'tiga@example.com' })).body.data;
    const a = await op.post(`/resellers/${created.id}/approve`, { tier: 'diamond', note: 'KYC ok' });
    expect(a.status, a.text).toBe(200);
    expect(a.body.data).toMatchObject({ status: 'active', tier: 'diamond' });
    const before = await row(created.id);
    expectJsonError(await op.post(`/resellers/${created.id}/approve`, { tier: 'gold' }), 409, 'INVALID_STATE');
    expect(await row(created.id)).toEqual(before);
    expectJsonError(await op.post(`/resellers/${created.id}/approve`, {}), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post('/resellers/nope/approve', { tier: 'gold' }), 404, 'NOT_FOUND');

    const lines = await auditOf(created.id);
    expect(lines.map((l: any) => l.action)).toEqual(['reseller.approve', 'reseller.create']);
    expect(lines[0]).toMatchObject({ before: { status: 'pending', tier: 'gold' }, after: { status: 'active', tier: 'diamond' }, note: 'KYC ok' });
  });

  it('changes the tier, audited with before and after', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { tier: 'gold' });
    const c = await op.post(`/resellers/${r.id}/tier`, { tier: 'platinum' });
    expect(c.body.data.tier).toBe('platinum');
    expect((await row(r.id)).tier).toBe('platinum');
    expectJsonError(await op.post(`/resellers/${r.id}/tier`, { tier: 'iron' }), 400, 'VALIDATION_ERROR');
    expect((await auditOf(r.id))[0]).toMatchObject({ action: 'reseller.set_tier', before: { tier: 'gold' }, after: { tier: 'platinum' } });
  });

  it('suspension stops API v1 at once (RESELLER_INACTIVE); reactivation restores it', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    expect((await r.client.get('/balance')).status).toBe(200);
    const s = await op.post(`/resellers/${r.id}/suspend`, { note: 'chargebacks' });
    expect(s.body.data.status).toBe('suspended');
    expectError(await r.client.get('/balance'), 403, 'RESELLER_INACTIVE');
    expectError(await r.client.post('/order', { ref_id: 'after-suspend', product_code: 'FF-100', target: '123456789' }), 403, 'RESELLER_INACTIVE');
    expect(await t.platform.repos.orders.findByRef(r.id, 'after-suspend')).toBeNull();

    expectJsonError(await op.post(`/resellers/${r.id}/suspend`, {}), 409, 'INVALID_STATE');
    expect((await op.post(`/resellers/${r.id}/reactivate`, {})).body.data.status).toBe('active');
    expect((await r.client.get('/balance')).status).toBe(200);
    expectJsonError(await op.post(`/resellers/${r.id}/reactivate`, {}), 409, 'INVALID_STATE');
    expect((await row(r.id)).status).toBe('active');

    const actions = (await auditOf(r.id)).map((l: any) => [l.action, l.before.status, l.after.status]);
    expect(actions).toEqual([['reseller.reactivate', 'suspended', 'active'], ['reseller.suspend', 'active', 'suspended']]);
  });

  it('a pending reseller cannot be suspended or reactivated', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { status: 'pending' });
    expectJsonError(await op.post(`/resellers/${r.id}/suspend`, {}), 409, 'INVALID_STATE');
    expectJsonError(await op.post(`/resellers/${r.id}/reactivate`, {}), 409, 'INVALID_STATE');
    expect((await row(r.id)).status).toBe('pending');
    expect(await auditOf(r.id)).toEqual([]);
  });

  it('every route needs an operator session', async () => {
    const anon = new JsonClient(op.baseUrl);
    expectJsonError(await anon.get('/resellers'), 401, 'UNAUTHENTICATED');
    expectJsonError(await anon.post('/resellers', { name: 'X', email: 'x@example.com' }), 401, 'UNAUTHENTICATED');
  });
});
