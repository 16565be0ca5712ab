import type { Kysely } from 'kysely';

/**
 * Settings a real supplier needs (issue 27, Digiflazz): per route, the adapter's options
 * (how target and zone form the supplier's customer number, testing mode) as JSON; per
 * supplier, its deposit as last read, the operator's low-deposit threshold, and when the
 * supplier was flagged for a low or insufficient deposit (null: not flagged). Amounts are
 * minor units of the platform currency; `supplier_skus` holds each supplier's price list
 * as of its last sync.
 */
export const supplierSettings = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('product_routes').addColumn('options', 'text').execute();
    await db.schema.alterTable('suppliers').addColumn('balance', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_checked_at', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_threshold', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_flagged_at', 'bigint').execute();
    // A supplier's price list as of its last sync (issue 27 item 3): cost in minor units.
    await db.schema
      .createTable('supplier_skus')
      .addColumn('supplier_id', 'text', (c) => c.notNull().references('suppliers.id'))
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('brand', 'text', (c) => c.notNull())
      .addColumn('cost', 'bigint', (c) => c.notNull())
      .addColumn('buyable', 'integer', (c) => c.notNull())
      .addColumn('cut_off', 'text')
      .addColumn('synced_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('supplier_skus_pk', ['supplier_id', 'sku'])
      .execute();
  },
};
