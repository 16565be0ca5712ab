import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * People behind the APIs: operator accounts, reseller dashboard passwords, sign-in sessions
 * (by token hash, never the token) and the operator audit log.
 */
export function accounts(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('operators')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .execute();

      // Null until the reseller registers through the dashboard (seeded/CLI-made accounts may have none).
      await db.schema.alterTable('resellers').addColumn('password_hash', 'text').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey()) // sha256 of the bearer token
        .addColumn('subject_kind', 'text', (c) => c.notNull()) // operator | reseller
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_subject').on('sessions').columns(['subject_kind', 'subject_id']).execute();

      const audit = db.schema.createTable('audit_log');
      await (dialect === 'postgres' ? audit.addColumn('id', 'bigserial', (c) => c.primaryKey()) : audit.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('operator_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull()) // e.g. reseller.approve, wallet.credit, order.refund
        .addColumn('target_kind', 'text', (c) => c.notNull()) // reseller, order, product, …
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('before', 'text') // JSON, null when the target did not exist
        .addColumn('after', 'text') // JSON, null when the target was removed
        .addColumn('note', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_target').on('audit_log').columns(['target_kind', 'target_id', 'id']).execute();
      await db.schema.createIndex('audit_operator').on('audit_log').columns(['operator_id', 'id']).execute();
    },
  };
}
