import { sql } from 'kysely';
import type { Database } from './db.js';
import { migrationState } from './migrate.js';

/** The store answers a trivial query (rejects with its error). */
export async function storeAnswers(database: Database): Promise<string> {
  await sql`select 1`.execute(database.db);
  return 'ok';
}

/**
 * The store's migrations are exactly this build's: none pending (an older store put under
 * this build) and none unknown (a newer version migrated it). Rejects naming them.
 */
export async function migrationsCurrent(database: Database): Promise<string> {
  const { pending, unknown } = await migrationState(database);
  const problems = [...(pending.length ? [`pending: ${pending.join(', ')}`] : []), ...(unknown.length ? [`unknown to this build (a newer version ran): ${unknown.join(', ')}`] : [])];
  if (problems.length) throw new Error(problems.join('; '));
  return 'ok';
}
