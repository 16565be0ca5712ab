import type { Kysely } from 'kysely';

/**
 * Idempotency-Key of operator money changes (wallet credit and debit, manual refund). A
 * row is written in the transaction of the change it guards, so the primary key (scope,
 * key) lets one change through when the same key arrives twice at once; `response` is the
 * answer kept for replays. Rows older than 24 hours are expired (deleted after the next keyed change).
 */
export const idempotencyKeys = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('idem_key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('response', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'idem_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
  },
};
