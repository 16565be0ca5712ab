import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StoreConfig } from '../../src/config.js';
import { createSecretBox } from '../../src/adapters/secret-box.js';
import { newApiCredentials } from '../../src/services/ids.js';
import { ResellersRepo } from '../../src/store/resellers-repo.js';
import { LedgerRepo } from '../../src/store/ledger-repo.js';
import { openDatabase } from '../../src/store/db.js';
import { MASTER_KEY, PG_ADMIN } from './config.js';
import type { Creds } from './load.js';
import { scratchDir } from './processes.js';

/** A scratch store for one run: a SQLite file, or a PostgreSQL database of its own. */
export async function scratchStore(kind: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), `topup-bench-${kind}-`));
  const scratch = scratchDir(dataDir);
  if (kind === 'sqlite') {
    const store: StoreConfig = { kind, file: path.join(dataDir, 'bench.sqlite') };
    return { store, dataDir, keep: scratch.keep, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `topup_bench_${Date.now()}`;
  await pgQuery(PG_ADMIN, `create database ${name}`);
  // Calls of plpgsql functions counted per function (pg_stat_user_functions): B1-pg reads
  // how many groups the service committed (one topup_place_orders call each).
  await pgQuery(PG_ADMIN, `alter database ${name} set track_functions = 'pl'`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  const store: StoreConfig = { kind, url: url.toString() };
  return {
    store, dataDir, keep: scratch.keep,
    drop: async () => {
      await pgQuery(PG_ADMIN, `drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function pgQuery<R = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {}); // surfaced by the failing query instead of crashing the run
  await c.connect();
  try {
    return (await c.query(text, values)).rows as R[];
  } finally {
    await c.end();
  }
}

export const vacuum = (url: string) => pgQuery(url, 'vacuum analyze');

/** A big balance and 60 more products in the demo catalog, straight through the store. */
export async function prepare(store: StoreConfig) {
  const db = openDatabase(store);
  try {
    const r = await db.db.selectFrom('resellers').select('id').where('email', '=', 'demo-reseller@example.com').executeTakeFirstOrThrow();
    await new LedgerRepo(db.db).adjust(r.id, 1_000_000_000_000, 'bench balance', Date.now());
    const catalog = await db.db.selectFrom('catalogs').select('id').executeTakeFirstOrThrow();
    const supplier = await db.db.selectFrom('suppliers').select('id').executeTakeFirstOrThrow();
    for (let i = 0; i < 60; i++) {
      const code = `BENCH-${String(i).padStart(3, '0')}`;
      await db.db.insertInto('products').values({ code, name: `Bench ${i}`, category_slug: 'free-fire', kind: 'instant', limit_gated: 0, enabled: 1, sort_order: 100 + i, created_at: Date.now() }).execute();
      await db.db.insertInto('catalog_prices').values(['gold', 'platinum', 'diamond'].map((tier) => ({ catalog_id: catalog.id, product_code: code, tier: tier as 'gold', price: 1000 + i }))).execute();
      await db.db.insertInto('product_routes').values({ id: randomUUID(), product_code: code, supplier_id: supplier.id, supplier_sku: code, cost: 900, priority: 1, enabled: 1, created_at: Date.now() }).execute();
    }
    return r.id;
  } finally {
    await db.close();
  }
}

/** More resellers like the demo one (Gold, demo catalog, whitelisted for loopback, a big balance). */
export async function addResellers(store: StoreConfig, n: number, baseUrl: string): Promise<Creds[]> {
  const db = openDatabase(store);
  const box = createSecretBox(Buffer.from(MASTER_KEY, 'hex'));
  const resellers = new ResellersRepo(db.db);
  const ledger = new LedgerRepo(db.db);
  try {
    const catalog = await db.db.selectFrom('catalogs').select('id').executeTakeFirstOrThrow();
    const out: Creds[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const now = Date.now();
      await resellers.create({ id, name: `Bench ${i}`, email: `bench-${i}-${id.slice(0, 8)}@example.com`, tier: 'gold', status: 'active' }, now);
      const { apiKey, apiSecret } = newApiCredentials();
      await resellers.addApiKey({ id: randomUUID(), resellerId: id, apiKey, secretEnc: box.seal(apiSecret) }, now);
      for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) await resellers.addWhitelistIp(id, ip, now);
      await db.db.insertInto('reseller_catalogs').values({ reseller_id: id, catalog_id: catalog.id }).execute();
      await ledger.adjust(id, 1_000_000_000_000, 'bench balance', now);
      out.push({ baseUrl, apiKey, apiSecret, resellerId: id });
    }
    return out;
  } finally {
    await db.close();
  }
}

/**
 * A dashboard session for the reseller, written into the store as sign-in would (the bench
 * seeds its history the same way): the token's sha256 is what the service looks up.
 */
export async function openDashboardSession(store: StoreConfig, resellerId: string): Promise<string> {
  const token = `rss_bench_${randomUUID()}`;
  const row = [createHash('sha256').update(token).digest('hex'), 'reseller', resellerId, Date.now(), Date.now() + 3_600_000];
  const insert = 'insert into sessions (token_hash, subject_kind, subject_id, created_at, expires_at) values ';
  if (store.kind === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(store.file);
    db.prepare(`${insert}(?, ?, ?, ?, ?)`).run(...row);
    db.close();
  } else {
    await pgQuery(store.url, `${insert}($1, $2, $3, $4, $5)`, row);
  }
  return token;
}
