import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';
import { expectJsonError } from '../support/assertions.js';
import { approve, generateKey, registerAccount } from '../support/dashboard.js';

/**
 * A shop whose callbacks fail is told: the first round given up in a day at once, in the
 * transaction that records it; the rest of that day in one digest the next day.
 */
describe.each(storeKinds())('callbacks failing are told to the shop (%s)', (kind) => {
  let t: TestApp;
  let now = Date.UTC(2026, 10, 27, 1);
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 500 }));
    t = await startTestApp(kind, { env: { PUBLIC_BASE_URL: 'https://topup.example' }, overrides: { clock: { now: () => now } } });
    await t.platform.database.db.updateTable('resellers').set({ callback_url: rx.url, language: 'en' }).where('id', '=', t.demo.resellerId).execute();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
  });

  const messages = (resellerId = t.demo.resellerId) => t.platform.database.db.selectFrom('outbox_messages').selectAll().where('recipient_id', '=', resellerId).orderBy('created_at').execute();

  /** One order, fulfilled, its callback attempted four times (the worker's handlers, by hand). */
  async function failOneCallback(client = t.client): Promise<string> {
    const ref = uniqueRef();
    expect((await client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' }, { timestamp: String(now) })).status).toBe(200);
    const { id } = await t.platform.database.db.selectFrom('orders').select('id').where('ref_id', '=', ref).executeTakeFirstOrThrow();
    await t.platform.jobHandlers.fulfil_order!({ id: 0, kind: 'fulfil_order', payload: { orderId: id }, attempts: 0, runAt: now });
    const job = { id: 0, kind: 'deliver_callback', payload: { orderId: id }, attempts: 0, runAt: now };
    for (let i = 0; i < 4; i++) {
      await t.platform.jobHandlers.deliver_callback!(job);
      now += 60_000;
    }
    expect((await t.platform.callbacks.log(id))[0]).toMatchObject({ status: 'failed', attempts: 4 });
    return ref;
  }

  it('emails the first failure of the day at once, and sums up the day in one digest the next day', async () => {
    const first = await failOneCallback();
    let list = await messages();
    expect(list.map((m) => m.template)).toEqual(['callback_failed']);
    expect(list[0]!.subject).toBe('Demo Reseller: an order callback could not be delivered');
    expect(list[0]!.body_text).toContain(`(ref_id ${first}) failed 4 times and was given up: HTTP 500.`);
    expect(list[0]!.body_text).toMatch(/Open the order: https:\/\/topup\.example\/dashboard\/orders\/[0-9a-f-]{36}/);

    await failOneCallback();
    await failOneCallback();
    expect((await messages()).map((m) => m.template)).toEqual(['callback_failed']);

    // The same day's digest is not due yet; the next day it is, once.
    expect(await t.platform.callbackNotices.digest(now)).toBe(0);
    now = Date.UTC(2026, 10, 28, 0, 0, 5);
    expect(await t.platform.callbackNotices.digest(now)).toBe(1);
    expect(await t.platform.callbackNotices.digest(now + 60_000)).toBe(0);
    list = await messages();
    expect(list.map((m) => m.template)).toEqual(['callback_failed', 'callback_digest']);
    expect(list[1]!.subject).toBe('Demo Reseller: 3 order callbacks failed on 2026-11-27');

    // A new day: its first failure is told at once again.
    await failOneCallback();
    expect((await messages()).map((m) => m.template)).toEqual(['callback_failed', 'callback_digest', 'callback_failed']);
  });

  it('sends nothing optional to a shop that turned it off, and refuses a message that cannot be', async () => {
    const shop = await registerAccount(t);
    await approve(t, shop.id, { balance: 1_000_000 });
    await t.platform.database.db.updateTable('resellers').set({ callback_url: rx.url }).where('id', '=', shop.id).execute();
    await shop.client.post('/whitelist', { ip: '127.0.0.1' });
    const { api } = await generateKey(t, shop.client);
    expect((await shop.client.get('/me/notifications')).body.data).toEqual({ enabled: { callback_failed: true, callback_digest: true, deposit_credited: true, low_balance: true } });
    const off = await shop.client.put('/me/notifications', { enabled: { callback_failed: false } });
    expect(off.body.data).toEqual({ enabled: { callback_failed: false, callback_digest: true, deposit_credited: true, low_balance: true } });
    expectJsonError(await shop.client.put('/me/notifications', { enabled: { password_reset: false } }), 400, 'VALIDATION_ERROR');
    expectJsonError(await shop.client.put('/me/notifications', { enabled: { callback_digest: 'no' } }), 400, 'VALIDATION_ERROR');
    expect((await shop.client.get('/me/notifications')).body.data.enabled).toEqual({ callback_failed: false, callback_digest: true, deposit_credited: true, low_balance: true });

    await failOneCallback(api);
    expect(await messages(shop.id)).toEqual([]);
    await shop.client.put('/me/notifications', { enabled: { callback_failed: true } });
    await failOneCallback(api);
    expect((await messages(shop.id)).map((m) => m.template)).toEqual(['callback_failed']);
  });
});
