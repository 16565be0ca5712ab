import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * The supplier circuit breaker in the store, with the clock in the test's hands (every
 * transition takes its "now"): closed → open on a run of failures → half-open after the
 * cool-down and the probe's answer → closed after the probe orders' answers; a failure
 * while half-open opens it again; the gate follows the state.
 */
describe.each(storeKinds())('supplier circuit breaker (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  it('opens on a run of failures, probes after the cool-down, lets a limited number of orders through, and closes by itself', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateToLatest(database);
    const { db } = database;
    await db.insertInto('suppliers').values({ id: 's1', name: 'S1', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: 0 }).execute();
    const repo = new FulfilmentRepo(db, database.dialect, { failuresToOpen: 3, cooldownMs: 1000, probeOrders: 2 });
    const breaker = repo.breaker;
    const state = async () => {
      const h = await db.selectFrom('supplier_health').selectAll().where('supplier_id', '=', 's1').executeTakeFirstOrThrow();
      return { state: h.breaker, reason: h.breaker_reason, since: h.breaker_since === null ? null : Number(h.breaker_since), probeAt: h.breaker_retry_at === null ? null : Number(h.breaker_retry_at) };
    };

    await repo.recordSupplierResult('s1', false, 'socket hang up', 1000);
    await repo.recordSupplierResult('s1', false, 'socket hang up', 2000);
    expect((await state()).state).toBe('closed');
    await repo.recordSupplierResult('s1', false, 'supplier timed out', 3000);
    expect(await state()).toEqual({ state: 'open', reason: '3 failures or unknown outcomes in a row; the last: supplier timed out', since: 3000, probeAt: 4000 });
    expect(await breaker.admit('s1', 'open')).toBe(false);

    // More failures and a health check answering keep it open until its own probe.
    await repo.recordSupplierResult('s1', false, 'socket hang up', 3500);
    await repo.recordSupplierResult('s1', true, null, 3600);
    expect((await state()).state).toBe('open');
    expect(await breaker.due(3999)).toEqual([]);
    expect(await breaker.due(4000)).toEqual([{ supplierId: 's1', adapter: 'sandbox' }]);

    // A failed probe: open for another cool-down.
    await breaker.reopen('s1', 'probe failed: the balance call did not answer', 4000);
    expect(await state()).toEqual({ state: 'open', reason: 'probe failed: the balance call did not answer', since: 3000, probeAt: 5000 });
    expect(await breaker.due(4500)).toEqual([]);

    await breaker.halfOpen('s1', 5000);
    expect(await state()).toMatchObject({ state: 'half_open', since: 5000, probeAt: null });
    // Two probe slots, taken once each, whoever asks.
    expect(await Promise.all([breaker.admit('s1', 'half_open'), breaker.admit('s1', 'half_open'), breaker.admit('s1', 'half_open')])).toEqual(expect.arrayContaining([true, true, false]));
    await repo.supplierAnswered({ supplierId: 's1', failing: true }, 5100);
    expect((await state()).state).toBe('half_open');
    await repo.supplierAnswered({ supplierId: 's1', failing: true }, 5200);
    expect(await state()).toEqual({ state: 'closed', reason: '2 probe orders answered', since: 5200, probeAt: null });
    expect(await breaker.admit('s1', 'closed')).toBe(true);
  });

  it('a failure while half-open opens it again for a cool-down; maintenance opens it at once; an operator reset closes it', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateToLatest(database);
    const { db } = database;
    await db.insertInto('suppliers').values({ id: 's1', name: 'S1', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: 0 }).execute();
    const repo = new FulfilmentRepo(db, database.dialect, { failuresToOpen: 3, cooldownMs: 1000, probeOrders: 2 });
    const state = async () => {
      const h = await db.selectFrom('supplier_health').selectAll().where('supplier_id', '=', 's1').executeTakeFirstOrThrow();
      return { state: h.breaker, reason: h.breaker_reason, since: Number(h.breaker_since), probeAt: h.breaker_retry_at === null ? null : Number(h.breaker_retry_at), failures: Number(h.consecutive_failures) };
    };
    await repo.markSupplierUnavailable('s1', 'the supplier reports maintenance', 1000);
    expect(await state()).toEqual({ state: 'open', reason: 'the supplier reports maintenance', since: 1000, probeAt: 2000, failures: 3 });
    // Said again at the next refresh: open since the first time, probed a cool-down later.
    await repo.markSupplierUnavailable('s1', 'the supplier reports maintenance', 1500);
    expect(await state()).toEqual({ state: 'open', reason: 'the supplier reports maintenance', since: 1000, probeAt: 2500, failures: 3 });
    await repo.breaker.halfOpen('s1', 2000);
    expect((await state()).state).toBe('open');
    await repo.breaker.halfOpen('s1', 2500);
    expect(await repo.breaker.admit('s1', 'half_open')).toBe(true);
    await repo.recordSupplierResult('s1', false, 'socket hang up', 2100);
    expect(await state()).toEqual({ state: 'open', reason: 'a probe order failed: socket hang up', since: 2100, probeAt: 3100, failures: 1 });
    // Half-open with every slot taken and no verdict for a whole cool-down (a worker died
    // holding a slot): due for a probe again, which hands out fresh slots.
    await repo.breaker.reopen('s1', 'probe failed: x', 3100);
    await repo.breaker.halfOpen('s1', 4100);
    expect(await repo.breaker.admit('s1', 'half_open')).toBe(true);
    expect(await repo.breaker.admit('s1', 'half_open')).toBe(true);
    expect(await repo.breaker.admit('s1', 'half_open')).toBe(false);
    expect(await repo.breaker.due(5099)).toEqual([]);
    expect(await repo.breaker.due(5100)).toEqual([{ supplierId: 's1', adapter: 'sandbox' }]);
    await repo.breaker.halfOpen('s1', 5100);
    expect(await repo.breaker.admit('s1', 'half_open')).toBe(true);
    await repo.breaker.reopen('s1', 'probe failed: y', 7000);
    expect(await state()).toMatchObject({ state: 'half_open' });
    await repo.recordSupplierResult('s1', false, 'socket hang up', 7000);
    expect(await state()).toMatchObject({ state: 'open', since: 7000, probeAt: 8000 });
    // Disabled suppliers are not probed.
    await db.updateTable('suppliers').set({ enabled: 0 }).execute();
    expect(await repo.breaker.due(5000)).toEqual([]);
    await repo.breaker.reset('s1', 2200);
    expect(await state()).toEqual({ state: 'closed', reason: 'reset by an operator', since: 2200, probeAt: null, failures: 0 });
  });
});
