import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';
import { postgresCountFunction } from './012_order_counts_all_row.js';

/**
 * PostgreSQL only: a terminal status's count of an hour is spread over 16 rows (`shard`),
 * chosen by the order's id. Every settlement of a busy reseller counted into one row
 * (reseller, hour, `success`), and held its lock through its commit's WAL flush, so the
 * worker's settlements ran one after another: on that row alone, 32 connections settling
 * one reseller's orders made ~2,000 settlements/s, ~6,000 with 16 rows, ~9,000 with no
 * count at all. Readers already sum rows; the `*` row (orders placed) stays one row
 * (shard 0): one reseller's order groups commit one at a time (OrderGroupQueue).
 *
 * A count may be taken back in any row (an upsert of −1): the sums stay exact whichever
 * rows hold them, including the rows counted before this migration (shard 0). Shards of
 * past hours are folded back into shard 0 (OrderHistoryRepo.foldCountShards, every minute in each
 * process that runs the worker), so a long range still sums about one row an hour and status.
 *
 * SQLite has one writer: nothing to spread, and its table stays as it was.
 */
export function orderCountShards(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table order_counts add column shard smallint not null default 0`.execute(db);
      await sql`alter table order_counts drop constraint order_counts_pk`.execute(db);
      await sql`alter table order_counts add constraint order_counts_pk primary key (reseller_id, hour, status, shard)`.execute(db);
      // The fold finds the rows still to fold without reading the table: only the last hours'.
      await sql`create index order_counts_unfolded on order_counts (hour) where shard <> 0`.execute(db);
      await sql.raw(postgresCountFunction(true)).execute(db);
    },
  };
}
