import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/** Callback delivery state and its log: one delivery per (order, round), one row per attempt. */
export function callbacks(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('callback_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey()) // the X-Callback-Id, stable across attempts
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('round', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull()) // pending, delivered, failed, skipped
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('callback_deliveries_order_round', ['order_id', 'round'])
        .execute();
      const attempts = db.schema.createTable('callback_attempts');
      await (dialect === 'postgres' ? attempts.addColumn('id', 'bigserial', (c) => c.primaryKey()) : attempts.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('callback_deliveries.id'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_snippet', 'text')
        .addUniqueConstraint('callback_attempts_once', ['delivery_id', 'attempt'])
        .execute();
    },
  };
}
