import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * A process that runs the worker gets a PostgreSQL connection per worker slot on top of the
 * default 10 (each running job holds one at a time), never more than 40 in all: a large
 * WORKER_CONCURRENCY must not take the server's max_connections from everyone else.
 */
describe.skipIf(!storeKinds().includes('postgres'))('PostgreSQL pool of a process running the worker', () => {
  let store: TestStore | undefined;
  afterAll(async () => {
    await store?.drop();
  });

  it.each([
    [undefined, '16', 10],
    [true, '16', 26],
    [true, '100', 40],
  ])('runsWorker %s, WORKER_CONCURRENCY %s: at most %i connections', async (runsWorker, concurrency, max) => {
    store ??= await createTestStore('postgres');
    const t = await startTestApp('postgres', { store, seed: false, env: { WORKER_CONCURRENCY: concurrency }, overrides: { runsWorker } });
    try {
      expect(t.platform.database.pool!.options.max).toBe(max);
    } finally {
      await t.close();
    }
  });
});
