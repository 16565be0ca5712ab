import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectJsonError } from '../support/assertions.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { storeKinds } from '../support/stores.js';
import { eventually } from '../support/eventually.js';

const HOUR = 60 * 60_000;

describe.each(storeKinds())('forgot password, for shops and operators, with the link from the email (%s)', (kind) => {
  let t: TestApp;
  let now = Date.now();
  const smtp = new SmtpSink();

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(kind, {
      worker: true,
      env: { PUBLIC_BASE_URL: 'https://topup.example', SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@topup.example', SESSION_TTL_MINUTES: '43200' },
      overrides: { clock: { now: () => now } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  /** The token of the newest reset link emailed to `email`, after `count` emails arrived. */
  const linkIn = async (email: string, count: number, page: string) => {
    const mails = await eventually(() => smtp.to(email).length >= count && smtp.to(email), `reset email ${count}`);
    const m = new RegExp(`https://topup\\.example${page}\\?token=([A-Za-z0-9_-]+)`).exec(mails[count - 1]!.text);
    expect(m, mails[count - 1]!.text).not.toBeNull();
    return m![1]!;
  };

  it('a shop resets its password once with the emailed link; its sessions end; the link does not work twice', async () => {
    const shop = await registerAccount(t, 'Forgetful shop');
    expect((await shop.client.put('/me/language', { language: 'en' })).status).toBe(200);
    const api = dashboardClient(t);
    const asked = await api.post('/auth/forgot-password', { email: shop.email.toUpperCase() });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toEqual({ success: true, data: { accepted: true } });
    const token = await linkIn(shop.email, 1, '/dashboard/reset-password');
    expect(smtp.to(shop.email)[0]!.subject).toBe('Reset your password');
    // Stored only as its hash, and withheld from the console.
    const rows = await t.platform.database.db.selectFrom('password_resets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    const op = await operatorClient(t);
    const listed = ((await op.get('/messages')).body.data.messages as any[]).find((m) => m.to === shop.email && m.template === 'password_reset');
    expect((await op.get(`/messages/${listed.id}`)).body.data.text).not.toContain(token);

    expectJsonError(await api.post('/auth/reset-password', { token, password: 'short' }), 400, 'VALIDATION_ERROR');
    const done = await api.post('/auth/reset-password', { token, password: 'a brand new password' });
    expect(done.status, done.text).toBe(200);
    // The session it had ended; the new password works, the old one does not.
    expectJsonError(await shop.client.get('/me'), 401, 'UNAUTHENTICATED');
    expect((await dashboardClient(t).signIn(shop.email, 'a brand new password')).status).toBe(200);
    expectJsonError(await dashboardClient(t).post('/auth/sign-in', { email: shop.email, password: shop.password }), 401, 'INVALID_CREDENTIALS');
    // Single use.
    expectJsonError(await api.post('/auth/reset-password', { token, password: 'yet another password' }), 400, 'INVALID_RESET_TOKEN');
    // A shop's link is no operator's.
    expectJsonError(await new JsonClient(`${t.origin}/admin/v1`).post('/auth/reset-password', { token, password: 'yet another password' }), 400, 'INVALID_RESET_TOKEN');
  });

  it('a link expires after an hour, and a newer link supersedes an older one', async () => {
    const shop = await registerAccount(t, 'Slow shop');
    const api = dashboardClient(t);
    await api.post('/auth/forgot-password', { email: shop.email });
    const first = await linkIn(shop.email, 1, '/dashboard/reset-password');
    now += HOUR + 1;
    expectJsonError(await api.post('/auth/reset-password', { token: first, password: 'a brand new password' }), 400, 'INVALID_RESET_TOKEN');
    await api.post('/auth/forgot-password', { email: shop.email });
    const second = await linkIn(shop.email, 2, '/dashboard/reset-password');
    now += 1;
    await api.post('/auth/forgot-password', { email: shop.email });
    const third = await linkIn(shop.email, 3, '/dashboard/reset-password');
    expectJsonError(await api.post('/auth/reset-password', { token: second, password: 'a brand new password' }), 400, 'INVALID_RESET_TOKEN');
    expect((await api.post('/auth/reset-password', { token: third, password: 'a brand new password' })).status).toBe(200);
    expect((await dashboardClient(t).signIn(shop.email, shop.password)).status).toBe(401);
  });

  it('an operator resets through the console link; an unknown email gets the same answer and nothing is sent', async () => {
    const op = await operatorClient(t);
    const created = await t.platform.operator.operators.create(`reset-op-${kind}@example.com`, 'Reset operator');
    const signedIn = new JsonClient(`${t.origin}/admin/v1`);
    expect((await signedIn.signIn(created.email, created.password)).status).toBe(200);
    // The operator chooses Indonesian in its profile.
    expect((await signedIn.get('/me/language')).body.data).toEqual({ language: 'en' });
    expectJsonError(await signedIn.put('/me/language', { language: 'fr' }), 400, 'VALIDATION_ERROR');
    expect((await signedIn.put('/me/language', { language: 'id' })).body.data).toEqual({ language: 'id' });
    const admin = new JsonClient(`${t.origin}/admin/v1`);
    const known = await admin.post('/auth/forgot-password', { email: created.email });
    const unknown = await admin.post('/auth/forgot-password', { email: `nobody-${kind}@example.com` });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    const token = await linkIn(created.email, 1, '/admin/reset-password');
    expect(smtp.to(created.email)[0]!.subject).toBe('Atur ulang kata sandi Anda');
    expect((await admin.post('/auth/reset-password', { token, password: 'operator new password' })).status).toBe(200);
    expectJsonError(await signedIn.get('/me'), 401, 'UNAUTHENTICATED');
    expect((await new JsonClient(`${t.origin}/admin/v1`).signIn(created.email, 'operator new password')).status).toBe(200);
    // Nothing was written or sent for the unknown email.
    expect(smtp.to(`nobody-${kind}@example.com`)).toEqual([]);
    expect(((await op.get('/messages?limit=100')).body.data.messages as any[]).filter((m) => m.to === `nobody-${kind}@example.com`)).toEqual([]);
  });

  it('requests are throttled per email, for known and unknown emails alike', async () => {
    const api = dashboardClient(t);
    const email = `flood-${kind}@example.com`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await api.post('/auth/forgot-password', { email })).status);
    expect(answers).toEqual([202, 202, 202, 429]);
  });
});
