import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StoreConfig } from '../../src/config.js';
import { ALL_ORDERS } from '../../src/store/schema.js';

/**
 * N historical orders (and their debits) for one reseller, inserted in bulk, one order a
 * second back from now, a quarter of them failed. The tables' secondary indexes are
 * dropped for the load and created again afterwards with the very definitions the store
 * holds (the migrations'): one sorted build per index instead of N random inserts into
 * each. Constraints (primary keys, unique, foreign keys) stay in place throughout.
 */
export async function seedHistory(store: StoreConfig, resellerId: string, n: number) {
  const started = Date.now();
  if (store.kind === 'sqlite') await seedSqlite(store.file, resellerId, n);
  else await seedPostgres(store.url, resellerId, n);
  return { seconds: (Date.now() - started) / 1000 };
}

async function seedSqlite(file: string, resellerId: string, n: number) {
  const now = Date.now();
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  // A seed that is lost in a crash is seeded again: no fsync per batch.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const indexes = db.prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name in ('orders', 'ledger_entries') and sql is not null`).all() as { name: string; sql: string }[];
  // The insert triggers too (order_counts, one upsert per order): the counts are written
  // once below, as the triggers count (migration 012), and the triggers made again.
  const triggers = db.prepare(`select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'orders' and sql like '%after insert on orders%'`).all() as { name: string; sql: string }[];
  for (const i of indexes) db.exec(`drop index ${i.name}`);
  for (const t of triggers) db.exec(`drop trigger ${t.name}`);
  // Sequence numbers continue the reseller's own (the service's order path hands them out).
  const base = db.prepare('select order_seq, ledger_seq from resellers where id = ?').get(resellerId) as { order_seq: number; ledger_seq: number };
  const order = db.prepare(`insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, completed_at, updated_at, seq)
    values (?, ?, ?, 'FF-100', '100 Diamonds', 'free-fire', '123', null, 15000, ?, ?, ?, ?, ?)`);
  const ledger = db.prepare(`insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq) values (?, 'order_debit', -15000, 1, ?, null, ?, ?, ?)`);
  const statuses = ['success', 'success', 'success', 'failed'];
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const id = randomUUID();
      const at = now - (n - i) * 1000;
      order.run(id, resellerId, `hist-${i}`, statuses[i % 4], at, at + 500, at, base.order_seq + i + 1);
      ledger.run(resellerId, id, at, base.ledger_seq + i + 1, base.order_seq + i + 1);
    }
  });
  for (let i = 0; i < n; i += 50_000) batch(i, Math.min(n, i + 50_000));
  db.transaction(() => {
    for (const status of [`'${ALL_ORDERS}'`, 'status']) {
      db.prepare(`insert into order_counts (reseller_id, hour, status, n)
        select reseller_id, created_at / 3600000, ${status}, count(*) from orders where reseller_id = ? and ref_id like 'hist-%' and status <> 'processing' group by 1, 2, 3
        on conflict (reseller_id, hour, status) do update set n = n + excluded.n`).run(resellerId);
    }
    db.prepare('update resellers set order_seq = order_seq + ?, ledger_seq = ledger_seq + ? where id = ?').run(n, n, resellerId);
  })();
  for (const t of triggers) db.exec(t.sql);
  for (const i of indexes) db.exec(i.sql);
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function seedPostgres(url: string, resellerId: string, n: number) {
  const now = Date.now();
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {}); // surfaced by the failing query instead of crashing the run
  await c.connect();
  try {
    // The hot reseller row carries a long chain of dead versions from B1 (one update per
    // order); every foreign-key check of a bulk insert would walk it. Vacuum it, and skip
    // the per-row FK triggers for this trusted seed (the rows point at an existing reseller).
    await c.query('vacuum analyze resellers');
    await c.query(`set maintenance_work_mem = '256MB'`);
    // Replica mode also skips our own triggers: sequence numbers and order_counts are
    // written here explicitly, as the service's transactions and triggers would.
    await c.query('set session_replication_role = replica');
    const indexes = (await c.query(`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
      where i.indrelid in ('orders'::regclass, 'ledger_entries'::regclass) and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`)).rows as { name: string; def: string }[];
    await c.query('begin');
    for (const i of indexes) await c.query(`drop index ${i.name}`);
    const base = (await c.query('select order_seq, ledger_seq from resellers where id = $1', [resellerId])).rows[0] as { order_seq: number; ledger_seq: number };
    await c.query(
      `insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, completed_at, updated_at, seq)
       select gen_random_uuid()::text, $1, 'hist-' || g, 'FF-100', '100 Diamonds', 'free-fire', '123', null, 15000,
              (array['success','success','success','failed'])[1 + g % 4], $2::bigint - ($3::bigint - g) * 1000, $2::bigint - ($3::bigint - g) * 1000 + 500, $2::bigint - ($3::bigint - g) * 1000,
              $4::bigint + g + 1
       from generate_series(0, $3::bigint - 1) g`,
      [resellerId, now, n, base.order_seq],
    );
    await c.query(
      `insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq)
       select reseller_id, 'order_debit', -15000, 1, id, null, created_at, seq - $2::bigint + $3::bigint, seq from orders where reseller_id = $1 and ref_id like 'hist-%'`,
      [resellerId, base.order_seq, base.ledger_seq],
    );
    await c.query(
      // As the triggers count (migration 012): every order in `*`, a terminal one in its status too.
      `insert into order_counts (reseller_id, hour, status, n)
       select reseller_id, created_at / 3600000, s, count(*) from orders cross join lateral (values ('*'), (status)) v(s)
       where reseller_id = $1 and ref_id like 'hist-%' and s <> 'processing' group by 1, 2, 3
       on conflict (reseller_id, hour, status, shard) do update set n = order_counts.n + excluded.n`,
      [resellerId],
    );
    await c.query('update resellers set order_seq = order_seq + $2::bigint, ledger_seq = ledger_seq + $2::bigint where id = $1', [resellerId, n]);
    for (const i of indexes) await c.query(i.def);
    await c.query('commit');
    // A real history arrived over months and autovacuum has long since set its visibility
    // map; a bulk insert has none, and index-only scans would visit the heap for every entry.
    await c.query('vacuum analyze orders');
    await c.query('vacuum analyze ledger_entries');
    await c.query('analyze');
    // The load and its vacuum leave gigabytes of dirty buffers: written now, not by the
    // checkpointer while the first read is measured.
    await c.query('checkpoint');
  } finally {
    await c.end();
  }
}
