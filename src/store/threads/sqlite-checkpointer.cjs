'use strict';
/**
 * Worker thread: copies the SQLite WAL into the database file (a PASSIVE checkpoint, which
 * never blocks readers or the writer) every few milliseconds, on its own connection.
 *
 * Left to SQLite's auto-checkpoint, the commit that crosses the threshold runs the whole
 * checkpoint, with its syncs, on the committing thread: for an order, the service's event
 * loop. Measured on the order group alone: ~100 → ~70 µs per order for one reseller,
 * ~225 → ~135 µs for orders spread over 100 resellers (docs/architecture.md).
 *
 * Plain JavaScript, loaded by Node itself: a thread that loads TypeScript through tsx
 * costs ~17 MB more memory, for ten lines. workerData: { file, intervalMs } (db.ts).
 */
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require('better-sqlite3');

const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or briefly locked (a migration, a VACUUM): the next tick tries again, and the
    // writers' own auto-checkpoint backstop (sqlite-connection.ts) bounds the WAL meanwhile.
  }
}, workerData.intervalMs);

parentPort.on('message', (m) => {
  if (!m || !m.stop) return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
