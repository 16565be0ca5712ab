import type { Kysely } from 'kysely';
import type { DB, ResellersTable } from './schema.js';

export type Tier = ResellersTable['tier'];
export type ResellerStatus = ResellersTable['status'];
export const TIERS: readonly Tier[] = ['gold', 'platinum', 'diamond'];

export interface ApiCredential {
  resellerId: string;
  tier: Tier;
  status: ResellerStatus;
  secretEnc: string;
  whitelist: string[];
}

export class ResellersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Everything the edge needs to authenticate one request, for a live (unrevoked) key. */
  async findCredential(apiKey: string): Promise<ApiCredential | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('resellers as r', 'r.id', 'k.reseller_id')
      .select(['r.id', 'r.tier', 'r.status', 'k.secret_enc'])
      .where('k.api_key', '=', apiKey)
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const ips = await this.db.selectFrom('ip_whitelist').select('ip').where('reseller_id', '=', row.id).execute();
    return { resellerId: row.id, tier: row.tier, status: row.status, secretEnc: row.secret_enc, whitelist: ips.map((i) => i.ip) };
  }

  async get(id: string) {
    return this.db.selectFrom('resellers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async create(r: { id: string; name: string; email: string; tier: Tier; status: ResellerStatus; callbackUrl?: string | null }, now: number) {
    await this.db
      .insertInto('resellers')
      .values({ id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status, balance: 0, callback_url: r.callbackUrl ?? null, created_at: now, updated_at: now })
      .execute();
  }

  async addApiKey(k: { id: string; resellerId: string; apiKey: string; secretEnc: string }, now: number) {
    await this.db
      .insertInto('api_keys')
      .values({ id: k.id, reseller_id: k.resellerId, api_key: k.apiKey, secret_enc: k.secretEnc, created_at: now, revoked_at: null })
      .execute();
  }

  async addWhitelistIp(resellerId: string, ip: string, now: number) {
    await this.db.insertInto('ip_whitelist').values({ reseller_id: resellerId, ip, created_at: now }).onConflict((oc) => oc.doNothing()).execute();
  }

  async setStatus(id: string, status: ResellerStatus, now: number) {
    await this.db.updateTable('resellers').set({ status, updated_at: now }).where('id', '=', id).execute();
  }

  async setTier(id: string, tier: Tier, now: number) {
    await this.db.updateTable('resellers').set({ tier, updated_at: now }).where('id', '=', id).execute();
  }
}
