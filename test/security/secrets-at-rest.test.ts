import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { storeKinds } from '../support/stores.js';

/** Every row of every table, as text: what someone holding a copy of the database could read. */
async function everyRow(t: TestApp): Promise<string> {
  const { db, dialect } = t.platform.database;
  const tables =
    dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(db)).rows.map((r) => r.name);
  expect(tables).toEqual(expect.arrayContaining(['api_keys', 'suppliers', 'operators', 'sessions', 'resellers']));
  let text = '';
  for (const table of tables) text += JSON.stringify((await sql`select * from ${sql.table(table)}`.execute(db)).rows);
  return text;
}

describe.each(storeKinds())('secrets at rest (%s)', (kind) => {
  let t: TestApp;
  const secrets: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp(kind);
    const p = t.platform;
    secrets['demo API secret'] = t.demo.apiSecret;
    const upstreamSecret = `up_${randomBytes(24).toString('base64url')}`;
    await p.operator.supply.addUpstreamV1({
      name: 'Upstream at rest', baseUrl: 'https://upstream.example/api/v1', apiKey: 'tk_upstream', apiSecret: upstreamSecret,
    }, 'cli');
    secrets['supplier API secret'] = upstreamSecret;
    const operator = await p.operator.operators.ensureFirst();
    secrets['operator password'] = operator!.password;
    const session = await p.core.sessions.signIn('operator', operator!.email, operator!.password, '127.0.0.1');
    secrets['session token'] = 'session' in session ? session.session.token : '';
  });
  afterAll(async () => t?.close());

  it('no secret is stored in clear in any row: API secrets and supplier credentials sealed, passwords and tokens hashed', async () => {
    const rows = await everyRow(t);
    for (const [what, secret] of Object.entries(secrets)) expect(rows.includes(secret), what).toBe(false);
    // The sealed forms are there (so the scan looked at the right rows), and they open again.
    const key = await t.platform.database.db.selectFrom('api_keys').select('secret_enc').where('reseller_id', '=', t.demo.resellerId).executeTakeFirstOrThrow();
    expect(key.secret_enc).toMatch(/^v1\./);
    expect(t.platform.secrets.open(key.secret_enc)).toBe(t.demo.apiSecret);
    expect(rows).toContain('scrypt$');
  });

  if (kind === 'sqlite') it('the database files themselves do not contain them', async () => {
    const file = t.store.url.slice('sqlite:'.length);
    const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.length).toBeGreaterThan(0);
    for (const [what, secret] of Object.entries(secrets)) expect(bytes.includes(Buffer.from(secret)), what).toBe(false);
    expect(bytes.includes(Buffer.from('tk_upstream'))).toBe(false); // the supplier's key is inside the sealed JSON too
  });

  it('a sealed secret cannot be opened with another master key', async () => {
    const { createSecretBox } = await import('../../src/adapters/secret-box.js');
    const sealed = t.platform.secrets.seal('ts_example');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
