import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import type { Notifier } from './notifier.js';
import type { Clock } from './ports.js';

const TOLD = 'low_balance:';

/**
 * A shop's balance below its own threshold (issue 40, issue 36 item 6): told once per
 * crossing. The scan (beside the operator alerts) remembers each shop told in alert_state
 * and forgets it once the balance is back at or above the threshold, so the next fall is
 * told again. A crossing is found by the next scan, not in the order's transaction: the
 * order path stays as fast as it is, and a balance that dips and recovers between two scans
 * is not worth an email.
 */
export class LowBalanceNotices {
  constructor(private readonly deps: { db: Kysely<DB>; notifier: Notifier; clock: Clock; money: (minor: number) => string }) {}

  /** The number of shops told now. */
  async run(): Promise<number> {
    const { db, notifier, clock, money } = this.deps;
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const low = await trx.selectFrom('resellers').select(['id', 'name', 'email', 'language', 'balance', 'low_balance_threshold'])
        .where('low_balance_threshold', 'is not', null).whereRef('balance', '<', 'low_balance_threshold').where('status', '=', 'active').execute();
      const told = new Map((await trx.selectFrom('alert_state').select(['key', 'value']).where('key', 'like', `${TOLD}%`).execute()).map((r) => [r.key.slice(TOLD.length), r.value]));
      const lowIds = new Set(low.map((r) => r.id));
      for (const id of told.keys()) if (!lowIds.has(id)) await trx.deleteFrom('alert_state').where('key', '=', TOLD + id).execute();
      let n = 0;
      for (const r of low) {
        if (told.has(r.id)) continue;
        await trx.insertInto('alert_state').values({ key: TOLD + r.id, value: String(now), updated_at: now }).onConflict((oc) => oc.column('key').doNothing()).execute();
        const sent = await notifier.send(trx, { kind: 'reseller', id: r.id, email: r.email, language: r.language }, `low_balance:${r.id}:${now}`, {
          template: 'low_balance', shopName: r.name, balance: money(Number(r.balance)), threshold: money(Number(r.low_balance_threshold)), link: notifier.link('/dashboard/wallet/top-up'),
        }, now);
        if (sent) n++;
      }
      return n;
    });
  }
}
