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

export async function readVersions(db: Kysely<DB>): Promise<CacheVersions> {
  const rows = await db.selectFrom('cache_versions').select(['name', 'version']).execute();
  const v: CacheVersions = { auth: 0, catalog: 0 };
  for (const r of rows) if (r.name === 'auth' || r.name === 'catalog') v[r.name] = Number(r.version);
  return v;
}

/**
 * The same read on SQLite as one prepared statement run synchronously: Kysely's query
 * building was most of its cost, and it runs on every request. It holds Kysely's
 * connection mutex (connection()), so it never reads inside another open transaction.
 */
export function sqliteVersionReader(db: Kysely<DB>, sqlite: SQLite.Database): () => Promise<CacheVersions> {
  const stmt = sqlite.prepare(`select name, version from cache_versions where name in ('auth', 'catalog')`);
  return () =>
    db.connection().execute(async () => {
      const v: CacheVersions = { auth: 0, catalog: 0 };
      for (const r of stmt.all() as { name: 'auth' | 'catalog'; version: number }[]) v[r.name] = Number(r.version);
      return v;
    });
}

/**
 * Reads the versions once per request, with no staleness: a caller always gets a read
 * that *started after it asked*, so any write committed before the request arrived is
 * seen. Concurrent callers share reads:
 * - 'in-flight' (a read is a round trip, PostgreSQL): while one read is in flight,
 *   everyone who asks waits for the single next read, so at most two are in flight.
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
  ) {}

  current(): Promise<CacheVersions> {
    if (this.sharing === 'per-turn') return (this.next ??= this.afterThisTurn());
    if (!this.inFlight) return this.start();
    if (!this.next) {
      this.next = this.inFlight.then(
        () => this.start(),
        () => this.start(),
      );
    }
    return this.next;
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
