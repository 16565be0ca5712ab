import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../src/domain/order.js';
import { DashboardReadsRepo, type OrderSearch } from '../../src/store/dashboard-reads-repo.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * The dashboard's order search (product_code, ref_id prefix) reads by whichever walk is
 * bounded: the prefix's ref_id range, the newest orders of the range, or (a broad prefix
 * whose orders are all old) the whole range. Every walk must answer what the filter means,
 * identically on both stores: each answer is checked against the same search done in
 * memory. A cap of 5 makes every walk (and its budget of 2 × cap orders) reachable with a
 * small history.
 */
const CAP = 5;
const T0 = Date.UTC(2026, 10, 1);
const MIN = 60_000;

interface Row { id: string; ref: string; product: string; status: OrderStatus; at: number }

/** Oldest first: an old broad prefix (old-*), a recent broad one (new-*), a few rare ones, ties on created_at, characters outside ASCII. */
function history(): Row[] {
  const rows: Row[] = [];
  const statuses: OrderStatus[] = ['success', 'failed', 'processing', 'refunded'];
  const add = (ref: string, at: number) => {
    const i = rows.length;
    rows.push({ id: `00000000-0000-4000-8000-${(i * 7919 % 1000).toString(16).padStart(12, '0')}`, ref, product: i % 3 === 0 ? 'ML-86' : 'FF-100', status: statuses[i % 4]!, at });
  };
  for (let i = 0; i < 12; i++) add(`old-${i}`, T0 + i * MIN);
  for (let i = 0; i < 30; i++) add(`mid-${i}`, T0 + (20 + i) * MIN);
  for (const ref of ['Rare-1', 'rare-2', '🎮-é-1', '🎮-e-2', 'é']) add(ref, T0 + 60 * MIN);
  for (let i = 0; i < 14; i++) add(`new-${i}`, T0 + (70 + Math.floor(i / 2)) * MIN);
  return rows;
}

function oracle(rows: Row[], f: OrderSearch) {
  return rows
    .filter((r) => (f.statuses ? f.statuses.includes(r.status) : true) && (f.from === null || r.at >= f.from) && (f.to === null || r.at <= f.to))
    .filter((r) => (f.productCode === null || r.product === f.productCode) && (f.refPrefix === null || r.ref.startsWith(f.refPrefix)))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((r) => r.ref);
}

describe.each(storeKinds())('dashboard order search: every walk answers the filter (%s)', (kind) => {
  let store: TestStore;
  let database: Database;
  let repo: DashboardReadsRepo;
  const rows = history();

  beforeAll(async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    await migrateToLatest(database);
    const { db } = database;
    for (const id of ['r-a', 'r-b']) {
      await db.insertInto('resellers').values({ id, name: id, email: `${id}@x.test`, tier: 'gold', status: 'active', balance: 0, callback_url: null, created_at: T0, updated_at: T0 }).execute();
    }
    const row = (r: Row, resellerId: string, id = r.id) => ({
      id, reseller_id: resellerId, ref_id: r.ref, product_code: r.product, product_name: r.product, category_slug: 'g', target: '1', zone: null, price: 1,
      status: r.status, serial_number: null, failure_code: null, failure_reason: null, created_at: r.at, completed_at: null, updated_at: r.at,
    });
    await db.insertInto('orders').values(rows.map((r) => row(r, 'r-a'))).execute();
    // Another reseller's orders with the same refs and times stay out of every answer.
    await db.insertInto('orders').values(rows.map((r, i) => row(r, 'r-b', `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`))).execute();
    repo = new DashboardReadsRepo(db, database.dialect);
  });
  afterAll(async () => {
    await database?.close();
    await store?.drop();
  });

  const searches: [string, Partial<OrderSearch>][] = [
    ['a rare prefix (its range is read and sorted)', { refPrefix: 'old-3' }],
    ['a prefix at the cap, ties on created_at', { refPrefix: 'new-1' }],
    ['a prefix just past the cap, none among the newest', { refPrefix: 'mid-2' }],
    ['a broad prefix common among the newest (the newest orders are walked)', { refPrefix: 'new-' }],
    ['a broad prefix whose orders are all old (past the walk budget: the range is read)', { refPrefix: 'old-' }],
    ['a broad prefix with a status', { refPrefix: 'mid-', statuses: ['success', 'failed'] }],
    ['a broad prefix and a product', { refPrefix: 'mid-', productCode: 'FF-100' }],
    ['a prefix and a date range', { refPrefix: 'mid-', from: T0 + 25 * MIN, to: T0 + 40 * MIN }],
    ['case matters', { refPrefix: 'rare' }],
    ['characters outside ASCII (one outside the BMP)', { refPrefix: '🎮-é' }],
    ['a prefix that is a whole ref_id', { refPrefix: 'é' }],
    ['no match', { refPrefix: 'zzz' }],
    ['a product alone', { productCode: 'ML-86' }],
    ['a product with a status and a range', { productCode: 'FF-100', statuses: ['success'], from: T0 + 30 * MIN, to: null }],
  ];

  it.each(searches)('%s', async (_name, partial) => {
    const f: OrderSearch = { resellerId: 'r-a', statuses: null, from: null, to: null, productCode: null, refPrefix: null, ...partial };
    const expected = oracle(rows, f);
    for (const limit of [1, 2, 3]) {
      for (let offset = 0; offset + limit <= CAP; offset += limit) {
        const r = await repo.searchOrders(f, { limit, offset }, CAP);
        expect(r.orders.map((o) => o.refId), `limit ${limit} offset ${offset}`).toEqual(expected.slice(offset, Math.min(offset + limit, CAP)));
        expect(r.orders.every((o) => o.resellerId === 'r-a')).toBe(true);
        expect({ total: r.total, capped: r.capped }).toEqual({ total: Math.min(expected.length, CAP), capped: expected.length > CAP });
      }
    }
    const exported = await repo.exportOrders(f, CAP);
    expect(exported.orders.map((o) => o.refId)).toEqual(expected.slice(0, CAP));
    expect(exported.truncated).toBe(expected.length > CAP);
  });
});
