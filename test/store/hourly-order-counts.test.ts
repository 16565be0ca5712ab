import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateTo } from '../../src/store/migrate.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

const HOUR = 3_600_000;

/**
 * Migration 008 rebuilds order_counts by UTC hour from the orders already stored (written
 * under 006's day buckets) and puts its triggers back: every later insert, status change
 * and delete must keep the hourly counts equal to counting the orders.
 */
describe.each(storeKinds())('migration 008: hourly order counts (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  const counted = async (db: Database['db']) => {
    const rows = await db.selectFrom('order_counts').select(['reseller_id', 'hour', 'status', 'n']).where('n', '<>', 0).execute();
    return rows.map((r) => `${r.reseller_id} ${Number(r.hour)} ${r.status} ${Number(r.n)}`).sort();
  };
  const expected = async (db: Database['db']) => {
    const { rows } = await sql<{ reseller_id: string; h: number | string; status: string; n: number | string }>`
      select reseller_id, created_at / 3600000 as h, status, count(*) as n from orders group by reseller_id, created_at / 3600000, status`.execute(db);
    return rows.map((r) => `${r.reseller_id} ${Number(r.h)} ${r.status} ${Number(r.n)}`).sort();
  };

  it('counts the existing history by hour and keeps counting every change', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateTo(database, '007_order_groups');
    const now = Date.UTC(2026, 10, 20, 12, 30);
    for (const id of ['r-a', 'r-b']) {
      await db.insertInto('resellers').values({ id, name: id, email: `${id}@x.test`, tier: 'gold', status: 'active', balance: 0, callback_url: null, created_at: now, updated_at: now }).execute();
    }
    const order = (i: number, resellerId: string, createdAt: number, status: 'processing' | 'success' | 'failed') => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reseller_id: resellerId, ref_id: `m-${i}`, product_code: 'P', product_name: 'P',
      category_slug: 'g', target: '1', zone: null, price: 1, status, serial_number: null, failure_code: null, failure_reason: null,
      created_at: createdAt, completed_at: null, updated_at: createdAt, checker_verified: 0,
    });
    // Three days, several orders an hour, on both edges of hours; two resellers.
    const statuses = ['processing', 'success', 'failed'] as const;
    const history = Array.from({ length: 300 }, (_, i) => order(i, i % 5 === 0 ? 'r-b' : 'r-a', now - i * 863_000 - (i % 11 === 0 ? (now % HOUR) : 0) + (i % 13 === 0 ? -1 : 0), statuses[i % 3]!));
    await db.insertInto('orders').values(history).execute();

    expect(await migrateTo(database, '008_hourly_order_counts')).toEqual(['008_hourly_order_counts']);
    expect(await counted(db)).toEqual(await expected(db));
    expect((await counted(db)).length).toBeGreaterThan(72); // hours, not days

    // The triggers of 008: insert, status change, created_at change (moves hours), delete.
    await db.insertInto('orders').values([order(1000, 'r-a', now + HOUR - 1, 'processing'), order(1001, 'r-b', now + HOUR, 'processing')]).execute();
    await db.updateTable('orders').set({ status: 'success' }).where('id', '=', order(1000, 'r-a', 0, 'processing').id).execute();
    await db.updateTable('orders').set({ created_at: now - 5 * HOUR }).where('id', '=', order(1001, 'r-b', 0, 'processing').id).execute();
    await db.deleteFrom('orders').where('ref_id', 'in', ['m-3', 'm-4']).execute();
    expect(await counted(db)).toEqual(await expected(db));
  });
});
