import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export interface JobGauge {
  kind: string;
  /** Due and free to claim. */
  ready: number;
  /** Held under a live lease (running, or waiting in a runner for its group's slot). */
  running: number;
  /** run_at of the oldest ready job, or null when none is ready. */
  oldestDueAt: number | null;
}

export interface ScrapeReads {
  jobs: JobGauge[];
  /** Sum of every reseller's balance, minor units. */
  balanceSum: number;
  /** Processing orders flagged for a person. */
  attention: number;
}

/**
 * What a metrics scrape reads from the store, each bounded by something other than the
 * number of orders: the jobs table holds only what is left to do (finished jobs are
 * deleted), resellers is small, and the attention count seeks the
 * (reseller_id, status, …) index once per reseller.
 */
export class MetricsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async read(now: number): Promise<ScrapeReads> {
    const [jobs, balance, attention] = await Promise.all([
      this.db
        .selectFrom('jobs')
        .select([
          'kind',
          sql<number | string>`sum(case when run_at <= ${now} and (locked_until is null or locked_until < ${now}) then 1 else 0 end)`.as('ready'),
          sql<number | string>`sum(case when locked_until >= ${now} then 1 else 0 end)`.as('running'),
          sql<number | string | null>`min(case when run_at <= ${now} and (locked_until is null or locked_until < ${now}) then run_at end)`.as('oldest'),
        ])
        .groupBy('kind')
        .execute(),
      this.db.selectFrom('resellers').select(sql<number | string | null>`sum(balance)`.as('s')).executeTakeFirst(),
      this.db
        .selectFrom('orders')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('reseller_id', 'in', (eb) => eb.selectFrom('resellers').select('id'))
        .where('status', '=', 'processing')
        .where('needs_attention', '=', 1)
        .executeTakeFirst(),
    ]);
    return {
      jobs: jobs.map((r) => ({ kind: r.kind, ready: Number(r.ready), running: Number(r.running), oldestDueAt: r.oldest == null ? null : Number(r.oldest) })),
      balanceSum: Number(balance?.s ?? 0),
      attention: Number(attention?.n ?? 0),
    };
  }
}
