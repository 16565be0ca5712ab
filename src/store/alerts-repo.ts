import { sql } from 'kysely';
import type { AlertSnapshot } from '../domain/operator-alerts.js';
import type { Executor } from './jobs-repo.js';

const GATE_PREFIX = 'gate_closed:';

/** The operator-alert scan's reads and its memory (migration 040). */
export class AlertsRepo {
  constructor(private readonly db: Executor) {}

  /** Every supplier's deposit and gate, and what waits for an operator (index reads only). */
  async snapshot(money: (minor: number) => string): Promise<AlertSnapshot> {
    const suppliers = await this.db
      .selectFrom('suppliers as s')
      .leftJoin('supplier_health as h', 'h.supplier_id', 's.id')
      .select(['s.id', 's.name', 's.enabled', 's.balance', 's.balance_threshold', 's.balance_flagged_at', 'h.breaker', 'h.breaker_since', 'h.breaker_reason'])
      .orderBy('s.id')
      .execute();
    // orders_flagged is a partial index of exactly these rows.
    const flagged = await this.db.selectFrom('orders').select(sql<number | string>`count(*)`.as('n')).where('needs_attention', '=', 1).executeTakeFirst();
    const items = await this.db.selectFrom('attention_items').select(sql<number | string>`count(*)`.as('n')).where('resolved_at', 'is', null).executeTakeFirst();
    const unmatched = await this.db.selectFrom('bank_mutations').select([sql<number | string>`count(*)`.as('n'), sql<number | string | null>`min(created_at)`.as('oldest')])
      .where('state', '=', 'unmatched').executeTakeFirst();
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      suppliers: suppliers.map((s) => ({
        id: s.id, name: s.name, enabled: Number(s.enabled) === 1,
        balance: s.balance === null ? null : money(Number(s.balance)), threshold: s.balance_threshold === null ? null : money(Number(s.balance_threshold)),
        balanceFlaggedAt: num(s.balance_flagged_at), breaker: s.breaker ?? 'closed', breakerSince: num(s.breaker_since), breakerReason: s.breaker_reason ?? null,
      })),
      openAttention: Number(flagged?.n ?? 0) + Number(items?.n ?? 0),
      unmatched: { count: Number(unmatched?.n ?? 0), oldestAt: num(unmatched?.oldest) },
    };
  }

  /** The gates told closed and not yet told re-opened: supplier id → the closing's time. */
  async toldClosed(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('alert_state').select(['key', 'value']).where('key', 'like', `${GATE_PREFIX}%`).execute();
    return new Map(rows.map((r) => [r.key.slice(GATE_PREFIX.length), Number(r.value)]));
  }

  async saveToldClosed(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>, now: number): Promise<void> {
    for (const id of before.keys()) if (!after.has(id)) await this.db.deleteFrom('alert_state').where('key', '=', GATE_PREFIX + id).execute();
    for (const [id, since] of after) {
      if (before.get(id) === since) continue;
      await this.db.insertInto('alert_state').values({ key: GATE_PREFIX + id, value: String(since), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(since), updated_at: now })).execute();
    }
  }
}
