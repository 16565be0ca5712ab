import { sql, type Kysely } from 'kysely';
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

  async byEmail(email: string) {
    return this.db.selectFrom('resellers').selectAll().where('email', '=', email).executeTakeFirst();
  }

  private searched(f: ResellerSearch) {
    let q = this.db.selectFrom('resellers');
    if (f.text) {
      const like = `%${f.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([
        eb(eb.fn('lower', ['name']), 'like', sql<string>`${like} escape '\\'`),
        eb(eb.fn('lower', ['email']), 'like', sql<string>`${like} escape '\\'`),
      ]));
    }
    if (f.status) q = q.where('status', '=', f.status);
    if (f.tier) q = q.where('tier', '=', f.tier);
    return q;
  }

  /** Operator search: newest first, ties by id so pages are stable. */
  async search(f: ResellerSearch & { limit: number; offset: number }) {
    const [rows, count] = await Promise.all([
      this.searched(f)
        .select(['id', 'name', 'email', 'tier', 'status', 'balance', 'callback_url', 'created_at', 'updated_at'])
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
      this.searched(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => ({ ...r, balance: Number(r.balance), created_at: Number(r.created_at), updated_at: Number(r.updated_at) })), total: Number(count.n) };
  }

  /** API keys of a reseller, oldest first; the sealed secret is never read here. */
  async apiKeys(resellerId: string) {
    return this.db.selectFrom('api_keys').select(['id', 'api_key', 'created_at', 'revoked_at']).where('reseller_id', '=', resellerId).orderBy('created_at').orderBy('id').execute();
  }

  async whitelist(resellerId: string): Promise<string[]> {
    return (await this.db.selectFrom('ip_whitelist').select('ip').where('reseller_id', '=', resellerId).orderBy('ip').execute()).map((r) => r.ip);
  }

  async catalogs(resellerId: string) {
    return this.db
      .selectFrom('reseller_catalogs as rc')
      .innerJoin('catalogs as c', 'c.id', 'rc.catalog_id')
      .select(['c.id', 'c.name'])
      .where('rc.reseller_id', '=', resellerId)
      .orderBy('c.name')
      .execute();
  }

  /**
   * Sets status and/or tier only while the status is one of `from` (a guarded update, so
   * concurrent transitions cannot both win). Returns whether the row changed.
   */
  async transition(id: string, from: readonly ResellerStatus[], patch: { status?: ResellerStatus; tier?: Tier }, now: number): Promise<boolean> {
    const res = await this.db.updateTable('resellers').set({ ...patch, updated_at: now }).where('id', '=', id).where('status', 'in', [...from]).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}

export interface ResellerSearch {
  /** Part of the name or email, case-insensitive. */
  text?: string;
  status?: ResellerStatus;
  tier?: Tier;
}
