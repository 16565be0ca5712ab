import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { LedgerRepo } from '../../src/store/ledger-repo.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrate.js';
import { OrdersRepo } from '../../src/store/orders-repo.js';
import { isUniqueViolation } from '../../src/store/unique-violation.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * Migration 009 keys "one debit and at most one refund per order" by the order's
 * per-reseller seq instead of its random id: the entries already stored get their order's
 * seq, the store still refuses a second refund, an order's entry without its seq, and a
 * seq without an order; every writer of an order's entry sets it; no ledger index is
 * keyed by the order id any more (the random-keyed page each order wrote).
 */
describe.each(storeKinds())('migrations 009 and 011: the ledger keyed by order seq (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  const now = Date.UTC(2026, 10, 24, 9);
  const orderRow = (i: number, seq: number) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reseller_id: 'r-a', ref_id: `m-${i}`, product_code: 'P', product_name: 'P',
    category_slug: 'g', target: '1', zone: null, price: 100, status: 'processing' as const, serial_number: null, failure_code: null,
    failure_reason: null, created_at: now, completed_at: null, updated_at: now, checker_verified: 0, seq,
  });
  const entries = async (db: Database['db']) =>
    (await db.selectFrom('ledger_entries').select(['id', 'type', 'order_id', 'order_seq', 'seq']).orderBy('id').execute())
      .map((r) => ({ id: Number(r.id), type: r.type, orderId: r.order_id, orderSeq: r.order_seq === null ? null : Number(r.order_seq), seq: Number(r.seq) }));
  const refused = async (write: Promise<unknown>) => {
    try {
      await write;
    } catch (e) {
      if (isUniqueViolation(e)) return 'unique';
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514') return 'check';
      throw e;
    }
    return 'written';
  };

  it('gives the stored entries their order seq and keeps every per-order rule', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateTo(database, '008_hourly_order_counts');
    await db.insertInto('resellers').values({ id: 'r-a', name: 'a', email: 'a@x.test', tier: 'gold', status: 'active', balance: 10_000, callback_url: null, created_at: now, updated_at: now, order_seq: 2, ledger_seq: 4 }).execute();
    await db.insertInto('orders').values([orderRow(1, 1), orderRow(2, 2)]).execute();
    const entry = (type: 'order_debit' | 'order_refund' | 'credit', orderId: string | null, seq: number) =>
      ({ reseller_id: 'r-a', type, amount: type === 'order_debit' ? -100 : 100, balance_after: 10_000, order_id: orderId, note: null, created_at: now, seq });
    // Written before 009 (no order_seq column yet).
    await db.insertInto('ledger_entries').values([entry('credit', null, 1), entry('order_debit', orderRow(1, 1).id, 2), entry('order_debit', orderRow(2, 2).id, 3), entry('order_refund', orderRow(2, 2).id, 4)] as never).execute();

    expect(await migrateTo(database, '009_ledger_order_seq')).toEqual(['009_ledger_order_seq']);
    expect(await entries(db)).toEqual([
      { id: 1, type: 'credit', orderId: null, orderSeq: null, seq: 1 },
      { id: 2, type: 'order_debit', orderId: orderRow(1, 1).id, orderSeq: 1, seq: 2 },
      { id: 3, type: 'order_debit', orderId: orderRow(2, 2).id, orderSeq: 2, seq: 3 },
      { id: 4, type: 'order_refund', orderId: orderRow(2, 2).id, orderSeq: 2, seq: 4 },
    ]);

    const add = (v: Record<string, unknown>) => db.insertInto('ledger_entries').values({ ...entry('order_refund', orderRow(2, 2).id, 0), seq: undefined, ...v } as never).execute();
    // A second refund of order 2: refused by the store.
    expect(await refused(add({ order_seq: 2 }))).toBe('unique');
    // An order's entry without its seq, or a seq without an order: refused.
    expect(await refused(add({ order_id: orderRow(1, 1).id, order_seq: null }))).toBe('check');
    expect(await refused(add({ order_id: null, order_seq: 1 }))).toBe('check');
    // The first refund of order 1 is written, numbered by the seq trigger (rebuilt on SQLite).
    expect(await refused(add({ order_id: orderRow(1, 1).id, order_seq: 1 }))).toBe('written');
    const last = (await entries(db)).at(-1)!;
    expect(last).toMatchObject({ type: 'order_refund', orderSeq: 1, seq: 5 });
    // Migration 034 rebuilds the SQLite ledger again: every entry kept as it was.
    const before = await entries(db);
    await migrateToLatest(database);
    expect(await entries(db)).toEqual(before);
    // The next credit keeps numbering after the rebuilt table's ids.
    await new LedgerRepo(db).adjust('r-a', 500, 'top-up', now);
    expect((await entries(db)).at(-1)).toMatchObject({ id: last.id + 1, type: 'credit', orderSeq: null, seq: 6 });

    expect((await new LedgerRepo(db).forOrder(orderRow(2, 2).id)).map((e) => e.type)).toEqual(['order_debit', 'order_refund']);
    expect((await ledgerIndexes(database)).map((i) => i.leading)).not.toContain('order_id');
  });

  it("every order path writes the order's seq on its debit (the group statements, topup_place_orders)", async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateToLatest(database);
    await db.insertInto('resellers').values({ id: 'r-a', name: 'a', email: 'a@x.test', tier: 'gold', status: 'active', balance: 10_000, callback_url: null, created_at: now, updated_at: now }).execute();
    const repo = new OrdersRepo(db, { maxSize: 8, concurrency: 1 }, { dialect: kind, sqlite: database.sqlite });
    const place = (ref: string) => repo.placeWithDebit({ id: randomUUID(), resellerId: 'r-a', refId: ref, productCode: 'P', productName: 'P', categorySlug: 'g', target: '1', zone: null, price: 100, checkerVerified: false }, now);
    await Promise.all(['a', 'b', 'c'].map(place));
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ledger_entries l join orders o on o.id = l.order_id where l.order_seq = o.seq and l.type = 'order_debit'`.execute(db);
    expect(Number(rows[0]!.n)).toBe(3);
  });

  it('migration 011: no (reseller_id, id) index beside (reseller_id, seq): one index entry less per ledger row', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateTo(database, '010_cache_version_notify');
    expect((await ledgerIndexes(database)).map((i) => i.name)).toContain('ledger_reseller_id');
    await migrateToLatest(database);
    const names = (await ledgerIndexes(database)).map((i) => i.name);
    expect(names).not.toContain('ledger_reseller_id');
    expect(names).toContain('ledger_reseller_seq');
  });
});

/** Every index on ledger_entries: its name and its first column. */
async function ledgerIndexes(database: Database): Promise<{ name: string; leading: string }[]> {
  if (database.sqlite) {
    const indexes = database.sqlite.prepare(`select name from pragma_index_list('ledger_entries')`).all() as { name: string }[];
    return indexes.map(({ name }) => ({ name, leading: (database.sqlite!.prepare(`select name from pragma_index_info(?) where seqno = 0`).get(name) as { name: string }).name }));
  }
  const { rows } = await sql<{ name: string; leading: string }>`
    select c.relname as name, a.attname as leading from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
    where i.indrelid = 'ledger_entries'::regclass`.execute(database.db);
  return rows;
}
