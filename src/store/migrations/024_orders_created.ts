import type { Kysely } from 'kysely';

/**
 * The operator's order search across resellers, newest first: without this index every
 * page sorted the whole orders table. created_at only grows, so inserts land on the
 * index's right edge and the order path pays little for it.
 */
export const ordersCreated = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
  },
};
