import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * The shared invalidation signal of the in-process caches (credentials, catalog): two
 * counters in `cache_versions`. Triggers (migration 006) bump them in the same transaction
 * as any change to the tables the caches read, whoever writes (this process, another
 * server, the CLI, the operator API). bumpVersion() is for changes the triggers cannot
 * see (e.g. a new master key); calling it after a write the triggers already cover is
 * harmless.
 */
export type CacheName = 'auth' | 'catalog';
export interface CacheVersions { auth: number; catalog: number }

export async function bumpVersion(db: Kysely<DB>, which: CacheName | 'all' = 'all'): Promise<void> {
  let q = db.updateTable('cache_versions').set((eb) => ({ version: eb('version', '+', 1) }));
  if (which !== 'all') q = q.where('name', '=', which);
  await q.execute();
}

/** Both versions as one row (auth, catalog): read for every request, and one row costs SQLite less than two. */
export const VERSIONS_SQL = `select (select version from cache_versions where name = 'auth'), (select version from cache_versions where name = 'catalog')`;

/** VERSIONS_SQL's row, read in array mode (a missing counter is 0). */
export function toVersions(row: readonly unknown[] | undefined): CacheVersions {
  return { auth: Number(row?.[0] ?? 0), catalog: Number(row?.[1] ?? 0) };
}

/** Versions held from an earlier read, when they are known to be current; else null. */
export interface HeldVersions {
  fresh(): CacheVersions | null;
}

/**
 * The read on SQLite, one prepared statement run synchronously: Kysely's query
 * building was most of its cost, and it runs on every request. It never reads inside
 * another open transaction: with none open on the handle it runs at once (nothing can
 * interleave with a synchronous read), else it waits for Kysely's connection mutex
 * (connection()), held by that transaction until it ends.
 */
export function sqliteVersionReader(db: Kysely<DB>, sqlite: SQLite.Database): () => Promise<CacheVersions> {
  const stmt = sqlite.prepare(VERSIONS_SQL).raw();
  const read = () => toVersions(stmt.get() as unknown[] | undefined);
  return async () => (sqlite.inTransaction ? db.connection().execute(async () => read()) : read());
}

/**
 * The versions for one request. With `held` (PostgreSQL's PostgresVersionFeed), versions
 * it vouches for are used without a read. Otherwise a read, with no staleness: a caller
 * always gets a read that *started after it asked*, so any write committed before the
 * request arrived is seen. Concurrent callers share reads:
 * - 'in-flight' (a read is a round trip, PostgreSQL): while one read is in flight,
 *   everyone who asks waits for the single next read, so at most two are in flight. That
 *   next read starts after the turn in which the one in flight returned, so the requests
 *   read in that turn (after its answer) join it too. (Under B2 on PostgreSQL a read is
 *   shared by ~5–6 requests either way, as they arrive about one a turn there; the same
 *   change cut the rate limiter's Redis calls by a third.)
 * - 'per-turn' (a read is synchronous, SQLite: nothing is ever in flight): everyone who
 *   asks in one turn of the event loop shares one read, taken after that turn
 *   (setImmediate). The requests that arrive together in one turn then cost one read.
 */
export class VersionWatch {
  private inFlight: Promise<CacheVersions> | null = null;
  private next: Promise<CacheVersions> | null = null;

  constructor(
    private readonly read: () => Promise<CacheVersions>,
    private readonly sharing: 'in-flight' | 'per-turn' = 'in-flight',
    private readonly held?: HeldVersions,
  ) {}

  current(): Promise<CacheVersions> {
    const known = this.held?.fresh();
    if (known) return Promise.resolve(known);
    if (this.sharing === 'per-turn') return (this.next ??= this.afterThisTurn());
    // A next read, pending, starts later than this ask: joining it is never stale.
    if (this.next) return this.next;
    if (!this.inFlight) return this.start();
    const afterIt = () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.start());
    return (this.next = this.inFlight.then(afterIt, afterIt));
  }

  private afterThisTurn(): Promise<CacheVersions> {
    return new Promise((resolve, reject) =>
      setImmediate(() => {
        this.next = null;
        this.read().then(resolve, reject);
      }),
    );
  }

  private start(): Promise<CacheVersions> {
    this.next = null;
    const p = this.read().finally(() => {
      if (this.inFlight === p) this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }
}
