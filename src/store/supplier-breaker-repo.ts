import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { breakerReason, DEFAULT_BREAKER, type BreakerSettings, type BreakerState } from '../domain/supplier-breaker.js';
import type { DB } from './schema.js';

/** The gate's condition on a joined health row `h`: a supplier whose breaker is open takes no orders. */
export const breakerAdmits = sql<boolean>`coalesce(h.breaker, 'closed') <> 'open'`;

const col = (c: string) => sql.ref(`supplier_health.${c}`);

/**
 * The supplier circuit breaker in the store (src/domain/supplier-breaker.ts): one row per
 * supplier, shared by every process. Each change is one conditional statement, so workers
 * reporting at once never lose a transition or make it twice.
 */
export class SupplierBreakerRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: BreakerSettings = DEFAULT_BREAKER,
  ) {}

  /**
   * A transport failure or unknown outcome: one more in a row. Enough of them open a closed
   * breaker; any of them re-opens a half-open one. Either way for a cool-down.
   */
  async failed(supplierId: string, error: string | null, now: number) {
    const { failuresToOpen: n, cooldownMs } = this.settings;
    const opens = sql<boolean>`(${col('breaker')} = 'half_open' or (${col('breaker')} = 'closed' and ${col('consecutive_failures')} + 1 >= ${n}))`;
    const opened = n <= 1;
    await this.db
      .insertInto('supplier_health')
      .values({
        supplier_id: supplierId, consecutive_failures: 1, last_error: error, updated_at: now,
        ...(opened ? { breaker: 'open', breaker_reason: breakerReason.failures(n, error), breaker_since: now, breaker_retry_at: now + cooldownMs } : {}),
      })
      .onConflict((oc) => oc.column('supplier_id').doUpdateSet((eb) => ({
        consecutive_failures: eb('supplier_health.consecutive_failures', '+', 1),
        last_error: error,
        updated_at: now,
        breaker: sql<string>`case when ${opens} then 'open' else ${col('breaker')} end`,
        breaker_reason: sql<string>`case when ${col('breaker')} = 'half_open' then ${breakerReason.probeOrderFailed(error)} when ${opens} then ${breakerReason.failures(n, error)} else ${col('breaker_reason')} end`,
        breaker_since: sql<number>`case when ${opens} then ${now} else ${col('breaker_since')} end`,
        breaker_retry_at: sql<number>`case when ${opens} then ${now + cooldownMs} else ${col('breaker_retry_at')} end`,
      })))
      .execute();
  }

  /**
   * A definite answer to a real order: the run of failures ends, and a half-open breaker
   * counts one probe answered (enough of them close it). Nothing written for a healthy row.
   */
  async answered(supplierId: string, now: number) {
    const closes = sql<boolean>`(breaker = 'half_open' and probe_answers + 1 >= ${this.settings.probeOrders})`;
    await this.db
      .updateTable('supplier_health')
      .set({
        consecutive_failures: 0, last_error: null, updated_at: now,
        probe_answers: sql<number>`case when breaker = 'half_open' then probe_answers + 1 else probe_answers end`,
        breaker_reason: sql<string>`case when ${closes} then ${breakerReason.closed(this.settings.probeOrders)} else breaker_reason end`,
        breaker_since: sql<number>`case when ${closes} then ${now} else breaker_since end`,
        breaker: sql<string>`case when ${closes} then 'closed' else breaker end`,
      })
      .where('supplier_id', '=', supplierId)
      .where((eb) => eb.or([eb('consecutive_failures', '<>', 0), eb('last_error', 'is not', null), eb('breaker', '=', 'half_open')]))
      .execute();
  }

  /** The health check answered: the run of failures ends; the breaker waits for its own probe. */
  async healthy(supplierId: string, now: number) {
    await this.db
      .updateTable('supplier_health')
      .set({ consecutive_failures: 0, last_error: null, updated_at: now })
      .where('supplier_id', '=', supplierId)
      .where((eb) => eb.or([eb('consecutive_failures', '<>', 0), eb('last_error', 'is not', null)]))
      .execute();
  }

  /**
   * The supplier's own word (maintenance): open at once, for a cool-down like any other
   * opening; an open breaker keeps its `since` (said again at every refresh).
   */
  async open(supplierId: string, reason: string, now: number) {
    const opened = { last_error: reason, updated_at: now, breaker: 'open', breaker_reason: reason, breaker_retry_at: now + this.settings.cooldownMs, probe_orders: 0, probe_answers: 0 };
    await this.db
      .insertInto('supplier_health')
      .values({ supplier_id: supplierId, consecutive_failures: this.settings.failuresToOpen, breaker_since: now, ...opened })
      .onConflict((oc) => oc.column('supplier_id').doUpdateSet({
        consecutive_failures: this.settings.failuresToOpen, ...opened,
        breaker_since: sql<number>`case when ${col('breaker')} = 'open' then ${col('breaker_since')} else ${now} end`,
      }))
      .execute();
  }

  /**
   * May a new order be sent to this supplier now? Closed: yes. Half-open: while probe slots
   * are left, each taken by one statement (so all workers together send at most that many).
   */
  async admit(supplierId: string, state: BreakerState): Promise<boolean> {
    if (state === 'closed') return true;
    if (state === 'open') return false;
    const r = await this.db
      .updateTable('supplier_health')
      .set((eb) => ({ probe_orders: eb('probe_orders', '+', 1) }))
      .where('supplier_id', '=', supplierId)
      .where('breaker', '=', 'half_open')
      .where('probe_orders', '<', this.settings.probeOrders)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * Which breakers a probe is due for: open past the cool-down, or half-open with every
   * probe slot taken and no verdict for a whole cool-down (a worker that took a slot died
   * before its order was answered: the breaker must not wait for it for ever).
   */
  private dueNow(now: number) {
    return (eb: ExpressionBuilder<DB, 'supplier_health'>) => eb.or([
      eb.and([eb('breaker', '=', 'open'), eb('breaker_retry_at', '<=', now)]),
      eb.and([eb('breaker', '=', 'half_open'), eb('probe_orders', '>=', this.settings.probeOrders), eb('breaker_since', '<=', now - this.settings.cooldownMs)]),
    ]);
  }

  /** Enabled suppliers whose breaker is due for a probe. */
  async due(now: number): Promise<{ supplierId: string; adapter: string }[]> {
    const rows = await this.db
      .selectFrom('supplier_health')
      .innerJoin('suppliers as s', 's.id', 'supplier_health.supplier_id')
      .select(['s.id', 's.adapter'])
      .where(this.dueNow(now) as never)
      .where('s.enabled', '=', 1)
      .execute();
    return rows.map((r) => ({ supplierId: r.id, adapter: r.adapter }));
  }

  /** The probe's balance call answered: half-open, with fresh probe slots (one process wins). */
  async halfOpen(supplierId: string, now: number) {
    await this.db
      .updateTable('supplier_health')
      .set({ breaker: 'half_open', breaker_reason: breakerReason.halfOpen(this.settings.probeOrders), breaker_since: now, breaker_retry_at: null, probe_orders: 0, probe_answers: 0, consecutive_failures: 0, last_error: null, updated_at: now })
      .where('supplier_id', '=', supplierId)
      .where(this.dueNow(now))
      .execute();
  }

  /** The probe failed: open (again) for another cool-down. */
  async reopen(supplierId: string, reason: string, now: number) {
    await this.db
      .updateTable('supplier_health')
      .set({
        breaker: 'open', breaker_reason: reason, breaker_retry_at: now + this.settings.cooldownMs, last_error: reason, updated_at: now,
        breaker_since: sql<number>`case when breaker = 'open' then breaker_since else ${now} end`,
      })
      .where('supplier_id', '=', supplierId)
      .where(this.dueNow(now))
      .execute();
  }

  /** The operator's reset: closed, the run of failures forgotten. */
  async reset(supplierId: string, now: number) {
    const closed = { consecutive_failures: 0, last_error: null, updated_at: now, breaker: 'closed', breaker_reason: breakerReason.reset, breaker_since: now, breaker_retry_at: null, probe_orders: 0, probe_answers: 0 };
    await this.db
      .insertInto('supplier_health')
      .values({ supplier_id: supplierId, ...closed })
      .onConflict((oc) => oc.column('supplier_id').doUpdateSet(closed))
      .execute();
  }
}
