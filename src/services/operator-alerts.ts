import type { Kysely } from 'kysely';
import { ALERT_ROLES, dueAlerts, type AlertSettings } from '../domain/operator-alerts.js';
import { AlertsRepo } from '../store/alerts-repo.js';
import type { DB } from '../store/schema.js';
import type { Notifier } from './notifier.js';
import type { Clock } from './ports.js';

/**
 * The operator-alert scan (every ALERT_SCAN_MS): reads the suppliers' deposits and gates and
 * what waits for an operator, and writes the alerts due to the outbox (email to the
 * operators whose roles can act on each, and the Telegram chat if one is set), with what it
 * must remember, in one transaction. Each alert's key is its episode, so a scan repeated
 * (by a second server, or after a crash before the commit) tells nothing twice.
 */
export class OperatorAlerts {
  constructor(private readonly deps: {
    db: Kysely<DB>; notifier: Notifier; clock: Clock; money: (minor: number) => string;
    settings: AlertSettings; chat: { id: string; language: string } | null;
  }) {}

  /** The number of alerts due (one told before is not written again). */
  async run(): Promise<number> {
    const { db, notifier, clock, money, settings, chat } = this.deps;
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const repo = new AlertsRepo(trx);
      const before = await repo.toldClosed();
      const { alerts, toldClosed } = dueAlerts(await repo.snapshot(money), before, settings, now);
      for (const a of alerts) {
        const message = { template: 'operator_alert' as const, alert: a.kind, params: a.params, link: notifier.link(a.path) };
        await notifier.toOperators(trx, `alert:${a.key}`, message, now, ALERT_ROLES[a.kind]);
        if (chat) await notifier.toChat(trx, chat, `alert:${a.key}`, message, now);
      }
      await repo.saveToldClosed(before, toldClosed, now);
      return alerts.length;
    });
  }
}
