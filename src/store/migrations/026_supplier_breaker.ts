import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * The supplier circuit breaker (docs/suppliers/digiflazz.md, "Supplier health"), kept on
 * the supplier's health row so that every process sees one state: `breaker` (closed, open,
 * half_open), why and since when, when an open breaker may be probed (`breaker_retry_at`),
 * and the real orders a half-open breaker let through and heard back from. The catalog
 * cache follows the state alone (the gate reads nothing else), no longer every failure.
 * Orders keep what the supplier said for disputes: its serial number and message.
 */
export function supplierBreaker(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('supplier_health').addColumn('breaker', 'text', (c) => c.notNull().defaultTo('closed')).execute();
      await db.schema.alterTable('supplier_health').addColumn('breaker_reason', 'text').execute();
      await db.schema.alterTable('supplier_health').addColumn('breaker_since', 'bigint').execute();
      await db.schema.alterTable('supplier_health').addColumn('breaker_retry_at', 'bigint').execute();
      await db.schema.alterTable('supplier_health').addColumn('probe_orders', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('supplier_health').addColumn('probe_answers', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // A supplier the old rule held closed is open now, due for its first probe.
      await sql`update supplier_health set breaker = 'open', breaker_reason = last_error, breaker_since = updated_at, breaker_retry_at = updated_at where consecutive_failures >= 3`.execute(db);
      if (dialect === 'postgres') {
        await sql`drop trigger supplier_health_update_bump on supplier_health`.execute(db);
        await sql`create trigger supplier_health_update_bump after update on supplier_health for each row when (old.breaker is distinct from new.breaker) execute function topup_bump_catalog()`.execute(db);
      } else {
        await sql`drop trigger supplier_health_update_bump`.execute(db);
        await sql`create trigger supplier_health_update_bump after update on supplier_health when old.breaker is not new.breaker begin update cache_versions set version = version + 1 where name = 'catalog'; end`.execute(db);
      }
      await db.schema.alterTable('orders').addColumn('supplier_serial', 'text').execute();
      await db.schema.alterTable('orders').addColumn('supplier_message', 'text').execute();
    },
  };
}
