import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { setCookie, steppingClock } from '../support/two-factor.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Issue 37 item 4: each person's sessions and sign-in history; an owner ends another operator's sessions. */
describe.each(storeKinds())('sessions and sign-in history (%s)', (kind) => {
  let t: TestApp;
  const clock = steppingClock();
  beforeAll(async () => {
    t = await startTestApp(kind, { overrides: { clock } });
  });
  afterAll(async () => t?.close());

  /** Signs in like a browser with this User-Agent (and device cookie); answers the client and the device cookie set. */
  const signIn = async (api: 'admin' | 'dashboard', who: { email: string; password: string }, userAgent: string, device?: string) => {
    clock.advance(1000); // each sign-in a moment after the last, so the newest-first order is defined
    const c = new JsonClient(`${t.origin}/${api}/v1`);
    const cookieName = api === 'admin' ? 'topup_admin_device' : 'topup_dashboard_device';
    const r = await c.request('POST', '/auth/sign-in', { email: who.email, password: who.password }, { 'user-agent': userAgent, ...(device ? { cookie: `${cookieName}=${device}` } : {}) });
    expect(r.status, r.text).toBe(200);
    c.token = r.body.data.token;
    return { client: c, device: setCookie(r.headers, cookieName) ?? device };
  };
  const newSignInMails = async (to: string) => (await t.platform.database.db.selectFrom('outbox_messages').select(['subject', 'body_text']).where('template', '=', 'new_sign_in').where('to_address', '=', to).execute());

  it('lists your sessions with device, address and last use; you end one; new devices are recorded and emailed', async () => {
    const owner = (await t.platform.operator.operators.ensureFirst())!;
    const first = await signIn('admin', owner, CHROME_WINDOWS);
    expect(first.device).toMatch(/^[\w-]{20,}$/);
    // The very first device is no news.
    expect(await newSignInMails(owner.email)).toEqual([]);
    const phone = await signIn('admin', owner, SAFARI_IPHONE);
    const mails = await newSignInMails(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('New sign-in to your account');
    expect(mails[0]!.body_text).toContain('Safari on iPhone');
    expect(mails[0]!.body_text).toContain('/admin/security');
    // The same browser again (its device cookie): recorded, not emailed.
    await signIn('admin', owner, CHROME_WINDOWS, first.device!);
    expect(await newSignInMails(owner.email)).toHaveLength(1);

    const history = (await first.client.get('/auth/sign-ins')).body.data.sign_ins as any[];
    expect(history.map((h) => [h.device, h.new_device])).toEqual([['Chrome on Windows', false], ['Safari on iPhone', true], ['Chrome on Windows', true]]);
    expect(history[0].ip).toBe('127.0.0.1');

    clock.advance(5 * 60_000);
    expect((await phone.client.get('/me')).status).toBe(200);
    const list = (await first.client.get('/auth/sessions')).body.data.sessions as any[];
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list[0]).toMatchObject({ device: 'Safari on iPhone', ip: '127.0.0.1', current: false, last_used_at: new Date(clock.now()).toISOString() });
    expect(list.find((s) => s.current).device).toBe('Chrome on Windows');

    expect((await first.client.delete(`/auth/sessions/${list[0].id}`)).status).toBe(200);
    expectJsonError(await phone.client.get('/me'), 401, 'UNAUTHENTICATED');
    expectJsonError(await first.client.delete(`/auth/sessions/${list[0].id}`), 404, 'NOT_FOUND');
    expect((await first.client.get('/auth/sessions')).body.data.sessions).toHaveLength(2);

    // A script keeps no cookie: its first sign-in is a new device, the same address and
    // User-Agent again is not (no email each time it runs).
    await signIn('admin', owner, 'curl/8.5.0');
    await signIn('admin', owner, 'curl/8.5.0');
    expect(await newSignInMails(owner.email)).toHaveLength(2);
    const latest = (await first.client.get('/auth/sign-ins')).body.data.sign_ins as any[];
    expect(latest.slice(0, 2).map((h) => [h.device, h.new_device])).toEqual([['curl', false], ['curl', true]]);
  });

  it("an owner sees and ends another operator's sessions (audited); nobody ends a session not theirs by id", async () => {
    const owner = (await t.platform.operator.operators.ensureFirst()) ?? null;
    const ownerClient = owner ? (await signIn('admin', owner, CHROME_WINDOWS)).client : await (async () => {
      const o = await t.platform.operator.operators.create(`owner-${Date.now()}@example.com`, 'Owner', undefined, ['owner']);
      return (await signIn('admin', o, CHROME_WINDOWS)).client;
    })();
    const support = await t.platform.operator.operators.create(`support-${Date.now()}@example.com`, 'Support', undefined, ['support']);
    const s = await signIn('admin', support, SAFARI_IPHONE);
    const theirs = (await ownerClient.get(`/operators/${support.id}/sessions`)).body.data.sessions as any[];
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ device: 'Safari on iPhone', current: false });
    // By id, only your own: the owner's DELETE /auth/sessions/{id} does not reach it.
    expectJsonError(await ownerClient.delete(`/auth/sessions/${theirs[0].id}`), 404, 'NOT_FOUND');
    expectJsonError(await s.client.delete(`/operators/${support.id}/sessions`), 403, 'FORBIDDEN_ROLE');
    expect((await ownerClient.delete(`/operators/${support.id}/sessions`)).body.data).toEqual({ ended: 1 });
    expectJsonError(await s.client.get('/me'), 401, 'UNAUTHENTICATED');
    const { entries } = await t.platform.core.repos.audit.list({ targetId: support.id, limit: 10, offset: 0 });
    expect(entries.map((e) => e.action)).toContain('operator.end_sessions');
    expectJsonError(await ownerClient.get('/operators/no-such-operator/sessions'), 404, 'NOT_FOUND');
  });

  it('a shop sees its sessions and sign-ins and ends one', async () => {
    const a = await registerAccount(t);
    const one = await signIn('dashboard', a, CHROME_WINDOWS);
    const two = await signIn('dashboard', a, SAFARI_IPHONE);
    const list = (await one.client.get('/auth/sessions')).body.data.sessions as any[];
    // Registration's session has no device (it was not a sign-in) but is listed.
    expect(list).toHaveLength(3);
    const other = list.find((s) => s.device === 'Safari on iPhone');
    expect((await one.client.delete(`/auth/sessions/${other.id}`)).status).toBe(200);
    expectJsonError(await two.client.get('/me'), 401, 'UNAUTHENTICATED');
    expect(((await dashboardClient(t, one.client.token).get('/auth/sign-ins')).body.data.sign_ins as any[]).map((h) => h.device)).toEqual(['Safari on iPhone', 'Chrome on Windows']);
    expect(await newSignInMails(a.email)).toHaveLength(1);
  });
});
