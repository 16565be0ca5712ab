import { sql, type Kysely } from 'kysely';

/**
 * The operator's order search across resellers, newest first: without this index every
 * page sorted the whole orders table. created_at only grows, so inserts land on the
 * index's right edge and the order path pays little for it. The orders flagged for a
 * person (`topup attention`, the attention queue) get a partial index: it holds only them,
 * so placing an order (never flagged) does not touch it.
 */
export const ordersCreated = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
    await sql`create index orders_flagged on orders (created_at) where needs_attention = 1`.execute(db);
  },
};
