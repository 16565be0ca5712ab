import { sql, type Kysely } from 'kysely';

/**
 * Operator alerts (issue 40): what the alert scan told, where the next scan must remember
 * it (a supplier's gate told closed, so that its re-opening is told once). Its own table:
 * a system_state write would invalidate the catalog cache. And an index of the callbacks
 * given up, for the shops' daily digest.
 */
export const alertState = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('alert_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The daily digest of callbacks given up reads only these rows (few, next to the delivered).
    await sql`create index callback_deliveries_failed on callback_deliveries (updated_at) where status = 'failed'`.execute(db);
  },
};
