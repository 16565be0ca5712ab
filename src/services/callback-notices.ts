import type { Kysely } from 'kysely';
import { orderCode } from '../domain/order.js';
import type { Executor } from '../store/jobs-repo.js';
import type { DB } from '../store/schema.js';
import type { Notifier } from './notifier.js';

const DAY_MS = 86_400_000;
const utcDay = (at: number) => new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * Telling a shop its callbacks fail (issue 40): the first callback given up in a UTC day is
 * emailed at once, in the transaction that records it; the others of that day are summed
 * up in one email the next day. Keys per shop and day keep both to one email each.
 */
export class CallbackNotices {
  constructor(private readonly deps: { db: Kysely<DB>; notifier: Notifier }) {}

  /** A round given up (its last attempt failed), inside the transaction that records it. */
  async gaveUp(db: Executor, f: { resellerId: string; orderId: string; refId: string; error: string }, now: number): Promise<void> {
    const shop = await db.selectFrom('resellers').select(['name', 'email', 'language']).where('id', '=', f.resellerId).executeTakeFirst();
    if (!shop) return;
    const { notifier } = this.deps;
    await notifier.send(db, { kind: 'reseller', id: f.resellerId, email: shop.email, language: shop.language }, `callback_failed:${f.resellerId}:${utcDay(now)}`, {
      template: 'callback_failed', shopName: shop.name, orderCode: orderCode(f.orderId), refId: f.refId, error: f.error,
      link: notifier.link(`/dashboard/orders/${encodeURIComponent(f.orderId)}`),
    }, now);
  }

  /** Yesterday's digest for every shop that had more than its first failure (idempotent). */
  async digest(now: number): Promise<number> {
    const { db, notifier } = this.deps;
    const end = Math.floor(now / DAY_MS) * DAY_MS;
    const day = utcDay(end - DAY_MS);
    // callback_deliveries_failed is a partial index of exactly the failed rounds.
    const rows = await db
      .selectFrom('callback_deliveries as d')
      .innerJoin('resellers as r', 'r.id', 'd.reseller_id')
      .select(['d.reseller_id', 'r.name', 'r.email', 'r.language', (eb) => eb.fn.countAll<number>().as('n')])
      .where('d.status', '=', 'failed')
      .where('d.updated_at', '>=', end - DAY_MS)
      .where('d.updated_at', '<', end)
      .groupBy(['d.reseller_id', 'r.name', 'r.email', 'r.language'])
      .execute();
    let told = 0;
    for (const r of rows) {
      if (Number(r.n) < 2) continue;
      const sent = await notifier.send(db, { kind: 'reseller', id: r.reseller_id, email: r.email, language: r.language }, `callback_digest:${r.reseller_id}:${day}`, {
        template: 'callback_digest', shopName: r.name, count: Number(r.n), day, link: notifier.link('/dashboard/settings/callback-url'),
      }, now);
      if (sent) told++;
    }
    return told;
  }
}
