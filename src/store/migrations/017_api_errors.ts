import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * api_errors: the reseller API v1 requests refused lately, per reseller (the dashboard's
 * "Recent API errors"), written in batches off the request path (ApiErrorLog) and kept 7
 * days, at most 500 a reseller. No foreign key to resellers: a batch insert must not fail
 * or lock the reseller row that orders update.
 */
export function apiErrors(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const table = db.schema.createTable('api_errors');
      await (dialect === 'postgres' ? table.addColumn('id', 'bigserial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('reseller_id', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('http_status', 'integer', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .execute();
      // A reseller's newest first (the list, the per-reseller cap); by age (the 7-day prune).
      await db.schema.createIndex('api_errors_reseller').on('api_errors').columns(['reseller_id', 'id']).execute();
      await db.schema.createIndex('api_errors_at').on('api_errors').columns(['at']).execute();
    },
  };
}
