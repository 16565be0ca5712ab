import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { makePrivateDir, makePrivateFile } from '../private-files.js';
import { migrationNames, MIGRATION_TABLE } from './migrate.js';

/**
 * Backups of the SQLite store: an online copy while the service runs, and the checked way
 * back (docs/operations.md, "Backups"). PostgreSQL has pg_dump and pg_restore for this.
 */

export class BackupError extends Error {}

/**
 * Copies the store at `file` into `dest` (which must not exist) with SQLite's online backup
 * API, while the service keeps writing. Each step is given every page, so the copy is made
 * in one read transaction: one consistent moment of the store (WAL lets writers go on).
 * Written beside `dest` first and renamed, so `dest` is never a half copy.
 */
export async function backupSqlite(file: string, dest: string): Promise<{ bytes: number }> {
  if (!existsSync(file)) throw new BackupError(`no SQLite store at ${file} (DATA_DIR or DATABASE_URL)`);
  if (existsSync(dest)) throw new BackupError(`${dest} exists; give a new file name`);
  makePrivateDir(path.dirname(path.resolve(dest)));
  const tmp = `${dest}.partial-${process.pid}`;
  makePrivateFile(tmp);
  // Not readonly: a read-only connection cannot open a WAL store whose -shm is gone.
  const source = new SQLite(file, { fileMustExist: true });
  try {
    // A large step copies the rest at once: never restarted by a write between steps.
    await source.backup(tmp, { progress: ({ remainingPages }) => Math.max(remainingPages, 1_000_000) });
    // The copy is a standalone file: no -wal beside it to keep.
    const copy = new SQLite(tmp);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    source.close();
  }
  return { bytes: statSync(dest).size };
}

export interface BackupCheck {
  /** Empty when the backup may be restored. */
  problems: string[];
  migrations: { applied: number; pending: string[] };
}

/**
 * What must hold before a backup replaces a store: SQLite's integrity check, migrations
 * this build knows (older ones pending are fine: the next start runs them), and the ledger
 * invariants (ledgerProblems).
 */
export async function checkBackup(file: string): Promise<BackupCheck> {
  if (!existsSync(file)) throw new BackupError(`no file ${file}`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    db.pragma('schema_version');
  } catch (e) {
    throw new BackupError(`${file} is not an SQLite database (${(e as Error).message})`);
  }
  try {
    const problems: string[] = [];
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (integrity.join() !== 'ok') problems.push(`integrity check: ${integrity.slice(0, 5).join('; ')}`);
    const known = await migrationNames();
    const hasTable = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(MIGRATION_TABLE);
    if (!hasTable) return { problems: [...problems, 'no migration record: not a topup store'], migrations: { applied: 0, pending: known } };
    const applied = (db.prepare(`select name from ${MIGRATION_TABLE} order by name`).all() as { name: string }[]).map((r) => r.name);
    const unknown = applied.filter((n) => !known.includes(n));
    if (unknown.length) problems.push(`made by a newer version (migrations unknown here: ${unknown.join(', ')}); restore it with that version`);
    if (!unknown.length) problems.push(...ledgerProblems(db));
    return { problems, migrations: { applied: applied.length, pending: known.filter((n) => !applied.includes(n)) } };
  } finally {
    db.close();
  }
}

/**
 * The ledger invariants in SQL: each reseller's balance is the sum of its entries and never
 * negative, each entry's balance_after is the running sum, no order has two debits or two
 * refunds. (test/support/ledger.ts checks the same rules entry by entry; test/ops/backup
 * proves both agree on a store under load and on a broken one.)
 */
export function ledgerProblems(db: SQLite.Database): string[] {
  const problems: string[] = [];
  const balances = db.prepare(`
    select r.id, r.balance, coalesce((select sum(e.amount) from ledger_entries e where e.reseller_id = r.id), 0) as total
    from resellers r where r.balance != coalesce((select sum(e.amount) from ledger_entries e where e.reseller_id = r.id), 0) or r.balance < 0
    limit 5`).all() as { id: string; balance: number; total: number }[];
  for (const b of balances) problems.push(`reseller ${b.id}: balance ${b.balance} but its entries sum to ${b.total}`);
  const running = db.prepare(`
    select id, reseller_id, balance_after, running from (
      select id, reseller_id, balance_after, sum(amount) over (partition by reseller_id order by id) as running from ledger_entries
    ) where running != balance_after or running < 0 limit 5`).all() as { id: number; reseller_id: string; balance_after: number; running: number }[];
  for (const r of running) problems.push(`ledger entry ${r.id} (reseller ${r.reseller_id}): balance_after ${r.balance_after}, running sum ${r.running}`);
  const twice = db.prepare(`
    select order_id, type, count(*) as n from ledger_entries where order_id is not null
    group by order_id, type having count(*) > 1 limit 5`).all() as { order_id: string; type: string; n: number }[];
  for (const t of twice) problems.push(`order ${t.order_id}: ${t.n} ${t.type} entries`);
  return problems;
}

/**
 * Puts a checked backup in place of the store at `target`. The store must not be in use
 * (an exclusive lock is taken, which fails while any process has it open) and an existing
 * one is replaced only with `force`, kept beside it as `<target>.before-restore-<time>`.
 */
export function restoreSqlite(backup: string, target: string, opts: { force: boolean; now: Date }): { replaced: string | null } {
  let replaced: string | null = null;
  if (existsSync(target)) {
    if (!opts.force) throw new BackupError(`a store exists at ${target}; --force replaces it (kept beside it as a .before-restore file)`);
    assertNotInUse(target);
    replaced = `${target}.before-restore-${opts.now.toISOString().replace(/[:.]/g, '-')}`;
  }
  makePrivateDir(path.dirname(target));
  const tmp = `${target}.restoring-${process.pid}`;
  makePrivateFile(tmp);
  copyFileSync(backup, tmp);
  if (replaced) renameSync(target, replaced);
  // Leftovers of the old store's journal would be read as the new store's.
  rmSync(`${target}-wal`, { force: true });
  rmSync(`${target}-shm`, { force: true });
  renameSync(tmp, target);
  return { replaced };
}

/** Throws when another connection (a running serve or worker) has the store open. */
function assertNotInUse(file: string): void {
  const db = new SQLite(file, { timeout: 0, fileMustExist: true });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('begin exclusive');
    db.exec('commit');
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new BackupError(`the store at ${file} is in use (is topup serve or topup worker running?); stop it first`);
    throw e;
  } finally {
    // The last connection to close checkpoints the old store's WAL into it.
    db.close();
  }
}
