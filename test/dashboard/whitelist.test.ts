import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { accountState, approve, expectDeclared, generateKey, registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('dashboard IP whitelist (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('adds addresses in canonical form, lists them, and refuses duplicates, ranges and non-addresses', async () => {
    const a = await registerAccount(t);
    const cases: [string, string][] = [['::FFFF:1.2.3.4', '1.2.3.4'], ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'], [' 203.0.113.7 ', '203.0.113.7']];
    for (const [input, canonical] of cases) {
      const r = await a.client.post('/whitelist', { ip: input });
      expectDeclared(t, 'POST', '/whitelist', r);
      expect(r.body.data.ip).toBe(canonical);
    }
    const list = await a.client.get('/whitelist');
    expectDeclared(t, 'GET', '/whitelist', list);
    expect(list.body.data.whitelist.map((w: any) => w.ip).sort()).toEqual(['1.2.3.4', '2001:db8::1', '203.0.113.7']);
    expect((await a.client.get('/me')).body.data.whitelist.sort()).toEqual(['1.2.3.4', '2001:db8::1', '203.0.113.7']);

    const before = await accountState(t, a.id);
    expectJsonError(await a.client.post('/whitelist', { ip: '1.2.3.4' }), 409, 'CONFLICT');
    expectJsonError(await a.client.post('/whitelist', { ip: '::ffff:102:304' }), 409, 'CONFLICT');
    for (const bad of ['10.0.0.0/8', '256.1.1.1', 'example.com', 'fe80::1%eth0', '0.0.0.0', '::', '']) {
      const r = await a.client.post('/whitelist', { ip: bad });
      expectJsonError(r, 400, 'VALIDATION_ERROR');
    }
    expect((await a.client.post('/whitelist', { ip: '10.0.0.0/8' })).body.message).toContain('CIDR');
    expectJsonError(await a.client.post('/whitelist', { ip: '1.1.1.1', note: 'x' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.post('/whitelist', { ip: 12 }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.client.delete('/whitelist/198.51.100.1'), 404, 'NOT_FOUND');
    expectJsonError(await a.client.delete('/whitelist/nonsense'), 400, 'VALIDATION_ERROR');
    expect(await accountState(t, a.id)).toEqual(before);

    const del = await a.client.delete(`/whitelist/${encodeURIComponent('2001:DB8::1')}`);
    expectDeclared(t, 'DELETE', '/whitelist/{ip}', del);
    expect(del.body.data.ip).toBe('2001:db8::1');
    expect((await a.client.get('/whitelist')).body.data.whitelist.map((w: any) => w.ip).sort()).toEqual(['1.2.3.4', '203.0.113.7']);
  });

  it('changes apply to API v1 at once: removing 127.0.0.1 and ::1 gives IP_NOT_WHITELISTED, adding them back lets it in', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    const { api } = await generateKey(t, a.client);
    expectError(await api.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    await a.client.post('/whitelist', { ip: '::1' });
    expect((await api.get('/balance')).status).toBe(200);
    expect((await a.client.delete('/whitelist/127.0.0.1')).status).toBe(200);
    expect((await a.client.delete(`/whitelist/${encodeURIComponent('::1')}`)).status).toBe(200);
    expectError(await api.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    await a.client.post('/whitelist', { ip: '127.0.0.1' });
    expect((await api.get('/balance')).status).toBe(200);
  });

  it('a second reseller neither sees nor removes the first one\'s addresses', async () => {
    const a = await registerAccount(t);
    const b = await registerAccount(t);
    await a.client.post('/whitelist', { ip: '192.0.2.10' });
    expect((await b.client.get('/whitelist')).body.data.whitelist).toEqual([]);
    const before = await accountState(t, a.id);
    expectJsonError(await b.client.delete('/whitelist/192.0.2.10'), 404, 'NOT_FOUND');
    // The same address on both accounts is allowed and independent.
    expect((await b.client.post('/whitelist', { ip: '192.0.2.10' })).status).toBe(200);
    expect((await b.client.delete('/whitelist/192.0.2.10')).status).toBe(200);
    expect(await accountState(t, a.id)).toEqual(before);
  });
});
