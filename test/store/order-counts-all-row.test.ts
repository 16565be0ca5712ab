import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '../../src/domain/order.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrate.js';
import { OrderHistoryRepo } from '../../src/store/order-history-repo.js';
import { ALL_ORDERS } from '../../src/store/schema.js';
import { startTestApp } from '../support/app.js';
import { createTestStore, storeKinds, type StoreKind, type TestStore } from '../support/stores.js';

const HOUR = 3_600_000;

/**
 * Migration 012: order_counts keeps per (reseller, hour) a row of all orders (`*`) and one
 * per terminal status; `processing` is derived. Placing an order and settling one no
 * longer write a shared row. The rows must always equal counting the orders, and every
 * status filter must count exactly.
 */
function harness(kind: StoreKind) {
  let store: TestStore | undefined;
  let database: Database | undefined;

  const now = Date.UTC(2026, 10, 20, 12, 30);
  const order = (i: number, resellerId: string, createdAt: number, status: OrderStatus) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reseller_id: resellerId, ref_id: `m-${i}`, product_code: 'P', product_name: 'P',
    category_slug: 'g', target: '1', zone: null, price: 1, status, serial_number: null, failure_code: null, failure_reason: null,
    created_at: createdAt, completed_at: null, updated_at: createdAt, checker_verified: 0,
  });
  const idOf = (i: number) => order(i, '', 0, 'processing').id;

  const open = async (upTo?: string) => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    if (upTo) await migrateTo(database, upTo);
    else await migrateToLatest(database);
    for (const id of ['r-a', 'r-b']) {
      await database.db.insertInto('resellers').values({ id, name: id, email: `${id}@x.test`, tier: 'gold', status: 'active', balance: 0, callback_url: null, created_at: now, updated_at: now }).execute();
    }
    return database.db;
  };
  /** Three days, several orders an hour, every status, two resellers. */
  const history = Array.from({ length: 300 }, (_, i) => order(i, i % 5 === 0 ? 'r-b' : 'r-a', now - i * 863_000 - (i % 13 === 0 ? 1 : 0), ORDER_STATUSES[i % 4]!));

  /** The counts as readers see them: summed over a key's rows (PostgreSQL's shards, migration 013). */
  const counted = async (db: Database['db']) => {
    const { rows } = await sql<{ reseller_id: string; hour: number | string; status: string; n: number | string }>`
      select reseller_id, hour, status, sum(n) as n from order_counts group by reseller_id, hour, status having sum(n) <> 0`.execute(db);
    return rows.map((r) => `${r.reseller_id} ${Number(r.hour)} ${r.status} ${Number(r.n)}`).sort();
  };
  const expected = async (db: Database['db']) => {
    const { rows } = await sql<{ reseller_id: string; h: number | string; status: string; n: number | string }>`
      select reseller_id, created_at / 3600000 as h, '*' as status, count(*) as n from orders group by reseller_id, created_at / 3600000
      union all
      select reseller_id, created_at / 3600000 as h, status, count(*) as n from orders where status <> 'processing' group by reseller_id, created_at / 3600000, status`.execute(db);
    return rows.map((r) => `${r.reseller_id} ${Number(r.h)} ${r.status} ${Number(r.n)}`).sort();
  };

  return {
    open, order, idOf, history, counted, expected, now,
    database: () => database,
    url: () => store!.url,
    store: () => store!,
    async close() {
      await database?.close();
      await store?.drop();
      database = undefined;
      store = undefined;
    },
  };
}

describe.each(storeKinds())('order counts with an all-orders row (%s)', (kind) => {
  const t = harness(kind);
  afterEach(() => t.close());
  const { open, order, idOf, history, counted, expected, now } = t;

  it('rewrites the counts of the stored orders and keeps them through every kind of change', async () => {
    const db = await open('011_ledger_drop_reseller_id_index');
    await db.insertInto('orders').values(history).execute();
    // Later migrations follow; these two come first.
    expect((await migrateToLatest(t.database()!)).slice(0, 2)).toEqual(['012_order_counts_all_row', '013_order_counts_shards']);
    expect(await counted(db)).toEqual(await expected(db));
    expect((await counted(db)).some((r) => r.includes(' processing '))).toBe(false);

    await db.insertInto('orders').values([order(1000, 'r-a', now + HOUR - 1, 'processing'), order(1001, 'r-b', now + HOUR, 'processing')]).execute();
    await db.updateTable('orders').set({ status: 'success' }).where('id', '=', idOf(1000)).execute();
    await db.updateTable('orders').set({ status: 'refunded' }).where('id', '=', idOf(1000)).execute();
    await db.updateTable('orders').set({ created_at: now - 5 * HOUR }).where('id', '=', idOf(1001)).execute(); // moves hours
    await db.updateTable('orders').set({ created_at: now - 5 * HOUR, status: 'failed' }).where('id', '=', idOf(8)).execute(); // both at once
    await db.updateTable('orders').set({ reseller_id: 'r-b', seq: 1_000_000 }).where('id', '=', idOf(1)).execute(); // moves reseller
    await db.deleteFrom('orders').where('id', 'in', [idOf(3), idOf(4)]).execute();
    expect(await counted(db)).toEqual(await expected(db));
  });

  it('counts every status filter exactly, over whole hours and partial edge hours', async () => {
    const db = await open();
    await db.insertInto('orders').values(history).execute();
    const repo = new OrderHistoryRepo(db);
    const subsets: (OrderStatus[] | null)[] = [null];
    for (let mask = 1; mask < 16; mask++) subsets.push(ORDER_STATUSES.filter((_, i) => mask & (1 << i)));
    const ranges: [number | null, number | null][] = [[null, null], [now - 40 * HOUR - 123_456, now - 3 * HOUR + 654_321], [now - 30 * HOUR, null]];
    for (const statuses of subsets) {
      for (const [from, to] of ranges) {
        let q = db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('reseller_id', '=', 'r-a');
        if (statuses) q = q.where('status', 'in', statuses);
        if (from !== null) q = q.where('created_at', '>=', from);
        if (to !== null) q = q.where('created_at', '<=', to);
        const direct = Number((await q.executeTakeFirstOrThrow()).n);
        expect(await repo.countMatching({ resellerId: 'r-a', statuses, from, to }), `${statuses} ${from} ${to}`).toBe(direct);
      }
    }
  });

});

/** The point of 012 on PostgreSQL, where concurrent transactions lock the rows they count into. */
describe.each(storeKinds().filter((k) => k === 'postgres'))('order counts: placing and settling share no row (%s)', (kind) => {
  const t = harness(kind);
  afterEach(() => t.close());
  const { open, order, idOf, counted, expected, now } = t;

  it('settling an order does not wait for an order being placed by the same reseller in the same hour', async () => {
    const db = await open();
    await db.insertInto('orders').values(order(1, 'r-a', now, 'processing')).execute();
    const placing = new pg.Client({ connectionString: t.url() });
    await placing.connect();
    try {
      await placing.query('begin');
      await placing.query(`insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, price, status, created_at, updated_at, checker_verified)
                           values ('00000000-0000-4000-8000-000000000002', 'r-a', 'm-2', 'P', 'P', 'g', '1', 1, 'processing', $1, $1, 0)`, [now + 1]);
      // The placing transaction holds its counts row until it commits; a settle touching
      // the same row would wait out the lock timeout.
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '500ms'`.execute(trx);
        await trx.updateTable('orders').set({ status: 'success' }).where('id', '=', idOf(1)).execute();
      });
      await placing.query('commit');
    } finally {
      await placing.end();
    }
    expect(await counted(db)).toEqual(await expected(db));
  });
});

/**
 * Migration 013 (PostgreSQL): a terminal status's count of an hour is spread over 16 rows
 * by the order's id, so one reseller's settlements do not queue on one row's lock; the
 * worker folds past hours back into shard 0.
 */
describe.each(storeKinds().filter((k) => k === 'postgres'))('order counts spread over shards (%s)', (kind) => {
  const t = harness(kind);
  afterEach(() => t.close());
  const { open, order, idOf, history, counted, expected, now } = t;
  const shardOf = async (db: Database['db'], i: number) => Number((await sql<{ s: number }>`select hashtext(${idOf(i)}) & 15 as s`.execute(db)).rows[0]!.s);
  /** Two orders, from `from` on, whose counts land in different shards. */
  const twoShards = async (db: Database['db'], from: number) => {
    const a = from;
    let b = from + 1;
    while ((await shardOf(db, b)) === (await shardOf(db, a))) b++;
    return [a, b] as const;
  };
  const rowsOf = async (db: Database['db'], status: string) =>
    (await db.selectFrom('order_counts').select(['hour', 'shard', 'n']).where('reseller_id', '=', 'r-a').where('status', '=', status).execute()).map((r) => ({ hour: Number(r.hour), shard: Number(r.shard), n: Number(r.n) }));

  it('keeps the sums exact across the migration, spreads one hour over shards, and folds past hours back into one row', async () => {
    const db = await open('012_order_counts_all_row');
    await db.insertInto('orders').values(history).execute(); // counted in one row each
    expect((await migrateToLatest(t.database()!)).slice(0, 1)).toEqual(['013_order_counts_shards']);
    expect(await counted(db)).toEqual(await expected(db));

    // Taken back from shards that never counted them: a row of −1 where needed, the sum exact.
    const settledBefore = history.filter((o) => o.status === 'success' && o.reseller_id === 'r-a').slice(0, 5);
    await db.updateTable('orders').set({ status: 'refunded' }).where('id', 'in', settledBefore.map((o) => o.id)).execute();
    await db.deleteFrom('orders').where('id', '=', history.find((o) => o.status === 'failed')!.id).execute();
    // Forty orders of one reseller and hour, settled.
    const fresh = Array.from({ length: 40 }, (_, i) => order(2000 + i, 'r-a', now - 3 * HOUR, 'processing'));
    await db.insertInto('orders').values(fresh).execute();
    await db.updateTable('orders').set({ status: 'success' }).where('id', 'in', fresh.map((o) => o.id)).execute();
    expect(await counted(db)).toEqual(await expected(db));
    const hour = Math.floor((now - 3 * HOUR) / HOUR);
    expect(new Set((await rowsOf(db, 'success')).filter((r) => r.hour === hour).map((r) => r.shard)).size).toBeGreaterThan(4);
    expect((await rowsOf(db, ALL_ORDERS)).every((r) => r.shard === 0)).toBe(true); // placing counts into one row

    // Folding keeps the last two hours' shards and folds the rest.
    const repo = new OrderHistoryRepo(db, 'postgres');
    expect(await repo.foldCountShards(now)).toBeGreaterThan(0);
    expect(await counted(db)).toEqual(await expected(db));
    const current = Math.floor(now / HOUR);
    expect((await rowsOf(db, 'success')).filter((r) => r.shard !== 0).every((r) => r.hour >= current - 1)).toBe(true);
    expect(await repo.foldCountShards(now)).toBe(0);
  });

  it('settling two orders of one reseller and hour does not wait when their counts are in different shards', async () => {
    const db = await open();
    const [a, b] = await twoShards(db, 1);
    await db.insertInto('orders').values([order(a, 'r-a', now, 'processing'), order(b, 'r-a', now, 'processing')]).execute();
    const settling = new pg.Client({ connectionString: t.url() });
    await settling.connect();
    try {
      await settling.query('begin');
      await settling.query(`update orders set status = 'success' where id = $1`, [idOf(a)]);
      // The first settlement holds its shard's row until it commits; the second would wait
      // out the lock timeout if it counted into the same row.
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '500ms'`.execute(trx);
        await trx.updateTable('orders').set({ status: 'success' }).where('id', '=', idOf(b)).execute();
      });
      await settling.query('commit');
    } finally {
      await settling.end();
    }
    expect(await counted(db)).toEqual(await expected(db));
  });

  it('a process running the worker folds past hours into one row', async () => {
    const db = await open();
    const past = now - 5 * HOUR;
    const orders = Array.from({ length: 30 }, (_, i) => order(4000 + i, 'r-a', past, 'processing'));
    await db.insertInto('orders').values(orders).execute();
    await db.updateTable('orders').set({ status: 'success' }).where('id', 'in', orders.map((o) => o.id)).execute();
    expect((await rowsOf(db, 'success')).length).toBeGreaterThan(1); // spread by the settlements
    const worker = await startTestApp(kind, { store: t.store(), seed: false, worker: true });
    try {
      await vi.waitFor(async () => expect((await rowsOf(db, 'success')).map((r) => [r.shard, r.n])).toEqual([[0, 30]]), { timeout: 5000, interval: 20 });
    } finally {
      await worker.close();
    }
  });

  it('a fold and a settlement counting into a row being folded stay exact', async () => {
    const db = await open();
    const past = now - 5 * HOUR;
    await db.insertInto('orders').values(Array.from({ length: 20 }, (_, i) => order(3000 + i, 'r-a', past, i < 10 ? 'success' : 'processing'))).execute();
    // An unsettled order whose shard already has a row (counted by a settled one).
    const settledShards = new Set(await Promise.all(Array.from({ length: 10 }, (_, i) => shardOf(db, 3000 + i))));
    let held = 3010;
    while (!settledShards.has(await shardOf(db, held))) held++;
    const settling = new pg.Client({ connectionString: t.url() });
    await settling.connect();
    try {
      await settling.query('begin');
      await settling.query(`update orders set status = 'success' where id = $1`, [idOf(held)]); // holds that row
      let folded = false;
      const folding = new OrderHistoryRepo(db, 'postgres').foldCountShards(now).then(() => (folded = true));
      await new Promise((r) => setTimeout(r, 200));
      expect(folded).toBe(false); // the fold waits for the row
      await settling.query('commit');
      await folding;
    } finally {
      await settling.end();
    }
    expect((await rowsOf(db, 'success')).every((r) => r.shard === 0)).toBe(true); // the held row's new count folded too
    const rest = Array.from({ length: 10 }, (_, i) => idOf(3010 + i)).filter((id) => id !== idOf(held));
    await db.updateTable('orders').set({ status: 'success' }).where('id', 'in', rest).execute(); // after the fold
    expect(await counted(db)).toEqual(await expected(db));
  });
});
