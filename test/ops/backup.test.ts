import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { storeEnv, topup, userEnv } from '../support/cli.js';
import { createReseller } from '../support/resellers.js';
import { ledgerConsistent } from '../support/ledger.js';

const SLOW = { timeout: 240_000 };

/** Reads a restored store the way the service does, and checks the ledger entry by entry. */
async function ledgerOf(file: string) {
  const database = openDatabase({ kind: 'sqlite', file });
  try {
    await ledgerConsistent(database.db);
    const orders = Number((await database.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    // Every order was charged in the same commit that created it.
    const uncharged = await database.db.selectFrom('orders as o').select('o.id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('ledger_entries as e').select('e.id').whereRef('e.order_id', '=', 'o.id').where('e.type', '=', 'order_debit'))))
      .execute();
    return { orders, uncharged: uncharged.length };
  } finally {
    await database.close();
  }
}

// SQLite: `topup backup` copies the SQLite store; PostgreSQL's backups are pg_dump's (refused below).
describe('topup backup under order load, and topup restore into a fresh folder (sqlite)', () => {
  let t: TestApp;
  const dirs: string[] = [];
  const folder = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'topup-backup-'));
    dirs.push(d);
    return d;
  };
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a backup taken while orders are placed restores with the ledger invariants holding', SLOW, async () => {
    // A reseller whose wallet outlasts any load this machine can place meanwhile.
    const { client } = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000_000 });
    let placing = true;
    let placed = 0;
    const refused: string[] = [];
    const loader = async () => {
      while (placing && refused.length === 0) {
        const r = await client.post('/order', JSON.stringify({ ref_id: uniqueRef('bk'), product_code: 'FF-100', target: '123456789' }));
        if (r.status === 200) placed++;
        else refused.push(r.text);
      }
    };
    const loaders = [loader(), loader(), loader(), loader()];
    while (placed < 40 && refused.length === 0) await new Promise((r) => setTimeout(r, 20));
    const file = path.join(folder(), 'topup-backup.sqlite');
    const backup = await topup(storeEnv(t.store), 'backup', file);
    const placedDuringBackup = placed;
    // The load goes on after the copy: the copy holds one moment, not what came later.
    while (placed < placedDuringBackup + 20 && refused.length === 0) await new Promise((r) => setTimeout(r, 20));
    placing = false;
    await Promise.all(loaders);
    expect(refused).toEqual([]);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`written to ${file}`);

    const fresh = path.join(folder(), 'data');
    const restored = await topup(userEnv(fresh, { LOG_LEVEL: 'silent' }), 'restore', file);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/restored to .*topup\.sqlite \(integrity ok, ledger consistent, \d+ migrations applied\)/);
    const { orders, uncharged } = await ledgerOf(path.join(fresh, 'topup.sqlite'));
    expect(orders).toBeGreaterThanOrEqual(40);
    expect(orders).toBeLessThan(placed);
    expect(uncharged).toBe(0);

    // A store is never replaced unasked, nor while the service has it open.
    const again = await topup(userEnv(fresh, { LOG_LEVEL: 'silent' }), 'restore', file);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('a store exists at');
    const inUse = await topup(storeEnv(t.store), 'restore', file, '--force');
    expect(inUse.status).toBe(1);
    expect(inUse.stderr.trim()).toMatch(/the store at .* is in use \(is topup serve or topup worker running\?\); stop it first$/);
    // Stopped, it is replaced, and the old store kept beside it.
    const replaced = await topup(userEnv(fresh, { LOG_LEVEL: 'silent' }), 'restore', file, '--force', '--json');
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(existsSync(JSON.parse(replaced.stdout).replaced_store_kept_at)).toBe(true);
    // An existing backup file is never overwritten.
    const overwrite = await topup(storeEnv(t.store), 'backup', file);
    expect(overwrite.status).toBe(1);
    expect(overwrite.stderr).toContain('exists; give a new file name');
  });

  it('restore refuses a backup whose ledger does not add up, as the entry-by-entry check does', SLOW, async () => {
    const dir = folder();
    const good = path.join(dir, 'good.sqlite');
    expect((await topup(storeEnv(t.store), 'backup', good)).status).toBe(0);
    const broken = path.join(dir, 'broken.sqlite');
    copyFileSync(good, broken);
    const db = new SQLite(broken);
    db.prepare("update resellers set balance = balance + 1 where email = 'demo-reseller@example.com'").run();
    db.close();
    await expect(ledgerOf(broken)).rejects.toThrow();
    const fresh = path.join(dir, 'data');
    const r = await topup(userEnv(fresh, { LOG_LEVEL: 'silent' }), 'restore', broken);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not restored:\n\s+reseller \S+: balance \d+ but its entries sum to \d+/);
    expect(existsSync(path.join(fresh, 'topup.sqlite'))).toBe(false);
    const notSqlite = await topup(userEnv(fresh, { LOG_LEVEL: 'silent' }), 'restore', path.resolve('package.json'));
    expect(notSqlite.status).toBe(1);
    expect(notSqlite.stderr).toContain('is not an SQLite database');
  });

  it('on PostgreSQL both commands point at pg_dump and pg_restore', SLOW, async () => {
    for (const command of ['backup', 'restore']) {
      const r = await topup(userEnv(folder(), { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/topup', LOG_LEVEL: 'silent' }), command, 'x.dump');
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`topup ${command}: the store is PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/operations.md, "Backups")`);
    }
  });
});
