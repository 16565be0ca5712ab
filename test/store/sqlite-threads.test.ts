import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { DuplicateRefId, InsufficientBalance, OrdersRepo, type NewOrder } from '../../src/store/orders-repo.js';
import { createPlatform } from '../../src/main.js';
import { startTestApp, uniqueRef } from '../support/app.js';
import { createTestStore, type TestStore } from '../support/stores.js';

/**
 * A long-running SQLite process commits order groups on a thread of its own connection
 * (threads/sqlite-order-writer.ts). The orders keep every rule of the order transaction
 * (own ref_id, guarded debit, exact error, one ledger entry and one job each); a second
 * writing connection must not make the service's own transactions fail; and if the thread
 * is gone, orders commit on the service's connection as before.
 */
describe('SQLite order writer thread', () => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    await store?.drop();
  });

  const open = async () => {
    store = await createTestStore('sqlite');
    database = openDatabase(store.config, { threads: true });
    await migrateToLatest(database);
    const now = Date.now();
    await database.db.insertInto('resellers').values({ id: 'r1', name: 'r1', email: 'r1@x.test', tier: 'gold', status: 'active', balance: 2_500, callback_url: null, created_at: now, updated_at: now }).execute();
    database.orderWriter!.start();
    const repo = new OrdersRepo(database.db, { maxSize: 64, concurrency: 1 }, { dialect: 'sqlite', sqlite: database.sqlite, orderWriter: database.orderWriter });
    return { db: database.db, repo, writer: database.orderWriter! };
  };
  const order = (refId: string): NewOrder => ({
    id: randomUUID(), resellerId: 'r1', refId, productCode: 'FF-100', productName: 'FF 100', categorySlug: 'free-fire',
    target: '123', zone: null, price: 1_000, checkerVerified: false,
  });
  const settled = (repo: OrdersRepo, refs: string[]) => Promise.allSettled(refs.map((ref) => repo.placeWithDebit(order(ref), Date.now())));

  const invariants = async (db: Database['db']) => {
    const wallet = await db.selectFrom('resellers').select(['balance', 'order_seq']).where('id', '=', 'r1').executeTakeFirstOrThrow();
    const { rows } = await sql<{ s: number; n: number; jobs: number }>`
      select coalesce(sum(amount), 0) as s, count(*) as n, (select count(*) from jobs) as jobs from ledger_entries where reseller_id = 'r1'`.execute(db);
    return { balance: Number(wallet.balance), ledgerSum: 2_500 + Number(rows[0]!.s), debits: Number(rows[0]!.n), jobs: Number(rows[0]!.jobs), seq: Number(wallet.order_seq) };
  };

  it('commits a group on the thread with each order answered exactly', async () => {
    const { db, repo, writer } = await open();
    const run = vi.spyOn(writer, 'run');
    const results = await settled(repo, ['a', 'b', 'a', 'c']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { refId: 'a', status: 'processing', price: 1_000 } });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { refId: 'b' } });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: expect.any(DuplicateRefId) });
    expect(results[3]).toMatchObject({ status: 'rejected', reason: expect.any(InsufficientBalance) });
    expect((results[3] as PromiseRejectedResult).reason.balance).toBe(500);
    // The ledger gets a balance-seeding credit in real life; here the start is 2,500.
    expect(await invariants(db)).toEqual({ balance: 500, ledgerSum: 500, debits: 2, jobs: 2, seq: 2 });
    // What the thread committed, the service's own connection reads at once.
    expect(await repo.findByRef('r1', 'b')).toMatchObject({ refId: 'b', status: 'processing' });
  });

  it('commits on the service connection once the thread is gone', async () => {
    const { db, repo, writer } = await open();
    await writer.close();
    expect(writer.alive).toBe(false);
    const results = await settled(repo, ['x', 'x']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await invariants(db)).toEqual({ balance: 1_500, ledgerSum: 1_500, debits: 1, jobs: 1, seq: 1 });
  });

  it("the service's transactions take the write lock when they begin, so another writer cannot slip in between a read and a write", async () => {
    const { db } = await open();
    const other = new SQLite((store!.config as { file: string }).file);
    other.pragma('busy_timeout = 0');
    try {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('resellers').select('balance').where('id', '=', 'r1').executeTakeFirstOrThrow();
        // A deferred `begin` would let this commit, and the write below would then fail
        // with SQLITE_BUSY (its snapshot is stale): the other writer has to wait instead.
        expect(() => other.prepare("update resellers set balance = balance + 1 where id = 'r1'").run()).toThrow(/locked|busy/i);
        await trx.updateTable('resellers').set({ balance: Number(before.balance) - 100 }).where('id', '=', 'r1').execute();
      });
    } finally {
      other.close();
    }
    expect(Number((await db.selectFrom('resellers').select('balance').where('id', '=', 'r1').executeTakeFirstOrThrow()).balance)).toBe(2_400);
  });

  it('starts once the HTTP app is ready, not before: a process that takes no orders (`topup worker`) has no order writer thread', async () => {
    const app = await startTestApp('sqlite');
    const idle = await createPlatform(app.platform.config);
    try {
      const writer = idle.database.orderWriter!;
      const run = vi.spyOn(writer, 'run');
      idle.startBackground(); // what `topup worker` runs
      await new Promise((r) => setTimeout(r, 200));
      expect(writer.alive).toBe(false);
      // Before it starts, an order commits on the process's own connection.
      const now = Date.now();
      const reseller = { id: 'r-idle', name: 'r-idle', email: 'r-idle@x.test', tier: 'gold', status: 'active', balance: 5_000, callback_url: null, created_at: now, updated_at: now } as const;
      await idle.database.db.insertInto('resellers').values(reseller).execute();
      const placeOne = (ref: string) => idle.repos.orders.placeWithDebit({ ...order(ref), resellerId: 'r-idle' }, Date.now());
      await placeOne('before-ready');
      expect(run).not.toHaveBeenCalled();
      await idle.app.ready();
      expect(writer.alive).toBe(true);
      await placeOne('after-ready');
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      await idle.close();
      await app.close();
    }
  });

  it('a platform built for a one-shot command (the CLI) starts no store threads, and orders still commit', async () => {
    const app = await startTestApp('sqlite', { overrides: { storeHelpers: false } });
    try {
      expect(app.platform.database.orderWriter).toBeUndefined();
      const placed = await app.client.post('/order', { ref_id: uniqueRef('cli'), product_code: 'FF-100', target: '123456789' });
      expect(placed.status).toBe(200);
      expect(app.platform.repos.orders.groupStats.orders).toBe(1);
    } finally {
      await app.close();
    }
  });
});
