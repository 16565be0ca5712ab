'use strict';
/**
 * Worker thread: copies the SQLite WAL into the database file (a PASSIVE checkpoint, which
 * never blocks readers or the writer) every few milliseconds, on its own connection.
 *
 * Left to SQLite's auto-checkpoint, the commit that crosses the threshold runs the whole
 * checkpoint, with its syncs, on the committing thread: for an order, the service's event
 * loop (what moving it here bought: docs/performance.md).
 *
 * Plain JavaScript, loaded by Node itself: a thread that loads TypeScript through tsx
 * costs more memory, for ten lines. workerData: { file, intervalMs } (db.ts).
 */
const { execFileSync } = require('node:child_process');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require('better-sqlite3');

/**
 * Linux: this thread runs only on CPU time nothing else wants (SCHED_IDLE). Under B1 a
 * quarter to a third of the two cores sits idle while the event loop and the order writer
 * wait on each other; at normal priority the checkpoint took its turn on their cores when
 * they had work. Measured in seven alternating pairs of B1 runs: over 100 resellers
 * 6.5–7.1k against 6.1–6.7k orders/s, one reseller 0 to +4%. Starved for long (a machine saturated for
 * minutes), the WAL grows to the writers' backstop checkpoint (sqlite-connection.ts),
 * as it already does under B3/B4 at normal priority.
 *
 * Node has no call for a thread's scheduling policy: util-linux's `chrt` sets it for this
 * thread's id. Without chrt, the lowest nice value instead (per thread on Linux; on other
 * systems setpriority would renice the whole process, so nothing is changed there).
 */
function yieldToForeground() {
  if (process.platform !== 'linux') return;
  const tid = readlinkSync('/proc/thread-self').split('/').pop();
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 2000 });
  } catch {
    try {
      setPriority(19);
    } catch {
      // Left at normal priority: slower under load, not wrong.
    }
  }
}
yieldToForeground();

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
