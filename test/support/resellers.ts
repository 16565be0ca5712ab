import { randomBytes, randomUUID } from 'node:crypto';
import type { Platform } from '../../src/main.js';
import { newApiCredentials } from '../../src/services/ids.js';
import type { ResellerStatus, Tier } from '../../src/store/resellers-repo.js';
import { ResellerClient } from './client.js';

/**
 * Creates a reseller straight through the repositories (the operator API is tested on its
 * own), assigned to the demo catalog, and returns a signed client for it.
 */
export async function createReseller(
  platform: Platform,
  baseUrl: string,
  opts: { tier?: Tier; status?: ResellerStatus; whitelist?: string[]; balance?: number; catalog?: boolean } = {},
): Promise<{ id: string; client: ResellerClient; apiKey: string; apiSecret: string }> {
  const { resellers, ledger } = platform.repos;
  const { db } = platform.database;
  const now = Date.now();
  const id = randomUUID();
  await resellers.create({ id, name: `Reseller ${id.slice(0, 8)}`, email: `r-${randomBytes(4).toString('hex')}@example.com`, tier: opts.tier ?? 'gold', status: opts.status ?? 'active' }, now);
  const { apiKey, apiSecret } = newApiCredentials();
  await resellers.addApiKey({ id: randomUUID(), resellerId: id, apiKey, secretEnc: platform.secrets.seal(apiSecret) }, now);
  for (const ip of opts.whitelist ?? ['127.0.0.1', '::1']) await resellers.addWhitelistIp(id, ip, now);
  if (opts.catalog !== false) {
    const catalog = await db.selectFrom('catalogs').select('id').where('name', '=', 'Demo catalog').executeTakeFirstOrThrow();
    await db.insertInto('reseller_catalogs').values({ reseller_id: id, catalog_id: catalog.id }).execute();
  }
  if (opts.balance) await ledger.adjust(id, opts.balance, 'test opening balance', now);
  return { id, apiKey, apiSecret, client: new ResellerClient(baseUrl, apiKey, apiSecret) };
}

/**
 * Row counts that a refused request must leave unchanged. Jobs are not counted: a running
 * worker deletes finished ones, and a job only ever commits together with its order.
 */
export async function stateSnapshot(platform: Platform) {
  const { db } = platform.database;
  const count = async (t: 'orders' | 'ledger_entries') => Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const balances = await db.selectFrom('resellers').select(['id', 'balance']).orderBy('id').execute();
  return { orders: await count('orders'), ledger: await count('ledger_entries'), balances: balances.map((b) => `${b.id}:${b.balance}`) };
}
