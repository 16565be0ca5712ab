import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';
import { openDatabase, type Database } from '../../src/store/db.js';

/**
 * PostgreSQL reads outside transactions run as named (prepared) statements from their
 * second use (src/store/pg-prepared.ts). One pool connection, so every statement of
 * a test shares the session that pg_prepared_statements shows.
 */
describe.each(storeKinds().filter((k) => k === 'postgres'))('prepared statements (%s)', (kind) => {
  let store: TestStore;
  let database: Database;
  let db: Kysely<any>;
  beforeAll(async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config, { poolSize: 1 });
    db = database.db as unknown as Kysely<any>;
    await sql`create table t (id int primary key, v text)`.execute(db);
    await sql`insert into t values (1, 'one')`.execute(db);
  });
  afterAll(async () => {
    await database?.close();
    await store?.drop();
  });

  const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((r) => r.statement);
  const readOne = (marker: string) => db.selectFrom('t').select(['id', 'v']).where('id', '=', 1).where(sql.lit(marker), '=', marker).execute();

  it('names a read from its second use, with its values still bound as parameters', async () => {
    await readOne('second-use');
    expect((await prepared()).some((s) => s.includes('second-use'))).toBe(false);
    expect(await readOne('second-use')).toEqual([{ id: 1, v: 'one' }]);
    expect((await prepared()).filter((s) => s.includes('second-use'))).toHaveLength(1);
    // The same statement with other values uses the same prepared statement.
    expect(await db.selectFrom('t').select('v').where('id', '=', 2).where(sql.lit('second-use'), '=', 'second-use').execute()).toEqual([]);
    expect((await prepared()).filter((s) => s.includes('second-use'))).toHaveLength(1);
  });

  it('replaces a pool connection after its lifetime, so its prepared statements and their plans are made again', async () => {
    const short = openDatabase(store.config, { poolSize: 1, poolLifetimeSeconds: 1 });
    const sdb = short.db as unknown as Kysely<any>;
    try {
      const pid = async () => Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(sdb)).rows[0]!.pid);
      const first = await pid();
      for (let i = 0; i < 2; i++) await sdb.selectFrom('t').select('v').where(sql.lit('lifetime'), '=', 'lifetime').execute();
      await new Promise((r) => setTimeout(r, 1300));
      expect(await pid()).not.toBe(first);
      const named = await sql<{ n: number | string }>`select count(*) as n from pg_prepared_statements where statement like '%lifetime%'`.execute(sdb);
      expect(Number(named.rows[0]!.n)).toBe(0); // a new session: prepared again at its next use
    } finally {
      await short.close();
    }
  });

  it('never names a statement inside a transaction, however often it runs there', async () => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) await trx.selectFrom('t').select('v').where(sql.lit('in-trx'), '=', 'in-trx').execute();
    });
    expect((await prepared()).some((s) => s.includes('in-trx'))).toBe(false);
    // A transaction that failed ends like one that committed: the next statements are named again.
    await expect(db.transaction().execute(async (trx) => {
      await trx.selectFrom('t').select('v').where(sql.lit('failed-trx'), '=', 'failed-trx').execute();
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await readOne('after-trx');
    await readOne('after-trx');
    expect((await prepared()).some((s) => s.includes('after-trx'))).toBe(true);
  });

  it('a table that changed shape under a prepared statement (a migration while serving) is re-prepared, not an error', async () => {
    const all = () => db.selectFrom('t').selectAll().where('id', '=', 1).execute();
    await all();
    expect(await all()).toEqual([{ id: 1, v: 'one' }]);
    const other = new pg.Client({ connectionString: store.url });
    await other.connect();
    try {
      await other.query(`alter table t add column extra int default 7`);
    } finally {
      await other.end();
    }
    // Unhandled, PostgreSQL answers "cached plan must not change result type" here.
    expect(await all()).toEqual([{ id: 1, v: 'one', extra: 7 }]);
    expect(await all()).toEqual([{ id: 1, v: 'one', extra: 7 }]);
  });

  it('never names a write, nor a select that calls one of the store\'s functions (topup_place_orders writes)', async () => {
    await sql`create function topup_touch(x int) returns int language sql as 'select x'`.execute(db);
    for (let i = 0; i < 3; i++) {
      await db.updateTable('t').set({ v: 'one' }).where('id', '=', 1).where(sql.lit('a-write'), '=', 'a-write').execute();
      await sql`select topup_touch(${i}) as r, 'a-call' as marker`.execute(db);
    }
    const statements = await prepared();
    expect(statements.some((s) => s.includes('a-write') || s.includes('a-call'))).toBe(false);
  });

  it("a named statement's errors reach the caller as they are", async () => {
    const divide = () => sql`select 1 / ${0}::int as x, 'divide-marker' as marker`.execute(db);
    for (let i = 0; i < 2; i++) await expect(divide()).rejects.toMatchObject({ code: '22012' });
    expect((await prepared()).some((s) => s.includes('divide-marker'))).toBe(true);
  });
});
