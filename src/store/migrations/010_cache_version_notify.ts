import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/** The channel a bump of `cache_versions` is announced on (PostgreSQL). */
export const CACHE_VERSIONS_CHANNEL = 'topup_cache_versions';

/**
 * PostgreSQL: every bump of `cache_versions` (the triggers of migration 006, bumpVersion())
 * also notifies CACHE_VERSIONS_CHANNEL, delivered at commit to every listening server
 * (PostgresVersionFeed). The payload is the cache's name: PostgreSQL folds equal
 * notifications of one transaction into one, so a bulk change announces itself once.
 * SQLite has no such thing and needs none: its version read is a synchronous statement.
 */
export function cacheVersionNotify(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql.raw(`create function topup_notify_cache_version() returns trigger language plpgsql as $$
        begin perform pg_notify('${CACHE_VERSIONS_CHANNEL}', new.name); return null; end $$`).execute(db);
      await sql`create trigger cache_versions_notify after update on cache_versions for each row execute function topup_notify_cache_version()`.execute(db);
    },
  };
}
