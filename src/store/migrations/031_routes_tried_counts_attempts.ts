import { sql, type Kysely } from 'kysely';

/**
 * routes_tried counts the route in flight too (it counted only the routes passed before
 * it, so an order its first route delivered said 0). An order with a supplier recorded was
 * submitted there: its count gains that attempt, the same on both stores.
 */
export const routesTriedCountsAttempts = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`update orders set routes_tried = routes_tried + 1 where supplier_id is not null`.execute(db);
  },
};
