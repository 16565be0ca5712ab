import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { FakeTelegram } from '../support/fake-telegram.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';
import { SupplyRepo } from '../../src/store/supply-repo.js';
import { SupplierBreakerRepo } from '../../src/store/supplier-breaker-repo.js';

const TOKEN = '123456:test-bot-token-AAA';

/**
 * Operator alerts: a supplier's deposit below its threshold, its gate closed and re-opened,
 * attention items piling up, each told once per episode, by email to the operators whose
 * roles can act on it and to the Telegram chat, however often the scan runs.
 */
describe.each(storeKinds())('operator alerts by email and Telegram (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let now = Date.UTC(2026, 10, 27, 3);
  const telegram = new FakeTelegram();
  const emails: Record<string, string> = {};

  beforeAll(async () => {
    recordSecret('telegram bot token', TOKEN);
    await telegram.start();
    t = await startTestApp(kind, {
      worker: true,
      env: {
        PUBLIC_BASE_URL: 'https://topup.example', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: '-1001234567890', TELEGRAM_API_URL: telegram.url,
        TELEGRAM_LANGUAGE: 'id', ALERT_SCAN_SECONDS: '0', ALERT_ATTENTION_COUNT: '2', SESSION_TTL_MINUTES: '43200',
      },
      overrides: { clock: { now: () => now } },
    });
    op = await operatorClient(t);
    for (const role of ['finance', 'catalog', 'viewer'] as const) {
      emails[role] = (await t.platform.operator.operators.create(`${role}-${kind}@example.com`, role, undefined, [role])).email;
    }
    await t.platform.database.db.insertInto('suppliers').values({ id: 'dg', name: 'Digi', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: now, balance_threshold: 1_000_000 }).execute();
  });
  afterAll(async () => {
    await t?.close();
    await telegram.stop();
  });

  const alerts = async () => ((await op.get('/messages?limit=100')).body.data.messages as any[]).filter((m) => m.template === 'operator_alert');
  const to = (list: any[], email: string) => list.filter((m) => m.to === email).map((m) => m.subject as string);
  const scan = async () => {
    now += 1_000;
    return t.platform.operatorAlerts.run();
  };

  it("tells a supplier's low deposit once per crossing, to owner and finance and the chat", async () => {
    const supply = new SupplyRepo(t.platform.database.db);
    await supply.recordBalance('dg', 500_000, now);
    await scan();
    await scan();
    const list = await alerts();
    const subject = 'Supplier Digi: deposit below its threshold';
    expect(to(list, emails.finance!)).toEqual([subject]);
    expect(list.filter((m) => m.subject === subject && m.recipient_kind === 'operator')).toHaveLength(2); // the owner and finance
    expect(to(list, emails.viewer!)).toEqual([]);
    expect(to(list, emails.catalog!)).toEqual([]);
    const [chat] = await eventually(() => telegram.received.length > 0 && telegram.received, 'the Telegram message');
    expect(chat).toMatchObject({ token: TOKEN, chatId: '-1001234567890' });
    expect(chat!.text).toContain('Pemasok Digi: deposit di bawah ambang');
    expect(chat!.text).toContain('IDR 500,000');
    expect(chat!.text).toContain('https://topup.example/admin/supply');
    await eventually(async () => (await alerts()).some((m) => m.recipient_kind === 'telegram' && m.state === 'sent'), 'the chat message marked sent');

    // Back above the threshold, then below again: a new episode, told again.
    await supply.recordBalance('dg', 2_000_000, now);
    await scan();
    expect(to(await alerts(), emails.finance!)).toHaveLength(1);
    await supply.recordBalance('dg', 100, now);
    await scan();
    expect(to(await alerts(), emails.finance!)).toHaveLength(2);
  });

  it("tells a closed gate once, however often it re-opens on a failed probe, and its re-opening once", async () => {
    const breaker = new SupplierBreakerRepo(t.platform.database.db, { failuresToOpen: 3, cooldownMs: 60_000, probeOrders: 1 });
    await breaker.open('dg', 'supplier maintenance', now);
    await scan();
    now += 120_000;
    await breaker.open('dg', 'supplier maintenance', now);
    await scan();
    const closed = to(await alerts(), emails.catalog!);
    expect(closed).toEqual(['Supplier Digi stopped taking orders']);
    expect(to(await alerts(), emails.finance!).filter((s) => s.includes('stopped'))).toEqual([]);

    expect((await op.post('/suppliers/dg/breaker/reset', {})).status).toBe(200);
    await scan();
    await scan();
    expect(to(await alerts(), emails.catalog!)).toEqual(['Supplier Digi takes orders again', 'Supplier Digi stopped taking orders']);
  });

  it('tells attention items piling up once a day while they stay', async () => {
    const db = t.platform.database.db;
    for (const i of [1, 2]) {
      await db.insertInto('attention_items').values({ id: `a-${kind}-${i}`, kind: 'below_cost', target_kind: 'product', target_id: 'ML-86', summary: 's', details: null, created_at: now, resolved_at: null, resolved_by: null }).execute();
    }
    // The owner turned operator alerts off: only the catalog operator is told.
    expect((await op.put('/me/notifications', { enabled: { operator_alert: false } })).body.data.enabled).toEqual({ shop_registered: true, operator_alert: false });
    await scan();
    await scan();
    expect(to(await alerts(), emails.catalog!).filter((s) => s.includes('attention'))).toEqual(['2 things wait for attention']);
    expect((await alerts()).filter((m) => m.recipient_kind === 'operator' && m.subject.includes('attention'))).toHaveLength(1);
    await op.put('/me/notifications', { enabled: { operator_alert: true } });
    now += 86_400_000;
    await scan();
    expect(to(await alerts(), emails.catalog!).filter((s) => s.includes('attention'))).toHaveLength(2);
  });

  it('tells deposit money unmatched past its hour once, to owner and finance', async () => {
    const db = t.platform.database.db;
    await db.insertInto('bank_accounts').values({ id: `ba-${kind}`, bank: 'BCA', number: '123', holder: 'PT X', active: 1, statement_mapping: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('bank_mutations').values({
      id: `m-${kind}`, bank_account_id: `ba-${kind}`, identity: 'x1', source: 'webhook', booked_on: '2026-11-27', description: 'TRF', amount: 77_000, direction: 'CR',
      state: 'unmatched', deposit_id: null, actor: null, note: null, created_at: now, updated_at: now,
    } as never).execute();
    await scan();
    expect(to(await alerts(), emails.finance!).filter((s) => s.includes('unmatched'))).toEqual([]);
    now += 61 * 60_000;
    await scan();
    await scan();
    expect(to(await alerts(), emails.finance!).filter((s) => s.includes('unmatched'))).toEqual(['Deposit money unmatched for 61 minutes']);
    expect(to(await alerts(), emails.catalog!).filter((s) => s.includes('unmatched'))).toEqual([]);
  });

  it("keeps the bot token out of a refused message's error", async () => {
    telegram.failWith = { status: 401, description: 'Unauthorized' };
    await t.platform.database.db.updateTable('suppliers').set({ balance_flagged_at: null }).where('id', '=', 'dg').execute();
    await new SupplyRepo(t.platform.database.db).recordBalance('dg', 5, now);
    await scan();
    const m = await eventually(async () => (await alerts()).find((x) => x.recipient_kind === 'telegram' && x.state === 'pending' && x.error), 'a refused chat message');
    expect(m.error).toBe('Telegram answered 401: Unauthorized');
    expect(JSON.stringify(await alerts())).not.toContain(TOKEN);
    telegram.failWith = null;
  });
});
