import type { Kysely } from 'kysely';

/**
 * Settings of the store itself, one text value per key: the master key's sealed sentinel
 * (src/store/master-key-sentinel.ts), written once and read at every start, so a process
 * whose master key cannot open this store's secrets refuses to start. A table of its own,
 * not system_state: a system_state write invalidates the catalog cache.
 */
export const storeSettings = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('store_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
