import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * Every fulfilment reports its supplier's result. A success writes the health row only when
 * it ends a run of failures: a healthy supplier's row is not rewritten by every order (on
 * PostgreSQL each such write held the row's lock through its commit's WAL flush).
 */
describe.each(storeKinds())('supplier health (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  it('counts failures, resets on the next success, and leaves a healthy row alone', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateToLatest(database);
    const { db } = database;
    await db.insertInto('suppliers').values({ id: 's1', name: 'S1', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: 0 }).execute();
    const repo = new FulfilmentRepo(db, database.dialect);
    const health = async () => {
      const h = await db.selectFrom('supplier_health').selectAll().where('supplier_id', '=', 's1').executeTakeFirstOrThrow();
      return { failures: Number(h.consecutive_failures), error: h.last_error, at: Number(h.updated_at) };
    };

    await repo.recordSupplierResult('s1', false, 'timeout', 1000);
    await repo.recordSupplierResult('s1', false, 'refused', 2000);
    expect(await health()).toEqual({ failures: 2, error: 'refused', at: 2000 });

    await repo.recordSupplierResult('s1', true, null, 3000);
    expect(await health()).toEqual({ failures: 0, error: null, at: 3000 });

    // Healthy already: nothing to change, so nothing written (updated_at is when it last changed).
    await repo.recordSupplierResult('s1', true, null, 4000);
    expect(await health()).toEqual({ failures: 0, error: null, at: 3000 });

    await repo.recordSupplierResult('s1', false, 'timeout', 5000);
    expect(await health()).toEqual({ failures: 1, error: 'timeout', at: 5000 });
  });
});
