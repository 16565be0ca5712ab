import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * PostgreSQL: the dashboard's ref_id prefix search as an index range. The unique
 * (reseller_id, ref_id) index sorts by the database's collation, which need not keep a
 * prefix's matches together; under "C" (code point order) they are. SQLite's text order is
 * binary already, so its unique index serves the range as it is.
 */
export function ordersRefPrefix(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`create index orders_reseller_ref_c on orders (reseller_id, (ref_id collate "C"))`.execute(db);
    },
  };
}
