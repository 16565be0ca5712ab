import SQLite from 'better-sqlite3';

/** WAL pages after which a commit checkpoints: on its own, or as the background checkpointer's backstop. */
export const AUTOCHECKPOINT_PAGES = { own: 10_000, backstop: 50_000 };
/** Above the backstop's WAL (~50,000 frames of ~4 KB): the file is never cut back while it cycles. */
export const WAL_SIZE_LIMIT_BYTES = 256 * 1024 * 1024;

/**
 * A connection to the SQLite store with the settings every connection of the service
 * uses (the service's own, the order writer thread's). Only better-sqlite3 here: threads
 * import this without the rest of the store.
 */
export function openSqlite(file: string, opts: { checkpointInBackground: boolean }): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash without losing committed transactions.
  sqlite.pragma('synchronous = NORMAL');
  // Another connection (the order writer thread, a separate worker process) may hold the
  // write lock for a group's commit: wait for it rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  // Savepoint journals (one per order of a group commit) in memory: in temp files they
  // cost a write per page touched, most of the group's system time.
  sqlite.pragma('temp_store = MEMORY');
  // Checkpoint (copy the WAL into the database file, then sync) every ~40 MB of WAL
  // instead of every ~4 MB: fewer syncs on the committing request's path. With the
  // background checkpointer (threads/sqlite-checkpointer.cjs) this is only a backstop
  // (~200 MB) for when it falls behind.
  sqlite.pragma(`wal_autocheckpoint = ${opts.checkpointInBackground ? AUTOCHECKPOINT_PAGES.backstop : AUTOCHECKPOINT_PAGES.own}`);
  // The WAL file is cut back only above its backstop size, so under load it is rewritten
  // in place: a WAL cut back (to 64 MB, before) after each restart made every frame past
  // the cut a new block for the filesystem to allocate (and, on a disk mounted with
  // discard, a synchronous discard of the cut): B1 over 100 resellers ~15% fewer orders
  // a second. The price: after a burst the file keeps up to this size on disk.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}
