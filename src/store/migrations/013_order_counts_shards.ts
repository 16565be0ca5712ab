import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';
import { ALL_ORDERS } from '../schema.js';

/** Terminal-status rows per (reseller, hour, status) on PostgreSQL: an order's is `hashtext(id) & 15`. */
const ORDER_COUNT_SHARDS = 16;

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
 * past hours are folded back into shard 0 (OrdersRepo.foldCountShards, every minute in each
 * process that runs the worker), so a
 * long range still sums about one row an hour and status.
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
      await sql.raw(postgresCountFunction()).execute(db);
    },
  };
}

const HOUR = 'created_at / 3600000';

function postgresCountFunction(): string {
  const upsert = (rec: 'new' | 'old', status: string, shard: string, sign: '+' | '-') =>
    `insert into order_counts (reseller_id, hour, status, shard, n) values (${rec}.reseller_id, ${rec}.${HOUR}, ${status}, ${shard}, ${sign}1)
       on conflict (reseller_id, hour, status, shard) do update set n = order_counts.n ${sign} 1;`;
  const shardOf = (rec: 'new' | 'old') => `hashtext(${rec}.id) & ${ORDER_COUNT_SHARDS - 1}`;
  // Same shape as 012's function (its triggers stay): what moves when, unchanged.
  return `create or replace function topup_order_counts() returns trigger language plpgsql as $$
    declare
      moved boolean := tg_op <> 'UPDATE';
    begin
      if tg_op = 'UPDATE' then
        moved := old.reseller_id is distinct from new.reseller_id or old.${HOUR} <> new.${HOUR};
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        if moved then ${upsert('old', `'${ALL_ORDERS}'`, '0', '-')} end if;
        if old.status <> 'processing' then ${upsert('old', 'old.status', shardOf('old'), '-')} end if;
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        if moved then ${upsert('new', `'${ALL_ORDERS}'`, '0', '+')} end if;
        if new.status <> 'processing' then ${upsert('new', 'new.status', shardOf('new'), '+')} end if;
      end if;
      return null;
    end $$`;
}
