import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator accounts: list, own password, reset of another (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  // Sessions the test only needs are opened directly: sign-ins are the subject of other tests.
  const signIn = async (email: string, password: string) => {
    const c = new JsonClient(`${t.origin}/admin/v1`);
    return { c, r: await c.signIn(email, password) };
  };
  const session = async (operatorId: string) => new JsonClient(`${t.origin}/admin/v1`, (await t.platform.core.sessions.open('operator', operatorId)).token);
  const audit = (action: string) => t.platform.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  it('lists operators without password hashes', async () => {
    const op = await operatorClient(t);
    const extra = await t.platform.operator.operators.create('listed@example.com', 'Listed');
    const r = await op.get('/operators');
    expect(r.status, r.text).toBe(200);
    const emails = r.body.data.operators.map((o: any) => o.email);
    expect(emails).toContain('listed@example.com');
    expect(r.body.data.operators.find((o: any) => o.id === extra.id)).toEqual({ id: extra.id, email: 'listed@example.com', name: 'Listed', created_at: expect.any(String), disabled_at: null, roles: ['viewer'] });
    expect(r.text).not.toContain('scrypt');
  });

  it('changes the own password with the current one, ending the other sessions but not this one; audited', async () => {
    const o = await t.platform.operator.operators.create('changer@example.com', 'Changer');
    const a = { c: await session(o.id) };
    const b = { c: await session(o.id) };
    expectJsonError(await a.c.post('/me/password', { current_password: 'wrong password', new_password: 'a new password 1' }), 401, 'INVALID_CREDENTIALS');
    expectJsonError(await a.c.post('/me/password', { current_password: o.password, new_password: 'short' }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.c.post('/me/password', { current_password: o.password, new_password: o.password }), 400, 'VALIDATION_ERROR');
    expectJsonError(await a.c.post('/me/password', { current_password: o.password, new_password: 'a new password 1', extra: 1 }), 400, 'VALIDATION_ERROR');
    expect(await audit('operator.change_password')).toHaveLength(0);
    expect((await b.c.get('/me')).status).toBe(200);

    const r = await a.c.post('/me/password', { current_password: o.password, new_password: 'a new password 1' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ ok: true });
    expect((await a.c.get('/me')).status).toBe(200);
    expectJsonError(await b.c.get('/me'), 401, 'UNAUTHENTICATED');
    expectJsonError((await signIn(o.email, o.password)).r, 401, 'INVALID_CREDENTIALS');
    expect((await signIn(o.email, 'a new password 1')).r.status).toBe(200);
    const [line] = await audit('operator.change_password');
    expect(line).toMatchObject({ operator_id: o.id, target_kind: 'operator', target_id: o.id });
    expect(JSON.stringify(line)).not.toContain('a new password 1');
  });

  it('throttles wrong current passwords: past 10 a minute even the right one is refused', async () => {
    const o = await t.platform.operator.operators.create('guessed@example.com', 'Guessed');
    const c = await session(o.id);
    for (let i = 0; i < 10; i++) expectJsonError(await c.post('/me/password', { current_password: `wrong-${i}`, new_password: 'another long password' }), 401, 'INVALID_CREDENTIALS');
    const r = await c.post('/me/password', { current_password: o.password, new_password: 'another long password' });
    expectJsonError(r, 429, 'TOO_MANY_ATTEMPTS');
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    expect(await t.platform.core.hasher.verify(o.password, (await t.platform.core.repos.accounts.operatorPasswordHash(o.id))!)).toBe(true);
  });

  it("resets another operator's password: the new one is shown once, their sessions end, the reset is audited", async () => {
    const op = await operatorClient(t);
    const me = (await op.get('/me')).body.data.id as string;
    const o = await t.platform.operator.operators.create('locked-out@example.com', 'Locked out');
    const theirs = { c: await session(o.id) };

    expectJsonError(await op.post('/operators/nope/reset-password'), 404, 'NOT_FOUND');
    expectJsonError(await op.post(`/operators/${me}/reset-password`), 400, 'VALIDATION_ERROR');
    expectJsonError(await op.post(`/operators/${o.id}/reset-password`, { password: 'chosen' }), 400, 'VALIDATION_ERROR');
    expect((await theirs.c.get('/me')).status).toBe(200);

    const r = await op.post(`/operators/${o.id}/reset-password`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ id: o.id, email: o.email, password: expect.any(String) });
    const password = r.body.data.password as string;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expectJsonError(await theirs.c.get('/me'), 401, 'UNAUTHENTICATED');
    expectJsonError((await signIn(o.email, o.password)).r, 401, 'INVALID_CREDENTIALS');
    expect((await signIn(o.email, password)).r.status).toBe(200);
    const lines = await audit('operator.reset_password');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ operator_id: me, target_id: o.id });
    expect(JSON.stringify(lines)).not.toContain(password);
  });

  it('a reseller session cannot use these routes', async () => {
    const { token } = await t.platform.core.sessions.open('reseller', t.demo.resellerId);
    const c = new JsonClient(`${t.origin}/admin/v1`, token);
    expectJsonError(await c.get('/operators'), 401, 'UNAUTHENTICATED');
    expectJsonError(await c.post('/me/password', { current_password: 'x', new_password: 'long enough pw' }), 401, 'UNAUTHENTICATED');
  });
});
