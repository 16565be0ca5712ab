import type { Kysely } from 'kysely';

/**
 * The supplier reference of the order's attempt in flight (src/domain/supplier-reference.ts).
 * Null: the order id itself (the first attempt, and every order placed before this column).
 * Written with the route in flight, before the submission, so a rerun asks about it.
 */
export const supplierRef = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('orders').addColumn('supplier_ref', 'text').execute();
  },
};
