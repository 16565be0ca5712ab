import { sql, type Kysely } from 'kysely';

/**
 * Notifications (issue 40), second part:
 * - alert_state: what the operator-alert scan told and the next scan must remember (a
 *   supplier's gate told closed, so that its re-opening is told once); a table of its own,
 *   as a system_state write would invalidate the catalog cache;
 * - an index of the callback rounds given up, for the shops' daily digest;
 * - each person's optional messages turned off (muted_messages).
 */
export const notificationSettings = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('alert_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The daily digest of callbacks given up reads only these rows (few, next to the delivered).
    await sql`create index callback_deliveries_failed on callback_deliveries (updated_at) where status = 'failed'`.execute(db);
    // The optional messages each person turned off: a JSON array of template names.
    await db.schema.alterTable('resellers').addColumn('muted_messages', 'text', (c) => c.notNull().defaultTo('[]')).execute();
    await db.schema.alterTable('operators').addColumn('muted_messages', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  },
};
