import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver } from 'kysely';
import type pg from 'pg';
import type { StoreConfig } from '../config.js';
import { makePrivateDir, makePrivateFile, restrictExisting } from '../private-files.js';
import type { DB } from './schema.js';
import { OrderWriterThread } from './order-writer-thread.js';
import { preparingPool } from './pg-prepared.js';
import { AUTOCHECKPOINT_PAGES, openSqlite } from './sqlite-connection.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { stopThread, THREAD_LIMITS } from './threads/start-thread.js';

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
  /** PostgreSQL: the pool under Kysely, for hot reads run as named (prepared) statements. */
  pool?: pg.Pool;
  /** SQLite, long-running processes: the thread that commits order groups. */
  orderWriter?: OrderWriterThread;
  close(): Promise<void>;
}

let pgModule: typeof pg | null = null;

/** pg, loaded for a PostgreSQL store only: on SQLite a CLI command starts ~0.3 s sooner without it. */
function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  pgModule = createRequire(import.meta.url)('pg') as typeof pg;
  // int8 (bigint) columns hold money and epoch-ms times, always safe integers: read as numbers.
  pgModule.types.setTypeParser(20, (v) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${v} exceeds the safe integer range`);
    return n;
  });
  return pgModule;
}

export interface OpenOptions {
  poolSize?: number;
  /** PostgreSQL: seconds a pool connection lives before it is replaced (default POOL_LIFETIME_SECONDS). */
  poolLifetimeSeconds?: number;
  /**
   * SQLite, for long-running processes (a one-shot CLI command leaves this to SQLite and
   * its own thread): checkpoint the WAL on a thread of its own instead of inside the
   * commit that crosses the threshold (threads/sqlite-checkpointer.cjs), and commit order
   * groups on another (threads/sqlite-order-writer.ts, from its start()), each on its own
   * connection.
   */
  threads?: boolean;
}

/** PostgreSQL connections a process opens at most, unless told otherwise (OpenOptions.poolSize). */
export const DEFAULT_POOL_SIZE = 10;

/** How long a PostgreSQL pool connection lives before it is replaced (see openDatabase). */
const POOL_LIFETIME_SECONDS = 300;

/** Checkpoint ticks of the background checkpointer. */
const CHECKPOINT_INTERVAL_MS = 100;

export function openDatabase(store: StoreConfig, opts: OpenOptions = {}): Database {
  if (store.kind === 'sqlite') {
    const onDisk = store.file !== ':memory:';
    // Owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database
    // file's mode, and a umask of 022 would otherwise leave all three world-readable.
    if (onDisk) {
      makePrivateDir(path.dirname(store.file));
      makePrivateFile(store.file);
    }
    const threads = opts.threads === true && onDisk;
    const sqlite = openSqlite(store.file, { checkpointInBackground: threads });
    // Stores created before this rule, and -wal/-shm files left from them.
    if (onDisk) restrictExisting([`${store.file}-wal`, `${store.file}-shm`]);
    const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect(withStatementCache(sqlite)) });
    const checkpointer = threads
      ? new Worker(new URL('./threads/sqlite-checkpointer.cjs', import.meta.url), { workerData: { file: store.file, intervalMs: CHECKPOINT_INTERVAL_MS }, resourceLimits: THREAD_LIMITS })
      : null;
    // Without its checkpointer (it failed to start or died) SQLite checkpoints as before.
    checkpointer?.once('exit', () => sqlite.open && sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES.own}`));
    checkpointer?.on('error', () => {});
    const orderWriter = threads ? new OrderWriterThread(store.file) : undefined;
    return {
      db, dialect: 'sqlite', sqlite, orderWriter,
      async close() {
        await orderWriter?.close();
        if (checkpointer) await stopThread(checkpointer);
        await db.destroy();
      },
    };
  }
  // Connections are replaced every few minutes (each when next idle), so the plans each one
  // keeps are made again for the tables as they are: a generic plan of a named read
  // (pg-prepared.ts) or of a statement in topup_place_orders is kept for the connection's
  // life, made for the tables' size when it was chosen. An analyze invalidates it, but only
  // where autovacuum runs: without it a young store's order lookup by id stayed a
  // sequential scan of every order (docs/performance.md, B5 on PostgreSQL).
  const pool = new (loadPg().Pool)({ connectionString: store.url, max: opts.poolSize ?? DEFAULT_POOL_SIZE, maxLifetimeSeconds: opts.poolLifetimeSeconds ?? POOL_LIFETIME_SECONDS });
  // An idle connection the server closed (restart, failover) must not crash the process:
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return { db, dialect: 'postgres', pool, close: () => db.destroy() };
}

/**
 * Kysely begins SQLite transactions with a deferred `begin`. With a second connection
 * writing (the order writer thread, a separate worker process), a deferred transaction
 * that reads and then writes fails at once with SQLITE_BUSY if the other connection
 * committed in between (its snapshot is stale; waiting cannot help). `begin immediate`
 * takes the write lock first, waiting for it (busy_timeout), so it always proceeds.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly handle: SQLite.Database) {
    super({ database: handle });
  }

  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })({ database: this.handle });
  }
}

export { isUniqueViolation } from './unique-violation.js';
