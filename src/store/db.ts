import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { StoreConfig } from '../config.js';
import type { DB } from './schema.js';

export type Dialect = StoreConfig['kind'];

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /**
   * The SQLite handle under Kysely, for the few hot paths that run prepared statements
   * synchronously (the order group, the cache-version read). Use it only inside
   * `db.connection().execute(...)`: that holds Kysely's single-connection mutex, so no
   * Kysely transaction is open on the handle meanwhile (a bare read could otherwise see
   * another transaction's uncommitted writes).
   */
  sqlite?: SQLite.Database;
  close(): Promise<void>;
}

// int8 (bigint) columns hold money and epoch-ms times, always safe integers: read as numbers.
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${v} exceeds the safe integer range`);
  return n;
});

export function openDatabase(store: StoreConfig, opts: { poolSize?: number } = {}): Database {
  if (store.kind === 'sqlite') {
    mkdirSync(path.dirname(store.file), { recursive: true });
    const sqlite = new SQLite(store.file);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a process crash without losing committed transactions.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    // Savepoint journals (one per order of a group commit) in memory: in temp files they
    // cost a write per page touched, most of the group's system time.
    sqlite.pragma('temp_store = MEMORY');
    // Checkpoint (copy the WAL into the database file, then sync) every ~40 MB of WAL
    // instead of every ~4 MB: fewer syncs on the committing request's path.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: store.url, max: opts.poolSize ?? 10 });
  // An idle connection the server closed (restart, failover) must not crash the process:
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Unique-constraint violation on either store (the ref_id race, a second refund, …). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Kysely prepares every query anew; parsing SQL costs more than running our small indexed
 * queries. The set of distinct SQL texts is small (queries are built from a fixed code
 * path, values are parameters), so prepared statements are kept, bounded just in case.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver);
      return (source: string) => {
        let stmt = cache.get(source);
        if (!stmt) {
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          stmt = prepare(source);
          cache.set(source, stmt);
        }
        return stmt;
      };
    },
  });
}
