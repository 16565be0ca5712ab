import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectJsonError } from '../support/assertions.js';
import { registerAccount } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { storeKinds } from '../support/stores.js';
import { eventually } from '../support/eventually.js';

describe.each(storeKinds())('the outbox sends email over SMTP with retries (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let now = Date.now();
  const smtp = new SmtpSink();
  let n = 0;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(kind, {
      worker: true,
      env: { PUBLIC_BASE_URL: 'https://topup.example', SMTP_URL: smtp.url, SMTP_FROM: 'Topup <no-reply@topup.example>', SESSION_TTL_MINUTES: '43200' },
      overrides: { clock: { now: () => now } },
    });
    op = await operatorClient(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  const newShop = async (language: 'en' | 'id') => {
    const email = `shop-${kind}-${++n}@example.com`;
    const r = await op.post('/resellers', { name: `Toko ${n}`, email });
    expect(r.status, r.text).toBe(200);
    await t.platform.database.db.updateTable('resellers').set({ language }).where('id', '=', r.body.data.id).execute();
    return { id: r.body.data.id as string, email };
  };
  const messagesTo = async (email: string) => ((await op.get('/messages?limit=100')).body.data.messages as any[]).filter((m) => m.to === email);

  it('an approval reaches the shop once, in its language, with a link from the public base URL', async () => {
    const shop = await newShop('id');
    now += 1;
    expect((await op.post(`/resellers/${shop.id}/approve`, { tier: 'gold' })).status).toBe(200);
    const [mail] = await eventually(() => smtp.to(shop.email).length > 0 && smtp.to(shop.email), 'the approval email');
    expect(mail!.subject).toBe(`Toko Anda Toko ${n} telah disetujui`);
    expect(mail!.text).toContain('Buka dasbor: https://topup.example/dashboard/');
    expect(mail!.text).toContain('<a href="https://topup.example/dashboard/">');
    expect(mail!.raw).toMatch(/^From: Topup <no-reply@topup\.example>/m);
    const [m] = await eventually(async () => (await messagesTo(shop.email)).filter((x) => x.state === 'sent').length === 1 && messagesTo(shop.email), 'the message sent');
    expect(m).toMatchObject({ template: 'shop_status', recipient_kind: 'reseller', recipient_id: shop.id, language: 'id', state: 'sent', attempts: 1, error: null });
    expect(mail!.messageId).toBe(`<${m.id}@topup.example>`);

    // An English shop gets English.
    const en = await newShop('en');
    now += 1;
    await op.post(`/resellers/${en.id}/approve`, { tier: 'gold' });
    const [enMail] = await eventually(() => smtp.to(en.email).length > 0 && smtp.to(en.email), 'the English approval');
    expect(enMail!.subject).toBe(`Your shop Toko ${n} was approved`);
    // A refused change writes nothing.
    expectJsonError(await op.post(`/resellers/${en.id}/approve`, { tier: 'gold' }), 409, 'INVALID_STATE');
    expect(await messagesTo(en.email)).toHaveLength(1);
  });

  it('an SMTP outage delays the message and retries it with a growing wait; it arrives exactly once', async () => {
    const shop = await newShop('en');
    now += 1;
    await op.post(`/resellers/${shop.id}/approve`, { tier: 'gold' });
    await eventually(() => smtp.to(shop.email).length === 1, 'the approval');
    await smtp.stop();
    now += 1;
    expect((await op.post(`/resellers/${shop.id}/suspend`, {})).status).toBe(200);
    const failed = await eventually(async () => (await messagesTo(shop.email)).find((m) => m.template === 'shop_status' && m.attempts === 1 && m.state === 'pending'), 'a failed attempt');
    expect(failed.error).toMatch(/ECONNREFUSED|connect/i);
    // Not due before its wait: nothing is tried again while the clock stands still.
    t.platform.runner.wake();
    await new Promise((r) => setTimeout(r, 200));
    expect((await messagesTo(shop.email)).find((m) => m.id === failed.id)!.attempts).toBe(1);

    // The wait passes with the server still down: a second attempt fails, the wait grows.
    now += 30_001;
    t.platform.runner.wake();
    await eventually(async () => (await messagesTo(shop.email)).find((m) => m.id === failed.id)!.attempts === 2, 'the second attempt');
    const job = await t.platform.database.db.selectFrom('jobs').select(['run_at']).where('kind', '=', 'send_message').where('payload', 'like', `%${failed.id}%`).executeTakeFirstOrThrow();
    expect(Number(job.run_at)).toBe(now + 60_000);

    await smtp.start();
    now += 60_001;
    t.platform.runner.wake();
    await eventually(() => smtp.to(shop.email).length === 2, 'the suspension email after the outage');
    const sent = await eventually(async () => (await messagesTo(shop.email)).find((m) => m.id === failed.id && m.state === 'sent'), 'sent');
    expect(sent.attempts).toBe(3);
    expect(smtp.to(shop.email)[1]!.subject).toContain('suspended');
    // Nothing left to send, and nothing sent twice.
    now += 3_600_000;
    t.platform.runner.wake();
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.to(shop.email)).toHaveLength(2);
    expect(await t.platform.database.db.selectFrom('jobs').select('id').where('kind', '=', 'send_message').where('payload', 'like', `%${failed.id}%`).execute()).toEqual([]);
  });

  it('a registration reaches every active operator with a link to the shop; an invitation reaches the shop with its link', async () => {
    const ops = (await t.platform.operator.operators.list()).filter((o: { disabledAt: number | null }) => o.disabledAt === null);
    expect(ops.length).toBeGreaterThan(0);
    const shop = await registerAccount(t, 'Registered shop');
    for (const o of ops) {
      const [mail] = await eventually(() => smtp.to(o.email).find((m) => m.subject === 'New shop registered: Registered shop') && smtp.to(o.email).filter((m) => m.subject === 'New shop registered: Registered shop'), `the registration email to ${o.email}`);
      expect(mail!.text).toContain(`https://topup.example/admin/resellers/${shop.id}`);
      expect(mail!.text).toContain(shop.email);
    }

    const invited = await newShop('en');
    const inv = await op.post(`/resellers/${invited.id}/invitations`);
    expect(inv.status, inv.text).toBe(200);
    const [mail] = await eventually(() => smtp.to(invited.email).length > 0 && smtp.to(invited.email), 'the invitation email');
    expect(mail!.subject).toBe(`You are invited to the dashboard of Toko ${n}`);
    // The same link the operator was shown once.
    expect(mail!.text).toContain(inv.body.data.link);
  });

  it('a message is written at most once per event and recipient, in the transaction of its event', async () => {
    const { db } = t.platform.database;
    const before = await db.selectFrom('outbox_messages').select('id').execute();
    const to = { kind: 'reseller' as const, id: 'x', email: `dup-${kind}@example.com`, language: 'en' };
    const msg = { template: 'password_reset' as const, link: 'https://topup.example/x', expiresInMinutes: 60 };
    await db.transaction().execute(async (trx) => {
      expect(await t.platform.core.notifier.send(trx, to, 'test-event:1', msg, now)).toBe(true);
      expect(await t.platform.core.notifier.send(trx, to, 'test-event:1', msg, now)).toBe(false);
    });
    // An event whose transaction rolls back leaves no message.
    await expect(db.transaction().execute(async (trx) => {
      await t.platform.core.notifier.send(trx, to, 'test-event:2', msg, now);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    const rows = await db.selectFrom('outbox_messages').selectAll().where('to_address', '=', to.email).execute();
    expect(rows).toHaveLength(1);
    expect((await db.selectFrom('outbox_messages').select('id').execute()).length).toBe(before.length + 1);
    await eventually(() => smtp.to(to.email).length === 1, 'the one message');
  });
});

describe.each(storeKinds())('without SMTP settings messages are kept for the operator (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true, env: { PUBLIC_BASE_URL: 'https://topup.example' } });
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('a message is kept with its body readable in the console, and resending is audited', async () => {
    const email = `kept-${kind}@example.com`;
    const r = await op.post('/resellers', { name: 'Kept shop', email });
    await op.post(`/resellers/${r.body.data.id}/approve`, { tier: 'gold' });
    const m = await eventually(async () => ((await op.get('/messages?state=kept')).body.data.messages as any[]).find((x) => x.to === email), 'a kept message');
    expect(m).toMatchObject({ subject: 'Your shop Kept shop was approved', state: 'kept', attempts: 0 });
    const one = await op.get(`/messages/${m.id}`);
    expect(one.body.data.text).toContain('Open the dashboard: https://topup.example/dashboard/');
    const again = await op.post(`/messages/${m.id}/resend`);
    expect(again.status, again.text).toBe(200);
    await eventually(async () => (await op.get(`/messages/${m.id}`)).body.data.state === 'kept', 'kept again');
    const audit = await t.platform.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'message.resend').where('target_id', '=', m.id).execute();
    expect(audit).toHaveLength(1);
    expectJsonError(await op.post('/messages/nope/resend'), 404, 'NOT_FOUND');
    expectJsonError(await op.get('/messages?state=lost'), 400, 'VALIDATION_ERROR');
  });
});
