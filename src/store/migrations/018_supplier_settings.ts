import type { Kysely } from 'kysely';

/**
 * Settings a real supplier needs (issue 27, Digiflazz): per route, the adapter's options
 * (how target and zone form the supplier's customer number, testing mode) as JSON; per
 * supplier, its deposit as last read, the operator's low-deposit threshold, and when the
 * supplier was flagged for a low or insufficient deposit (null: not flagged). Amounts are
 * minor units of the platform currency.
 */
export const supplierSettings = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('product_routes').addColumn('options', 'text').execute();
    await db.schema.alterTable('suppliers').addColumn('balance', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_checked_at', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_threshold', 'bigint').execute();
    await db.schema.alterTable('suppliers').addColumn('balance_flagged_at', 'bigint').execute();
  },
};
