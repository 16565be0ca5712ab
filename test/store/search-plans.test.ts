import { SqliteQueryCompiler, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardReadsRepo } from '../../src/store/dashboard-reads-repo.js';
import { openDatabase, type Database } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { OperatorOrdersRepo } from '../../src/store/operator-orders-repo.js';
import { createTestStore, type TestStore } from '../support/stores.js';

/**
 * The order searches' plans on SQLite with the statistics of a 10,000,000-order table (as
 * ANALYZE leaves them after the bench seeds B5's history): no statement may walk the
 * orders reading each row (`SCAN o USING INDEX`), nor look rows up in a page through an
 * automatic index. The operator search once joined its page back to the orders and ordered
 * again; with these statistics SQLite walked every order for that order (seconds a page).
 */
const ORDERS = 10_000_000;
const RESELLERS = 101;

describe('order search plans on SQLite with a large table\'s statistics', () => {
  let store: TestStore;
  let database: Database;
  const seen: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery(args) {
      seen.push(new SqliteQueryCompiler().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    database = openDatabase(store.config);
    await migrateToLatest(database);
    const sqlite = database.sqlite!;
    sqlite.exec('analyze');
    sqlite.exec("delete from sqlite_stat1 where tbl = 'orders'");
    const stat = sqlite.prepare("insert into sqlite_stat1 (tbl, idx, stat) values ('orders', ?, ?)");
    const perReseller = Math.floor(ORDERS / RESELLERS);
    const indexes = sqlite.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'orders'").all() as { name: string; sql: string | null }[];
    for (const { name, sql } of indexes) {
      // A partial index holds only the flagged orders: a handful.
      if (sql?.includes(' where ')) stat.run(name, '10 1');
      else if (sql?.includes('"reseller_id"') || name === 'sqlite_autoindex_orders_2') stat.run(name, `${ORDERS} ${perReseller} 2 1 1`);
      else stat.run(name, `${ORDERS} 2 1`);
    }
    sqlite.exec('analyze sqlite_schema'); // loads the statistics into the planner
  });
  afterAll(async () => {
    await database?.close();
    await store?.drop();
  });

  async function plansOf(run: (db: Database['db']) => Promise<unknown>): Promise<string[]> {
    seen.length = 0;
    await run(database.db.withPlugin(capture));
    expect(seen.length).toBeGreaterThan(0);
    return seen.map((q) => (database.sqlite!.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n'));
  }

  const walksRows = (plan: string) => /SCAN o USING INDEX|AUTOMATIC (COVERING )?INDEX/.test(plan);

  it.each([
    ['every reseller, page 1', {}],
    ['every reseller, page 200', { offset: 9_950 }],
    ['one reseller, failed, 30 days', { resellerId: 'r1', statuses: ['failed' as const], from: Date.now() - 30 * 86_400_000, to: Date.now() }],
  ])('operator search: %s', async (_name, f) => {
    const plans = await plansOf((db) => new OperatorOrdersRepo(db).search({ resellerId: null, refId: null, statuses: null, from: null, to: null, needsAttention: null, limit: 50, offset: 0, ...f }));
    for (const plan of plans) expect(walksRows(plan), plan).toBe(false);
  });

  it.each([
    ['a ref_id prefix', { refPrefix: 'hist-99' }],
    ['a product', { productCode: 'FF-100' }],
  ])('dashboard search: %s over 30 days', async (_name, f) => {
    const search = { resellerId: 'r1', statuses: null, from: Date.now() - 30 * 86_400_000, to: Date.now(), productCode: null, refPrefix: null, ...f };
    const plans = await plansOf((db) => new DashboardReadsRepo(db, 'sqlite').searchOrders(search, { limit: 50, offset: 0 }, 10_000));
    for (const plan of plans) expect(walksRows(plan), plan).toBe(false);
  });
});
