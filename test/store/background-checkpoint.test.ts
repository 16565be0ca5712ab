import { readdirSync, readFileSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { AUTOCHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES } from '../../src/store/sqlite-connection.js';
import { createTestStore, type TestStore } from '../support/stores.js';

/**
 * A long-running process checkpoints the SQLite WAL on a thread of its own, so no commit
 * on the event loop pays for copying the WAL into the database file. Observable from
 * outside: the database file itself takes the writes well before SQLite's own
 * auto-checkpoint threshold, which a plain connection only reaches at ~40 MB of WAL.
 */
describe('SQLite background checkpoint', () => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  const write = async (db: Database['db'], rows: number) => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows; i++) {
        await sql`insert into system_state (key, value) values (${`k${i}`}, ${'x'.repeat(1000)})`.execute(trx);
      }
    });
  };
  const fileSize = (file: string) => statSync(file).size;

  const settleSize = async (file: string, waitMs: number) => {
    const until = Date.now() + waitMs;
    let size = fileSize(file);
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      size = fileSize(file);
    }
    return size;
  };

  it('copies committed pages into the database file without a commit doing it', async () => {
    store = await createTestStore('sqlite');
    const file = (store.config as { file: string }).file;
    database = openDatabase(store.config, { threads: true });
    await migrateToLatest(database);
    const before = fileSize(file);
    await write(database.db, 2_000); // ~2 MB: far below the 200 MB backstop
    const until = Date.now() + 10_000;
    while (fileSize(file) < before + 1_000_000 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(fileSize(file)).toBeGreaterThan(before + 1_000_000);
    const rows = await sql<{ n: number }>`select count(*) as n from system_state where key like 'k%'`.execute(database.db);
    expect(Number(rows.rows[0]!.n)).toBe(2_000);
  });

  it('leaves the WAL alone on a connection opened without it (the control)', async () => {
    store = await createTestStore('sqlite');
    const file = (store.config as { file: string }).file;
    database = openDatabase(store.config);
    await migrateToLatest(database);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
    const before = fileSize(file);
    await write(database.db, 2_000);
    expect(await settleSize(file, 500)).toBe(before);
  });

  // Linux only: elsewhere the thread keeps normal priority (see sqlite-checkpointer.cjs).
  it.runIf(process.platform === 'linux')('runs only on CPU time nothing else wants (SCHED_IDLE), and nothing else of the process does', async () => {
    const before = threadsBy(isBackground);
    store = await createTestStore('sqlite');
    database = openDatabase(store.config, { threads: true });
    await migrateToLatest(database);
    const until = Date.now() + 10_000;
    while (threadsBy(isBackground).length <= before.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const background = threadsBy(isBackground).filter((t) => !before.includes(t));
    expect(background).toHaveLength(1); // the checkpointer, not the order writer
    expect(schedOf(String(process.pid))).toEqual({ policy: 0, nice: 0 }); // the event loop's thread
  });

  it('rewrites the WAL file in place after a restart instead of cutting it back', async () => {
    store = await createTestStore('sqlite');
    const file = (store.config as { file: string }).file;
    database = openDatabase(store.config);
    await migrateToLatest(database);
    // ~80 MB of WAL in one transaction; its commit crosses the auto-checkpoint, which
    // copies all of it, so the next commit restarts the WAL from its start.
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 80; i++) {
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 250)
                  insert into system_state (key, value) select ${`big${i}-`} || i, zeroblob(3900) from n`.execute(trx);
      }
    });
    const grown = fileSize(`${file}-wal`);
    expect(grown).toBeGreaterThan(80_000_000);
    await write(database.db, 1);
    // Cut back at restart (to 64 MB, before), the next 16 MB of frames would be new blocks.
    expect(fileSize(`${file}-wal`)).toBe(grown);
    expect(WAL_SIZE_LIMIT_BYTES).toBeGreaterThan(AUTOCHECKPOINT_PAGES.backstop * (4096 + 24));
  });

  it('stops its thread on close, and the store opens again', async () => {
    store = await createTestStore('sqlite');
    database = openDatabase(store.config, { threads: true });
    await migrateToLatest(database);
    await write(database.db, 10);
    await database.close();
    database = openDatabase(store.config, { threads: true });
    const rows = await sql<{ n: number }>`select count(*) as n from system_state where key like 'k%'`.execute(database.db);
    expect(Number(rows.rows[0]!.n)).toBe(10);
  });
});

/** A thread's scheduling policy (0 normal, 5 SCHED_IDLE) and nice value, from /proc. */
function schedOf(tid: string): { policy: number; nice: number } {
  // After the parenthesised command name: field 3 onwards, so nice (19) and policy (41) sit at 16 and 38.
  const f = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
  return { policy: Number(f[38]), nice: Number(f[16]) };
}

/** Idle policy, or the lowest nice value where `chrt` is missing. */
const isBackground = (s: { policy: number; nice: number }) => s.policy === 5 || s.nice === 19;

function threadsBy(pred: (s: { policy: number; nice: number }) => boolean): string[] {
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      return pred(schedOf(tid));
    } catch {
      return false; // ended meanwhile
    }
  });
}
