import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * Read paths that stay fast at millions of rows, and the shared invalidation signal of the
 * in-process caches.
 *
 * - Per-reseller sequence numbers (`orders.seq`, `ledger_entries.seq`, counters on the
 *   reseller row) are taken in the same transaction as the balance update, so they are
 *   gap-free 1..N: the unfiltered total is the counter and any page is a range of the
 *   (reseller_id, seq) index, at any depth. Writers that do not set seq (future code paths)
 *   get one from a trigger, so the numbering never has holes.
 * - `order_counts` (reseller, UTC day of created_at, status) is kept by triggers in the
 *   same transaction as every order insert/status change, so filtered totals are exact
 *   sums of at most a few hundred rows instead of counting millions.
 * - `cache_versions` rows ('auth', 'catalog') are bumped by triggers on every table the
 *   caches read, so any writer (operator API, CLI, another server process) invalidates
 *   the caches of every process sharing the database, in its own transaction.
 */
export function readPaths(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('resellers').addColumn('order_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('resellers').addColumn('ledger_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('orders').addColumn('seq', 'bigint').execute();
      await db.schema.alterTable('ledger_entries').addColumn('seq', 'bigint').execute();

      // Backfill existing rows in their historical order.
      await sql`update orders set seq = x.rn from (select id, row_number() over (partition by reseller_id order by created_at, id) as rn from orders) x where x.id = orders.id`.execute(db);
      await sql`update ledger_entries set seq = x.rn from (select id, row_number() over (partition by reseller_id order by id) as rn from ledger_entries) x where x.id = ledger_entries.id`.execute(db);
      await sql`update resellers set order_seq = coalesce((select max(seq) from orders o where o.reseller_id = resellers.id), 0),
                                   ledger_seq = coalesce((select max(seq) from ledger_entries l where l.reseller_id = resellers.id), 0)`.execute(db);
      await db.schema.createIndex('orders_reseller_seq').on('orders').columns(['reseller_id', 'seq']).unique().execute();
      await db.schema.createIndex('ledger_reseller_seq').on('ledger_entries').columns(['reseller_id', 'seq']).unique().execute();

      await db.schema
        .createTable('order_counts')
        .addColumn('reseller_id', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull()) // floor(created_at / 86400000): the UTC day
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_counts_pk', ['reseller_id', 'day', 'status'])
        .execute();
      await sql`insert into order_counts (reseller_id, day, status, n) select reseller_id, created_at / 86400000, status, count(*) from orders group by reseller_id, created_at / 86400000, status`.execute(db);

      await db.schema
        .createTable('cache_versions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into cache_versions (name, version) values ('auth', 1), ('catalog', 1)`.execute(db);

      for (const stmt of dialect === 'postgres' ? postgresTriggers() : sqliteTriggers()) await sql.raw(stmt).execute(db);
    },
  };
}

/** Tables whose every change invalidates a cache, and which cache. */
const CATALOG_TABLES = ['products', 'categories', 'catalogs', 'catalog_prices', 'reseller_catalogs', 'suppliers', 'system_state'];
const AUTH_TABLES = ['api_keys', 'ip_whitelist'];
/** Tables written often where only some columns matter to a cache (checked per row). */
const CHANGED = {
  resellers: { cache: 'auth', columns: ['status', 'tier'] },
  product_routes: { cache: 'catalog', columns: ['product_code', 'supplier_id', 'supplier_sku', 'enabled', 'priority', 'available'] },
  supplier_health: { cache: 'catalog', columns: ['consecutive_failures'] },
} as const;

function sqliteTriggers(): string[] {
  const bump = (cache: string) => `update cache_versions set version = version + 1 where name = '${cache}';`;
  const out: string[] = [];
  const all = [...CATALOG_TABLES.map((t) => [t, 'catalog']), ...AUTH_TABLES.map((t) => [t, 'auth'])];
  for (const [t, cache] of all) {
    for (const ev of ['insert', 'update', 'delete']) out.push(`create trigger ${t}_${ev}_bump after ${ev} on ${t} begin ${bump(cache!)} end`);
  }
  for (const [t, { cache, columns }] of Object.entries(CHANGED)) {
    const changed = columns.map((c) => `old.${c} is not new.${c}`).join(' or ');
    out.push(`create trigger ${t}_update_bump after update on ${t} when ${changed} begin ${bump(cache)} end`);
    if (t !== 'resellers') {
      out.push(`create trigger ${t}_insert_bump after insert on ${t} begin ${bump(cache)} end`);
      out.push(`create trigger ${t}_delete_bump after delete on ${t} begin ${bump(cache)} end`);
    }
  }
  out.push(...orderCountStatements('sqlite', DAY_BUCKET));
  // Fallback numbering for writers that do not take a seq themselves.
  out.push(`create trigger orders_seq_fill after insert on orders when new.seq is null begin
      update resellers set order_seq = order_seq + 1 where id = new.reseller_id;
      update orders set seq = (select order_seq from resellers where id = new.reseller_id) where id = new.id; end`);
  out.push(SQLITE_LEDGER_SEQ_FILL);
  return out;
}

/** Also created again by migration 009, which rebuilds the ledger table. */
export const SQLITE_LEDGER_SEQ_FILL = `create trigger ledger_seq_fill after insert on ledger_entries when new.seq is null begin
      update resellers set ledger_seq = ledger_seq + 1 where id = new.reseller_id;
      update ledger_entries set seq = (select ledger_seq from resellers where id = new.reseller_id) where id = new.id; end`;

function postgresTriggers(): string[] {
  const out: string[] = [];
  for (const cache of ['auth', 'catalog']) {
    out.push(`create function topup_bump_${cache}() returns trigger language plpgsql as $$
      begin update cache_versions set version = version + 1 where name = '${cache}'; return null; end $$`);
  }
  for (const t of CATALOG_TABLES) out.push(`create trigger ${t}_bump after insert or update or delete on ${t} for each statement execute function topup_bump_catalog()`);
  for (const t of AUTH_TABLES) out.push(`create trigger ${t}_bump after insert or update or delete on ${t} for each statement execute function topup_bump_auth()`);
  for (const [t, { cache, columns }] of Object.entries(CHANGED)) {
    const changed = columns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    out.push(`create trigger ${t}_update_bump after update on ${t} for each row when (${changed}) execute function topup_bump_${cache}()`);
    if (t !== 'resellers') out.push(`create trigger ${t}_insdel_bump after insert or delete on ${t} for each statement execute function topup_bump_${cache}()`);
  }
  out.push(...orderCountStatements('postgres', DAY_BUCKET));
  out.push(`create function topup_seq_fill() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'orders' then
        update resellers set order_seq = order_seq + 1 where id = new.reseller_id returning order_seq into new.seq;
      else
        update resellers set ledger_seq = ledger_seq + 1 where id = new.reseller_id returning ledger_seq into new.seq;
      end if;
      return new;
    end $$`);
  out.push(`create trigger orders_seq_fill before insert on orders for each row when (new.seq is null) execute function topup_seq_fill()`);
  out.push(`create trigger ledger_seq_fill before insert on ledger_entries for each row when (new.seq is null) execute function topup_seq_fill()`);
  return out;
}

/** The time bucket order_counts is kept by: its column and length in milliseconds. */
export interface CountBucket {
  column: 'day' | 'hour';
  ms: number;
}
const DAY_BUCKET: CountBucket = { column: 'day', ms: 86_400_000 };

/**
 * The triggers that keep order_counts (reseller, bucket of created_at, status, n) in the
 * writing transaction: +1 on insert, -1 on delete, both on a change of status, created_at
 * or reseller. Migration 006 created them with day buckets, 008 with hour buckets.
 */
export function orderCountStatements(dialect: Dialect, { column, ms }: CountBucket): string[] {
  if (dialect !== 'postgres') {
    const count = (sign: '+' | '-', rec: 'new' | 'old') =>
      `insert into order_counts (reseller_id, ${column}, status, n) values (${rec}.reseller_id, ${rec}.created_at / ${ms}, ${rec}.status, ${sign}1)
       on conflict (reseller_id, ${column}, status) do update set n = n ${sign} 1;`;
    return [
      `create trigger orders_count_insert after insert on orders begin ${count('+', 'new')} end`,
      `create trigger orders_count_update after update on orders when ${SQLITE_COUNT_UPDATE_WHEN} begin ${count('-', 'old')} ${count('+', 'new')} end`,
      `create trigger orders_count_delete after delete on orders begin ${count('-', 'old')} end`,
    ];
  }
  return [
    `create or replace function topup_order_counts() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update order_counts set n = n - 1 where reseller_id = old.reseller_id and ${column} = old.created_at / ${ms} and status = old.status;
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        insert into order_counts (reseller_id, ${column}, status, n) values (new.reseller_id, new.created_at / ${ms}, new.status, 1)
          on conflict (reseller_id, ${column}, status) do update set n = order_counts.n + 1;
      end if;
      return null;
    end $$`,
    ...POSTGRES_COUNT_TRIGGERS,
  ];
}

/**
 * When an order's counts move: its status, hour or reseller changed. Shared by every
 * version of the counting triggers (006, 008, 012), which differ in what they count.
 */
export const SQLITE_COUNT_UPDATE_WHEN = 'old.status is not new.status or old.created_at is not new.created_at or old.reseller_id is not new.reseller_id';
/** Drops the counting triggers 006 and 008 created, before 008 and 012 create theirs (012 adds `orders_count_insert_settled` on SQLite: a later rewrite drops that too). */
export async function dropOrderCountTriggers(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const names = dialect === 'postgres' ? ['orders_count_insdel', 'orders_count_update'] : ['orders_count_insert', 'orders_count_update', 'orders_count_delete'];
  for (const t of names) await sql.raw(dialect === 'postgres' ? `drop trigger ${t} on orders` : `drop trigger ${t}`).execute(db);
}

/** PostgreSQL's triggers calling topup_order_counts() (each migration defines the function). */
export const POSTGRES_COUNT_TRIGGERS = [
  `create trigger orders_count_insdel after insert or delete on orders for each row execute function topup_order_counts()`,
  `create trigger orders_count_update after update on orders for each row
    when (old.status is distinct from new.status or old.created_at is distinct from new.created_at or old.reseller_id is distinct from new.reseller_id)
    execute function topup_order_counts()`,
];
