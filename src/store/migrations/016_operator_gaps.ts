import type { Kysely } from 'kysely';

/**
 * Reseller invitations (a one-time link where an operator-made reseller sets its password:
 * the token is stored as its sha256 only) and the last supply refresh's times. The latter
 * has a table of its own, not system_state: every system_state write invalidates the
 * catalog cache of every process, and a refresh runs every SUPPLY_REFRESH_MS.
 */
export const operatorGaps = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('reseller_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text', (c) => c.notNull()) // operator id, or "cli"
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('reseller_invitations_reseller').on('reseller_invitations').columns(['reseller_id', 'created_at']).execute();

    await db.schema
      .createTable('supply_refresh')
      .addColumn('name', 'text', (c) => c.primaryKey()) // 'last'
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint', (c) => c.notNull())
      .addColumn('availability_check_failed', 'integer', (c) => c.notNull())
      .execute();
  },
};
