import { describe, expect, it } from 'vitest';
import { dueAlerts, type AlertSnapshot, type SupplierState } from '../../src/domain/operator-alerts.js';
import { parseConfig } from '../../src/config.js';

const settings = { attentionCount: 5, unmatchedAfterMs: 3_600_000 };
const sup = (o: Partial<SupplierState> = {}): SupplierState => ({
  id: 's1', name: 'S1', enabled: true, balance: 'IDR 10', threshold: 'IDR 100', balanceFlaggedAt: null, breaker: 'closed', breakerSince: null, breakerReason: null, ...o,
});
const snap = (o: Partial<AlertSnapshot> = {}): AlertSnapshot => ({ suppliers: [sup()], openAttention: 0, unmatched: { count: 0, oldestAt: null }, ...o });
const keys = (r: ReturnType<typeof dueAlerts>) => r.alerts.map((a) => a.key);

describe('dueAlerts: one alert per episode', () => {
  it('names a low deposit by when it was flagged; a disabled supplier is not told', () => {
    expect(keys(dueAlerts(snap({ suppliers: [sup({ balanceFlaggedAt: 7 })] }), new Map(), settings, 100))).toEqual(['supplier_balance_low:s1:7']);
    expect(keys(dueAlerts(snap({ suppliers: [sup({ balanceFlaggedAt: 7, enabled: false })] }), new Map(), settings, 100))).toEqual([]);
  });

  it('tells a gate closed once, holds through half-open and re-opening, and tells it closed again only after it closed fully', () => {
    const open = dueAlerts(snap({ suppliers: [sup({ breaker: 'open', breakerSince: 5, breakerReason: 'maintenance' })] }), new Map(), settings, 100);
    expect(keys(open)).toEqual(['supplier_gate_closed:s1:5']);
    expect(open.toldClosed).toEqual(new Map([['s1', 5]]));
    const halfOpen = dueAlerts(snap({ suppliers: [sup({ breaker: 'half_open', breakerSince: 50 })] }), open.toldClosed, settings, 200);
    expect(keys(halfOpen)).toEqual([]);
    const reopenedOnFailedProbe = dueAlerts(snap({ suppliers: [sup({ breaker: 'open', breakerSince: 60 })] }), halfOpen.toldClosed, settings, 300);
    expect(keys(reopenedOnFailedProbe)).toEqual([]);
    const closed = dueAlerts(snap(), reopenedOnFailedProbe.toldClosed, settings, 400);
    expect(keys(closed)).toEqual(['supplier_gate_reopened:s1:5']);
    expect(closed.toldClosed.size).toBe(0);
    // Disabled while told closed: forgotten without telling re-opened; gone from the store: forgotten.
    expect(dueAlerts(snap({ suppliers: [sup({ enabled: false })] }), new Map([['s1', 5]]), settings, 500)).toEqual({ alerts: [], toldClosed: new Map() });
    expect(dueAlerts(snap({ suppliers: [] }), new Map([['s1', 5]]), settings, 500).toldClosed.size).toBe(0);
  });

  it('tells attention piling up once a day from the configured count, and unmatched money past its age', () => {
    expect(keys(dueAlerts(snap({ openAttention: 4 }), new Map(), settings, 0))).toEqual([]);
    expect(keys(dueAlerts(snap({ openAttention: 5 }), new Map(), settings, 86_400_000 * 3 + 5))).toEqual(['attention_piling:3']);
    expect(keys(dueAlerts(snap({ openAttention: 5 }), new Map(), { ...settings, attentionCount: 0 }, 0))).toEqual([]);
    expect(keys(dueAlerts(snap({ unmatched: { count: 2, oldestAt: 1_000 } }), new Map(), settings, 1_000 + 3_599_999))).toEqual([]);
    const due = dueAlerts(snap({ unmatched: { count: 2, oldestAt: 1_000 } }), new Map(), settings, 1_000 + 3_600_000);
    expect(due.alerts).toEqual([{ key: 'deposits_unmatched:1000', kind: 'deposits_unmatched', params: { count: 2, minutes: 60 }, path: '/admin/deposits' }]);
  });
});

describe('Telegram settings', () => {
  const base = { NODE_ENV: 'test', DATABASE_URL: 'sqlite:/tmp/x.db', MASTER_KEY: 'ab'.repeat(32) };
  it('takes the token and chat together, and says what is wrong with either', () => {
    expect(parseConfig({ ...base }).alerts.telegram).toBeNull();
    expect(parseConfig({ ...base, TELEGRAM_BOT_TOKEN: '1:abc', TELEGRAM_CHAT_ID: '-100' }).alerts.telegram).toEqual({ apiUrl: 'https://api.telegram.org', botToken: '1:abc', chatId: '-100', language: 'en' });
    expect(() => parseConfig({ ...base, TELEGRAM_BOT_TOKEN: '1:abc' })).toThrow(/TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID together/);
    expect(() => parseConfig({ ...base, TELEGRAM_BOT_TOKEN: 'nope', TELEGRAM_CHAT_ID: 'x' })).toThrow(/BotFather[\s\S]*TELEGRAM_CHAT_ID must be/);
  });
});
