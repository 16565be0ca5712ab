import { randomBytes } from 'node:crypto';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { expect } from 'vitest';
import type { ApiResponse } from './client.js';
import { ResellerClient } from './client.js';
import type { TestApp } from './app.js';
import { JsonClient } from './json-client.js';

FormatRegistry.Set('uuid', (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v));
FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)));

export const dashboardClient = (t: TestApp, token: string | null = null) => new JsonClient(`${t.origin}/dashboard/v1`, token);

export interface Account { client: JsonClient; id: string; email: string; password: string }

/** Registers a fresh account through the dashboard; the client keeps its session. */
export async function registerAccount(t: TestApp, name = 'Test Shop'): Promise<Account> {
  const email = `shop-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const client = dashboardClient(t);
  const r = await client.post('/auth/register', { name, email, password });
  if (r.status !== 200) throw new Error(`registration failed: ${r.text}`);
  client.token = r.body.data.token;
  return { client, id: r.body.data.reseller_id, email, password };
}

/**
 * What the operator's approval does (built elsewhere): active, and the demo catalog assigned.
 * balance in minor units.
 */
export async function approve(t: TestApp, resellerId: string, opts: { balance?: number } = {}) {
  const now = Date.now();
  await t.platform.repos.resellers.setStatus(resellerId, 'active', now);
  const { db } = t.platform.database;
  const catalog = await db.selectFrom('catalogs').select('id').where('name', '=', 'Demo catalog').executeTakeFirstOrThrow();
  await db.insertInto('reseller_catalogs').values({ reseller_id: resellerId, catalog_id: catalog.id }).execute();
  if (opts.balance) await t.platform.repos.ledger.adjust(resellerId, opts.balance, 'test opening balance', now);
}

/** Generates a key through the dashboard and returns a signed API v1 client for it. */
export async function generateKey(t: TestApp, c: JsonClient, body: Record<string, unknown> = {}) {
  const r = await c.post('/api-keys', body);
  expect(r.status, r.text).toBe(200);
  return { id: r.body.data.id as string, response: r, api: new ResellerClient(t.baseUrl, r.body.data.api_key, r.body.data.api_secret) };
}

/** A success envelope whose data (and meta) match the schema the route declared for the OpenAPI document. */
export function expectDeclared(t: TestApp, method: string, path: string, r: ApiResponse) {
  expect(r.status, r.text).toBe(200);
  expect(r.body.success).toBe(true);
  const route = t.platform.routes.of('dashboard').find((x) => x.method === method && x.path === `/dashboard/v1${path}`);
  expect(route, `${method} ${path} is declared`).toBeDefined();
  const errors = [...Value.Errors(route!.response, r.body.data)].map((e) => `${e.path} ${e.message}`);
  expect(errors, JSON.stringify(r.body.data)).toEqual([]);
  if (route!.paged) expect(Object.keys(r.body.meta).sort()).toEqual(['has_more', 'limit', 'page', 'total', 'total_pages']);
}

/** Everything of one reseller that the dashboard can change, to prove a refusal changed nothing. */
export async function accountState(t: TestApp, resellerId: string) {
  const { db } = t.platform.database;
  const [reseller, keys, ips, sessions] = await Promise.all([
    db.selectFrom('resellers').selectAll().where('id', '=', resellerId).executeTakeFirst(),
    db.selectFrom('api_keys').selectAll().where('reseller_id', '=', resellerId).orderBy('id').execute(),
    db.selectFrom('ip_whitelist').selectAll().where('reseller_id', '=', resellerId).orderBy('ip').execute(),
    db.selectFrom('sessions').select(['token_hash', 'expires_at']).where('subject_id', '=', resellerId).orderBy('token_hash').execute(),
  ]);
  return JSON.parse(JSON.stringify({ reseller, keys, ips, sessions }, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
}
