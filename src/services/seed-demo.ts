import type { Kysely } from 'kysely';
import type { SecretBox } from '../adapters/secret-box.js';
import type { FormField } from '../store/catalog-repo.js';
import type { LedgerRepo } from '../store/ledger-repo.js';
import type { ResellersRepo, Tier } from '../store/resellers-repo.js';
import type { DB } from '../store/schema.js';
import { newApiCredentials } from './ids.js';
import type { Clock, IdGenerator } from './ports.js';

export interface DemoCredentials {
  resellerId: string;
  apiKey: string;
  apiSecret: string;
}

const accountId = (label: string, placeholder: string): FormField => ({ name: 'user_id', label, role: 'account_id', type: 'text', placeholder });

/** Demo games covering every shape the spec names. Prices are IDR (no minor units). */
const CATEGORIES: { slug: string; name: string; type: 'game' | 'voucher'; checker: boolean; form: FormField[] }[] = [
  { slug: 'free-fire', name: 'Free Fire', type: 'game', checker: true, form: [accountId('Player ID', '123456789')] },
  {
    slug: 'mobile-legends', name: 'Mobile Legends: Bang Bang', type: 'game', checker: true,
    form: [accountId('User ID', '12345678'), { name: 'zone_id', label: 'Zone ID', role: 'server', type: 'text', placeholder: '1234' }],
  },
  {
    slug: 'ragnarok-origin', name: 'Ragnarok Origin', type: 'game', checker: false,
    form: [
      accountId('Character ID', '4001234'),
      { name: 'region', label: 'Region', role: 'server', type: 'select', options: [{ value: 'sea', label: 'Southeast Asia' }, { value: 'eu', label: 'Europe' }] },
      { name: 'server', label: 'Server', role: 'server', type: 'select', options: [{ value: 'prontera-1', label: 'Prontera 1' }, { value: 'geffen-2', label: 'Geffen 2' }] },
    ],
  },
  { slug: 'valorant', name: 'VALORANT', type: 'game', checker: false, form: [accountId('Riot ID (name#tagline)', 'PlayerName#SEA1')] },
  { slug: 'steam-wallet', name: 'Steam Wallet Code', type: 'voucher', checker: false, form: [] },
];

const PRODUCTS: { code: string; name: string; category: string; kind: 'instant' | 'voucher'; limitGated?: boolean; gold: number }[] = [
  { code: 'FF-100', name: '100 Diamonds', category: 'free-fire', kind: 'instant', gold: 15_000 },
  { code: 'FF-310', name: '310 Diamonds', category: 'free-fire', kind: 'instant', gold: 45_000 },
  { code: 'ML-86', name: '86 Diamonds', category: 'mobile-legends', kind: 'instant', gold: 20_000 },
  { code: 'ML-172', name: '172 Diamonds', category: 'mobile-legends', kind: 'instant', gold: 40_000 },
  { code: 'ML-WDP', name: 'Weekly Diamond Pass', category: 'mobile-legends', kind: 'instant', limitGated: true, gold: 28_000 },
  { code: 'RO-60', name: '60 Nyan Berry', category: 'ragnarok-origin', kind: 'instant', gold: 14_000 },
  { code: 'VAL-475', name: '475 VP', category: 'valorant', kind: 'instant', gold: 55_000 },
  { code: 'STEAM-60K', name: 'Steam Wallet IDR 60,000', category: 'steam-wallet', kind: 'voucher', gold: 63_000 },
];

/** Higher tiers pay less: 3% and 5% below Gold, rounded to whole rupiah. */
const TIER_FACTOR: Record<Tier, number> = { gold: 1, platinum: 0.97, diamond: 0.95 };

export const DEMO_EMAIL = 'demo-reseller@example.com';
export const DEMO_BALANCE = 1_000_000;

/**
 * Seeds the demo: catalog, a sandbox supplier with a route for every product, and an
 * approved Gold reseller with a balance, whitelisted for 127.0.0.1 and ::1. Returns the
 * reseller's credentials (the secret exists in clear only here), or null if already seeded.
 */
export async function seedDemo(deps: { db: Kysely<DB>; resellers: ResellersRepo; ledger: LedgerRepo; secrets: SecretBox; clock: Clock; ids: IdGenerator }): Promise<DemoCredentials | null> {
  const { db, clock, ids } = deps;
  const existing = await db.selectFrom('resellers').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  if (existing) return null;
  const now = clock.now();

  await db.transaction().execute(async (trx) => {
    for (const [i, c] of CATEGORIES.entries()) {
      await trx.insertInto('categories').values({ slug: c.slug, name: c.name, type: c.type, form: JSON.stringify(c.form), checker_enabled: c.checker ? 1 : 0, sort_order: i, created_at: now })
        .onConflict((oc) => oc.doNothing()).execute();
    }
    const supplierId = ids.uuid();
    await trx.insertInto('suppliers').values({ id: supplierId, name: 'sandbox', adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: now }).execute();
    const catalogId = ids.uuid();
    await trx.insertInto('catalogs').values({ id: catalogId, name: 'Demo catalog', created_at: now }).execute();
    for (const [i, p] of PRODUCTS.entries()) {
      await trx.insertInto('products').values({ code: p.code, name: p.name, category_slug: p.category, kind: p.kind, limit_gated: p.limitGated ? 1 : 0, enabled: 1, sort_order: i, created_at: now })
        .onConflict((oc) => oc.doNothing()).execute();
      for (const tier of Object.keys(TIER_FACTOR) as Tier[]) {
        await trx.insertInto('catalog_prices').values({ catalog_id: catalogId, product_code: p.code, tier, price: Math.round(p.gold * TIER_FACTOR[tier]) }).execute();
      }
      await trx.insertInto('product_routes').values({ id: ids.uuid(), product_code: p.code, supplier_id: supplierId, supplier_sku: p.code.toLowerCase(), cost: Math.round(p.gold * 0.9), priority: 1, enabled: 1, created_at: now }).execute();
    }
  });

  const resellerId = ids.uuid();
  await deps.resellers.create({ id: resellerId, name: 'Demo Reseller', email: DEMO_EMAIL, tier: 'gold', status: 'active' }, now);
  const catalog = await db.selectFrom('catalogs').select('id').where('name', '=', 'Demo catalog').executeTakeFirstOrThrow();
  await db.insertInto('reseller_catalogs').values({ reseller_id: resellerId, catalog_id: catalog.id }).execute();
  const { apiKey, apiSecret } = newApiCredentials();
  await deps.resellers.addApiKey({ id: ids.uuid(), resellerId, apiKey, secretEnc: deps.secrets.seal(apiSecret) }, now);
  await deps.resellers.addWhitelistIp(resellerId, '127.0.0.1', now);
  await deps.resellers.addWhitelistIp(resellerId, '::1', now);
  await deps.ledger.adjust(resellerId, DEMO_BALANCE, 'Demo opening balance', now);
  return { resellerId, apiKey, apiSecret };
}
