import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export interface ApiErrorRow {
  resellerId: string;
  at: number;
  method: string;
  path: string;
  httpStatus: number;
  error: string;
  message: string;
  ip: string;
  requestId: string;
}

/** The store side of the recent API errors (migration 017). */
export class ApiErrorsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** A batch in statements of at most 1,000 rows (9,000 parameters: under SQLite's and PostgreSQL's limits). */
  async insertMany(rows: ApiErrorRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 1000) {
      await this.db
        .insertInto('api_errors')
        .values(rows.slice(i, i + 1000).map((r) => ({ reseller_id: r.resellerId, at: r.at, method: r.method, path: r.path, http_status: r.httpStatus, error: r.error, message: r.message, ip: r.ip, request_id: r.requestId })))
        .execute();
    }
  }

  /** A reseller's rows since `since`, newest first, within its newest `cap`; and how many that is. */
  async list(resellerId: string, since: number, cap: number, page: { limit: number; offset: number }) {
    const newest = this.db.selectFrom('api_errors').where('reseller_id', '=', resellerId).where('at', '>=', since);
    const [rows, count] = await Promise.all([
      newest.selectAll().orderBy('id', 'desc').limit(Math.max(0, Math.min(page.limit, cap - page.offset))).offset(page.offset).execute(),
      this.db.selectFrom(newest.select('id').orderBy('id', 'desc').limit(cap).as('capped')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Deletes rows older than `before`, and of each given reseller all but its newest `cap`. */
  async prune(before: number, resellerIds: string[], cap: number): Promise<void> {
    await this.db.deleteFrom('api_errors').where('at', '<', before).execute();
    for (const id of resellerIds) {
      const edge = this.db.selectFrom('api_errors').select('id').where('reseller_id', '=', id).orderBy('id', 'desc').limit(1).offset(cap - 1);
      await this.db.deleteFrom('api_errors').where('reseller_id', '=', id).where('id', '<', sql<number>`(${edge})`).execute();
    }
  }
}
