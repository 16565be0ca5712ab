import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { accountState, approve, expectDeclared, generateKey, registerAccount, type Account } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

const HOUR = 3_600_000;

describe.each(storeKinds())('dashboard API keys (%s)', (kind) => {
  let t: TestApp;
  // The platform clock, moved forward to cross the rotation overlap.
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const at = () => ({ timestamp: String(clock.now()) });

  beforeAll(async () => {
    t = await startTestApp(kind, { overrides: { clock } });
  });
  afterAll(async () => t?.close());

  async function activeAccount(): Promise<Account> {
    const a = await registerAccount(t);
    await approve(t, a.id);
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    return a;
  }

  it('a pending account cannot generate keys (the operator approves first); nothing is stored', async () => {
    const a = await registerAccount(t);
    const before = await accountState(t, a.id);
    expectJsonError(await a.client.post('/api-keys', {}), 409, 'INVALID_STATE');
    await t.platform.repos.resellers.setStatus(a.id, 'suspended', Date.now());
    expectJsonError(await a.client.post('/api-keys', {}), 409, 'INVALID_STATE');
    expect((await accountState(t, a.id)).keys).toEqual([]);
    expect(before.keys).toEqual([]);
  });

  it('the secret is in the generation response only, stored sealed, and the key signs API v1 requests', async () => {
    const a = await activeAccount();
    const { id, response, api } = await generateKey(t, a.client);
    expectDeclared(t, 'POST', '/api-keys', response);
    const { api_key: apiKey, api_secret: apiSecret } = response.body.data;
    expect(apiKey).toMatch(/^tk_[0-9a-f]{32}$/);
    expect(apiSecret).toMatch(/^ts_/);
    // A first key ends no other: nothing to say when previous keys stop.
    expect(response.body.data.previous_keys_revoked_at).toBeNull();

    const row = await t.platform.database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(apiSecret);
    expect(row.secret_enc).toMatch(/^v1\./);
    expect(t.platform.secrets.open(row.secret_enc)).toBe(apiSecret);

    const list = await a.client.get('/api-keys');
    expectDeclared(t, 'GET', '/api-keys', list);
    const me = await a.client.get('/me');
    for (const r of [list, me]) {
      expect(r.text).not.toContain(apiSecret);
      expect(r.text).not.toContain(apiKey);
    }
    expect(list.body.data.api_keys).toEqual([
      { id, api_key: `${apiKey.slice(0, 7)}…${apiKey.slice(-4)}`, state: 'live', created_at: expect.any(String), revoked_at: null },
    ]);
    expect(me.body.data.api_keys).toEqual(list.body.data.api_keys);

    const bal = await api.get('/balance', at());
    expect(bal.status, bal.text).toBe(200);
  });

  it('rotation: the previous key keeps working for 24 hours, then INVALID_API_KEY', async () => {
    const a = await activeAccount();
    const old = await generateKey(t, a.client);
    const fresh = await generateKey(t, a.client);
    const rotatedAt = Date.parse(fresh.response.body.data.created_at);
    expect(Date.parse(fresh.response.body.data.previous_keys_revoked_at) - rotatedAt).toBe(24 * HOUR);

    const list = (await a.client.get('/api-keys')).body.data.api_keys;
    expect(list.map((k: any) => [k.id, k.state])).toEqual([[fresh.id, 'live'], [old.id, 'expiring']]);

    try {
      expect((await old.api.get('/balance', at())).status).toBe(200);
      offset = 23 * HOUR;
      expect((await old.api.get('/balance', at())).status).toBe(200);
      offset = 24 * HOUR + 60_000;
      expectError(await old.api.get('/balance', at()), 401, 'INVALID_API_KEY');
      expect((await fresh.api.get('/balance', at())).status).toBe(200);
      // The 12-hour session has expired by now on the moved clock: sign in again.
      expectJsonError(await a.client.get('/api-keys'), 401, 'UNAUTHENTICATED');
      expect((await a.client.signIn(a.email, a.password)).status).toBe(200);
      expect((await a.client.get('/api-keys')).body.data.api_keys.map((k: any) => k.state)).toEqual(['live', 'revoked']);
    } finally {
      offset = 0;
    }
  });

  it('rotation with revoke_previous "now" stops the previous keys at once, also one already expiring', async () => {
    const a = await activeAccount();
    const first = await generateKey(t, a.client);
    const second = await generateKey(t, a.client);
    const third = await generateKey(t, a.client, { revoke_previous: 'now' });
    expectError(await first.api.get('/balance', at()), 401, 'INVALID_API_KEY');
    expectError(await second.api.get('/balance', at()), 401, 'INVALID_API_KEY');
    expect((await third.api.get('/balance', at())).status).toBe(200);
    expect((await a.client.get('/api-keys')).body.data.api_keys.map((k: any) => k.state)).toEqual(['live', 'revoked', 'revoked']);
    expectJsonError(await a.client.post('/api-keys', { revoke_previous: 'later' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/api-keys', { label: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it('revoking a key stops it at once, even inside its overlap; revoking again is refused', async () => {
    const a = await activeAccount();
    const old = await generateKey(t, a.client);
    const fresh = await generateKey(t, a.client);
    const r = await a.client.delete(`/api-keys/${old.id}`);
    expectDeclared(t, 'DELETE', '/api-keys/{id}', r);
    expectError(await old.api.get('/balance', at()), 401, 'INVALID_API_KEY');
    expect((await fresh.api.get('/balance', at())).status).toBe(200);

    const before = await accountState(t, a.id);
    expectJsonError(await a.client.delete(`/api-keys/${old.id}`), 409, 'INVALID_STATE');
    expectJsonError(await a.client.delete('/api-keys/00000000-0000-0000-0000-000000000000'), 404, 'NOT_FOUND');
    expect(await accountState(t, a.id)).toEqual(before);

    expect((await a.client.delete(`/api-keys/${fresh.id}`)).status).toBe(200);
    expectError(await fresh.api.get('/balance', at()), 401, 'INVALID_API_KEY');
  });

  it('at most five keys are live at once', async () => {
    const a = await activeAccount();
    for (let i = 0; i < 5; i++) await generateKey(t, a.client);
    const before = await accountState(t, a.id);
    expectJsonError(await a.client.post('/api-keys', {}), 409, 'INVALID_STATE');
    expect(await accountState(t, a.id)).toEqual(before);
    await generateKey(t, a.client, { revoke_previous: 'now' });
  });

  it('a second reseller can neither list nor revoke the first one\'s keys, and rotating its own leaves them alone', async () => {
    const a = await activeAccount();
    const b = await activeAccount();
    const keyA = await generateKey(t, a.client);
    expect((await b.client.get('/api-keys')).body.data.api_keys).toEqual([]);
    const before = await accountState(t, a.id);
    const r = await b.client.delete(`/api-keys/${keyA.id}`);
    expectJsonError(r, 404, 'NOT_FOUND');
    await generateKey(t, b.client, { revoke_previous: 'now' });
    expect(await accountState(t, a.id)).toEqual(before);
    expect((await keyA.api.get('/balance', at())).status).toBe(200);
  });
});
