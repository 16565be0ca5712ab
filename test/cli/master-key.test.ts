import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { serveProcess, storeEnv, topup } from '../support/cli.js';
import { createTestStore, storeKinds, type StoreKind, type TestStore } from '../support/stores.js';

const RIGHT = 'ab'.repeat(32);
const WRONG = 'cd'.repeat(32);

/** What a refused start printed, without the progress lines (`… opening the store`). */
const linesOf = (output: string) => output.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('…'));

/**
 * Issue 43 item 7: a process whose master key cannot open the store's secrets would report
 * ready and answer 500 to every signed request; it refuses to start instead, in one line.
 */
describe.each(storeKinds())('a wrong master key refuses to start (%s)', (kind: StoreKind) => {
  const stores: TestStore[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    children.forEach((c) => c.kill('SIGKILL'));
    await Promise.all(stores.map((s) => s.drop()));
  });

  const started = async (env: NodeJS.ProcessEnv) => {
    const s = await serveProcess(env);
    children.push(s.child);
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    return s.output;
  };
  const refused = async (env: NodeJS.ProcessEnv) => serveProcess(env).then(
    (s) => {
      children.push(s.child);
      throw new Error(`started with the wrong key:\n${s.output}`);
    },
    (e: { code: number | null; output: string }) => e,
  );

  it('serve, worker and the CLI exit 1 with one line naming the key and the store; the right key starts', async () => {
    const store = await createTestStore(kind);
    stores.push(store);
    const env = (key: string) => storeEnv(store, { MASTER_KEY: key, METRICS_PORT: 'off', SHUTDOWN_DRAIN_MS: '0' });
    // The first start seals the sentinel (and the demo reseller's API secret) with its key.
    expect(await started(env(RIGHT))).toMatch(/topup listening on/);

    const where = kind === 'sqlite' ? `the SQLite store ${store.config.kind === 'sqlite' ? store.config.file : ''}` : `DATABASE_URL ${store.url}`;
    const line = `topup: MASTER_KEY does not open this store's secrets (wrong key for ${where}); start with the key its secrets were sealed with`;
    const serve = await refused(env(WRONG));
    expect(serve.code).toBe(1);
    expect(linesOf(serve.output)).toEqual([line]);
    for (const args of [['worker'], ['seed'], ['reseller-create', 'shop@example.com', 'Shop']]) {
      const r = await topup(env(WRONG), ...args);
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(1);
      expect(linesOf(r.stdout + r.stderr), args[0]).toEqual([line]);
    }
    expect(await started(env(RIGHT))).toMatch(/topup listening on/);
  }, 120_000);

  it('a store from before the sentinel is checked against a secret it holds, then gets its sentinel', async () => {
    const store = await createTestStore(kind);
    stores.push(store);
    const env = (key: string) => storeEnv(store, { MASTER_KEY: key, METRICS_PORT: 'off', SHUTDOWN_DRAIN_MS: '0' });
    await started(env(RIGHT));
    const database = openDatabase(store.config, { threads: false });
    try {
      // As an older version left it: sealed secrets, no sentinel.
      expect(await database.db.selectFrom('api_keys').select('id').execute()).not.toHaveLength(0);
      await database.db.deleteFrom('store_settings').where('key', '=', 'master_key_sentinel').execute();
      expect((await refused(env(WRONG))).code).toBe(1);
      expect(await database.db.selectFrom('store_settings').select('key').where('key', '=', 'master_key_sentinel').execute()).toHaveLength(0);
      await started(env(RIGHT));
      expect(await database.db.selectFrom('store_settings').select('key').where('key', '=', 'master_key_sentinel').execute()).toEqual([{ key: 'master_key_sentinel' }]);
      expect((await refused(env(WRONG))).code).toBe(1);
    } finally {
      await database.close();
    }
  }, 120_000);
});
