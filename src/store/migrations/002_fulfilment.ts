import type { Kysely } from 'kysely';

/**
 * Fulfilment state: which supplier an order is in flight at (written before we submit, so
 * a crash is followed by a status query, never a blind second order), supplier health for
 * the gate, and the sandbox upstream's own durable memory of references.
 */
export const fulfilment = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('orders').addColumn('supplier_id', 'text').execute();
    await db.schema.alterTable('orders').addColumn('supplier_sku', 'text').execute();
    await db.schema.alterTable('orders').addColumn('routes_tried', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // Set when fulfilment cannot reach a definite answer in time: an operator must look.
    await db.schema.alterTable('orders').addColumn('needs_attention', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('orders').addColumn('checker_verified', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable('supplier_health')
      .addColumn('supplier_id', 'text', (c) => c.primaryKey().references('suppliers.id'))
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sandbox_orders')
      .addColumn('reference', 'text', (c) => c.primaryKey())
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('submissions', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('ready_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    // Live availability per route, refreshed in the background; null = not known yet.
    await db.schema.alterTable('product_routes').addColumn('available', 'integer').execute();
    await db.schema.alterTable('product_routes').addColumn('checked_at', 'bigint').execute();

    // Small shared switches and facts: the sandbox's operator controls, whether the last
    // availability refresh could run.
    await db.schema
      .createTable('system_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
