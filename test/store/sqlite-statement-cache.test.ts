import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { createTestStore, type TestStore } from '../support/stores.js';

/**
 * Kysely's SQLite reads go through kept statements in raw mode, with row objects built by
 * a literal compiled per statement (sqlite-statement-cache.ts). The rows must be what
 * better-sqlite3 itself builds, and a kept `select *` must follow a schema change.
 */
describe('SQLite kept statements with compiled rows', () => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });

  it('builds the same row objects as better-sqlite3: values, nulls, key order, odd and repeated names', async () => {
    store = await createTestStore('sqlite');
    database = openDatabase(store.config);
    const { db, sqlite } = database;
    await sql.raw(`create table t (id integer primary key, name text, amount bigint, note text, "we""ird 'key\\" text)`).execute(db);
    await sql`insert into t values (1, 'a', 9007199254740991, null, 'x'), (2, 'b', -5, 'n', null)`.execute(db);
    const text = `select t.*, t.name as id, 1.5 as "half" from t order by id`;
    const kysely = await sql.raw(text).execute(db);
    const plain = sqlite!.prepare(text).all();
    expect(kysely.rows).toEqual(plain);
    expect(kysely.rows.map((r) => Object.keys(r as object))).toEqual(plain.map((r) => Object.keys(r as object)));
    // Kysely's query builder goes the same way, and a miss is undefined, not an empty row.
    expect(await db.selectFrom('t' as never).selectAll().where('id' as never, '=', 2 as never).executeTakeFirst()).toEqual(sqlite!.prepare('select * from t where id = 2').get());
    expect(await db.selectFrom('t' as never).selectAll().where('id' as never, '=', 3 as never).executeTakeFirst()).toBeUndefined();
  });

  it('a kept select * returns the columns of the current schema after a migration-style change', async () => {
    store = await createTestStore('sqlite');
    database = openDatabase(store.config);
    const { db } = database;
    await sql`create table t (id integer primary key, a text)`.execute(db);
    await sql`insert into t values (1, 'x')`.execute(db);
    const read = () => sql.raw('select * from t').execute(db).then((r) => r.rows);
    expect(await read()).toEqual([{ id: 1, a: 'x' }]);
    await sql`alter table t add column b text default 'y'`.execute(db);
    expect(await read()).toEqual([{ id: 1, a: 'x', b: 'y' }]);
    await sql`alter table t rename column a to c`.execute(db);
    expect(await read()).toEqual([{ id: 1, c: 'x', b: 'y' }]);
  });
});
