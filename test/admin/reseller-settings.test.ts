import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ResellerClient } from '../support/client.js';
import { accountState } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())("operator API: a reseller's settings done for it, audited (%s)", (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let opId: string;
  beforeAll(async () => {
    // As in production: callback URLs must reach public addresses only.
    t = await startTestApp(kind, { env: { CALLBACK_ALLOW_PRIVATE_TARGETS: 'false' } });
    op = await operatorClient(t);
    opId = (await op.get('/me')).body.data.id;
  });
  afterAll(async () => t?.close());

  let n = 0;
  const newReseller = async (approve = true) => {
    const r = await op.post('/resellers', { name: `Desk ${++n}`, email: `desk-${n}-${kind}@example.com`, approve });
    expect(r.status, r.text).toBe(200);
    return r.body.data.id as string;
  };
  const audit = (resellerId: string) =>
    t.platform.database.db.selectFrom('audit_log').selectAll().where('target_kind', '=', 'reseller').where('target_id', '=', resellerId).where('action', '!=', 'reseller.create').orderBy('id').execute();

  it('issues a key (secret shown once) the reseller can sign with from a whitelisted address, lists it masked, revokes it', async () => {
    const id = await newReseller();
    expect((await op.post(`/resellers/${id}/whitelist`, { ip: '127.0.0.1', note: 'their server' })).status).toBe(200);
    const issued = await op.post(`/resellers/${id}/api-keys`, { note: 'ticket 42' });
    expect(issued.status, issued.text).toBe(200);
    const { api_key: apiKey, api_secret: apiSecret, id: keyId } = issued.body.data;
    const api = new ResellerClient(t.baseUrl, apiKey, apiSecret);
    expect((await api.get('/balance')).status).toBe(200);

    const list = await op.get(`/resellers/${id}/api-keys`);
    expect(list.body.data.api_keys).toEqual([{ id: keyId, api_key: expect.stringMatching(/…/), state: 'live', created_at: expect.any(String), revoked_at: null }]);
    expect(list.text).not.toContain(apiSecret);
    expect(list.text).not.toContain(apiKey);

    const revoked = await op.delete(`/resellers/${id}/api-keys/${keyId}`);
    expect(revoked.status, revoked.text).toBe(200);
    expectError(await api.get('/balance'), 401, 'INVALID_API_KEY');
    expectJsonError(await op.delete(`/resellers/${id}/api-keys/${keyId}`), 409, 'INVALID_STATE');

    const lines = await audit(id);
    expect(lines.map((l) => [l.action, l.operator_id])).toEqual([['reseller.whitelist_add', opId], ['reseller.api_key_issue', opId], ['reseller.api_key_revoke', opId]]);
    expect(lines[1]!.note).toBe('ticket 42');
    expect(JSON.parse(lines[1]!.after!)).toMatchObject({ key_id: keyId, revoke_previous: 'after_overlap' });
    expect(JSON.parse(lines[2]!.before!)).toMatchObject({ key_id: keyId, revoked_at: null });
    expect(JSON.stringify(lines)).not.toContain(apiSecret);
    expect(JSON.stringify(lines)).not.toContain(apiKey);
  });

  it("follows the reseller's own key rules: active accounts only, rotation overlap, at most 5 live", async () => {
    const pending = await newReseller(false);
    expectJsonError(await op.post(`/resellers/${pending}/api-keys`), 409, 'INVALID_STATE');
    const id = await newReseller();
    const first = (await op.post(`/resellers/${id}/api-keys`)).body.data;
    const second = await op.post(`/resellers/${id}/api-keys`, { revoke_previous: 'now' });
    expect(second.status).toBe(200);
    const keys = (await op.get(`/resellers/${id}/api-keys`)).body.data.api_keys;
    expect(keys.find((k: any) => k.id === first.id).state).toBe('revoked');
    for (let i = 0; i < 4; i++) expect((await op.post(`/resellers/${id}/api-keys`)).status).toBe(200);
    const before = await accountState(t, id);
    expectJsonError(await op.post(`/resellers/${id}/api-keys`), 409, 'INVALID_STATE');
    expect(await accountState(t, id)).toEqual(before);
    expect((await audit(id)).filter((l) => l.action === 'reseller.api_key_issue')).toHaveLength(6);
  });

  it('edits the whitelist: canonical form, duplicates and ranges refused, removal takes effect on the next API v1 request', async () => {
    const id = await newReseller();
    const added = await op.post(`/resellers/${id}/whitelist`, { ip: '::FFFF:127.0.0.1' });
    expect(added.body.data).toEqual({ ip: '127.0.0.1', created_at: expect.any(String) });
    expect((await op.post(`/resellers/${id}/whitelist`, { ip: '2001:DB8::1' })).body.data.ip).toBe('2001:db8::1');
    expect((await op.get(`/resellers/${id}/whitelist`)).body.data.whitelist.map((w: any) => w.ip).sort()).toEqual(['127.0.0.1', '2001:db8::1']);
    const key = (await op.post(`/resellers/${id}/api-keys`)).body.data;
    const api = new ResellerClient(t.baseUrl, key.api_key, key.api_secret);
    expect((await api.get('/balance')).status).toBe(200);

    const before = await accountState(t, id);
    expectJsonError(await op.post(`/resellers/${id}/whitelist`, { ip: '127.0.0.1' }), 409, 'CONFLICT');
    expectJsonError(await op.post(`/resellers/${id}/whitelist`, { ip: '10.0.0.0/8' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post(`/resellers/${id}/whitelist`, { ip: 'example.com' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.delete(`/resellers/${id}/whitelist/203.0.113.9`), 404, 'NOT_FOUND');
    expect(await accountState(t, id)).toEqual(before);

    expect((await op.delete(`/resellers/${id}/whitelist/2001%3Adb8%3A%3A1`)).body.data).toEqual({ ip: '2001:db8::1' });
    expect((await op.delete(`/resellers/${id}/whitelist/127.0.0.1`)).status).toBe(200);
    expectError(await api.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    expect((await audit(id)).map((l) => l.action)).toEqual([
      'reseller.whitelist_add', 'reseller.whitelist_add', 'reseller.api_key_issue', 'reseller.whitelist_remove', 'reseller.whitelist_remove',
    ]);
  });

  it('sets and clears the callback URL under the SSRF rules, with before and after in the audit log', async () => {
    const id = await newReseller();
    const before = await accountState(t, id);
    for (const bad of ['http://127.0.0.1/cb', 'http://[::1]/cb', 'http://10.1.2.3/cb', 'ftp://203.0.113.10/cb', 'not a url']) {
      expectJsonError(await op.put(`/resellers/${id}/callback-url`, { callback_url: bad }), 400, 'VALIDATION_ERROR');
    }
    expect(await accountState(t, id)).toEqual(before);
    expect(await audit(id)).toHaveLength(0);

    const set = await op.put(`/resellers/${id}/callback-url`, { callback_url: ' https://93.184.216.34/topup ', note: 'asked by phone' });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ callback_url: 'https://93.184.216.34/topup' });
    expect((await op.get(`/resellers/${id}`)).body.data.callback_url).toBe('https://93.184.216.34/topup');
    expect((await op.put(`/resellers/${id}/callback-url`, { callback_url: null })).body.data).toEqual({ callback_url: null });
    const lines = await audit(id);
    expect(lines.map((l) => [l.action, JSON.parse(l.before!), JSON.parse(l.after!), l.note])).toEqual([
      ['reseller.set_callback_url', { callback_url: null }, { callback_url: 'https://93.184.216.34/topup' }, 'asked by phone'],
      ['reseller.set_callback_url', { callback_url: 'https://93.184.216.34/topup' }, { callback_url: null }, null],
    ]);
  });

  it('answers NOT_FOUND for an unknown reseller on every route', async () => {
    const calls = [
      op.get('/resellers/nope/api-keys'), op.post('/resellers/nope/api-keys'), op.delete('/resellers/nope/api-keys/k'),
      op.get('/resellers/nope/whitelist'), op.post('/resellers/nope/whitelist', { ip: '1.2.3.4' }), op.delete('/resellers/nope/whitelist/1.2.3.4'),
      op.put('/resellers/nope/callback-url', { callback_url: null }),
    ];
    for (const r of await Promise.all(calls)) expectJsonError(r, 404, 'NOT_FOUND');
    // Another reseller's key is not found on this one.
    const a = await newReseller();
    const b = await newReseller();
    const key = (await op.post(`/resellers/${a}/api-keys`)).body.data;
    expectJsonError(await op.delete(`/resellers/${b}/api-keys/${key.id}`), 404, 'NOT_FOUND');
  });
});
