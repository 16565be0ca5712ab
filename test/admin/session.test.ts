import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator sessions (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('the first operator is created once, signs in, and the token authenticates', async () => {
    const first = await t.platform.operator.operators.ensureFirst();
    expect(first?.email).toBe('admin@localhost');
    expect(await t.platform.operator.operators.ensureFirst()).toBeNull();
    const c = new JsonClient(`${t.origin}/admin/v1`);
    const r = await c.signIn(first!.email, first!.password);
    expect(r.status).toBe(200);
    expect(r.body.data.token).toMatch(/^ops_/);
    const me = await c.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('admin@localhost');
  });

  it('refuses wrong passwords, unknown emails, missing and unknown tokens alike', async () => {
    const c = new JsonClient(`${t.origin}/admin/v1`);
    expectJsonError(await c.post('/auth/sign-in', { email: 'admin@localhost', password: 'nope' }), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await c.post('/auth/sign-in', { email: 'nobody@example.com', password: 'nope' }), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await c.get('/me'), 401, 'UNAUTHENTICATED');
    c.token = 'ops_forged';
    expectJsonError(await c.get('/me'), 401, 'UNAUTHENTICATED');
  });

  it('validates bodies by name and never answers a client mistake with a 500', async () => {
    const c = new JsonClient(`${t.origin}/admin/v1`);
    const unknown = await c.post('/auth/sign-in', { email: 'a@b.c', password: 'x', role: 'root' });
    expectJsonError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.message).toContain("unknown field 'role'");
    const missing = await c.post('/auth/sign-in', { email: 'a@b.c' });
    expectJsonError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.message).toContain('password is required');
    expectJsonError(await c.post('/auth/sign-in', '{not json'), 400, 'VALIDATION_ERROR');
    expectJsonError(await c.request('POST', '/auth/sign-in', 'email=a', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'INVALID_CONTENT_TYPE');
  });

  it('sign-out ends the session at once; a reseller session cannot use the operator API', async () => {
    const c = await operatorClient(t);
    expect((await c.post('/auth/sign-out')).status).toBe(200);
    expectJsonError(await c.get('/me'), 401, 'UNAUTHENTICATED');

    const { token } = await t.platform.core.sessions.open('reseller', t.demo.resellerId);
    const asReseller = new JsonClient(`${t.origin}/admin/v1`, token);
    expectJsonError(await asReseller.get('/me'), 401, 'UNAUTHENTICATED');
  });

  it('operators add operators; the new one signs in with the password shown once', async () => {
    const c = await operatorClient(t);
    const r = await c.post('/operators', { email: 'Second@Example.com', name: 'Second' });
    expect(r.status).toBe(200);
    expect(r.body.data.email).toBe('second@example.com');
    const second = new JsonClient(`${t.origin}/admin/v1`);
    expect((await second.signIn('second@example.com', r.body.data.password)).status).toBe(200);
    expectJsonError(await c.post('/operators', { email: 'second@example.com', name: 'Again' }), 409, 'CONFLICT');
  });
});

describe.each(storeKinds())('session housekeeping (%s)', (kind) => {
  let t: TestApp;
  let now = Date.now();
  beforeAll(async () => {
    t = await startTestApp(kind, { overrides: { clock: { now: () => now } } });
  });
  afterAll(async () => t?.close());

  it("a sign-in removes the subject's expired sessions, so the table stays bounded", async () => {
    const sessions = t.platform.core.sessions;
    const rows = () => t.platform.database.db.selectFrom('sessions').select('expires_at').where('subject_id', '=', t.demo.resellerId).execute();
    await sessions.open('reseller', t.demo.resellerId);
    await sessions.open('reseller', t.demo.resellerId);
    expect(await rows()).toHaveLength(2);
    now += t.platform.config.sessionTtlMs + 1; // both expire
    const fresh = await sessions.open('reseller', t.demo.resellerId);
    const left = await rows();
    expect(left).toHaveLength(1);
    expect(Number(left[0]!.expires_at)).toBe(fresh.expiresAt);
  });
});
