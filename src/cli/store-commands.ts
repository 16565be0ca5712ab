import path from 'node:path';
import { BackupError, backupSqlite, checkBackup, restoreSqlite } from '../store/sqlite-backup.js';
import { loadConfig, output, parseArgs, progress, type CommandModule } from './support.js';

/** Backups of the SQLite store; PostgreSQL's are pg_dump's (docs/operations.md, "Backups"). */

const POSTGRES = 'the store is PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/operations.md, "Backups")';

class StoreCommandError extends Error {
  override name = 'AppError'; // printed as one line by cli.ts
}

function sqliteFile(command: string): string {
  const { store } = loadConfig();
  if (store.kind !== 'sqlite') throw new StoreCommandError(`topup ${command}: ${POSTGRES}`);
  return store.file;
}

async function backup(args: string[]) {
  const { positional: [dest], json } = parseArgs<[string]>('backup', args);
  const file = sqliteFile('backup');
  try {
    const { bytes } = await backupSqlite(file, dest);
    output(json, { store: file, backup: path.resolve(dest), bytes },
      `backup of ${file} written to ${path.resolve(dest)} (${bytes} bytes); keep the master key too (DATA_DIR/master.key or MASTER_KEY): the backup's secrets are sealed with it`);
  } catch (e) {
    throw e instanceof BackupError ? new StoreCommandError(`topup backup: ${e.message}`) : e;
  }
}

async function restore(args: string[]) {
  const { positional: [from], flags, json } = parseArgs<[string]>('restore', args);
  const target = sqliteFile('restore');
  try {
    progress(`checking ${from}`);
    const check = await checkBackup(from);
    if (check.problems.length) throw new BackupError(`${from} is not restored:\n  ${check.problems.join('\n  ')}`);
    const { replaced } = restoreSqlite(from, target, { force: flags.force === 'true', now: new Date() });
    const pending = check.migrations.pending;
    output(json, { store: target, restored_from: path.resolve(from), replaced_store_kept_at: replaced, pending_migrations: pending },
      `${from} restored to ${target} (integrity ok, ledger consistent, ${check.migrations.applied} migrations applied` +
      `${pending.length ? `; ${pending.length} more run at the next start` : ''})${replaced ? `; the replaced store is kept at ${replaced}` : ''}`);
  } catch (e) {
    throw e instanceof BackupError ? new StoreCommandError(`topup restore: ${e.message}`) : e;
  }
}

export const storeCommands: CommandModule = { backup, restore };
