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
  /** A key being rotated out stops working at this time without any write (null: no end). */
  expiresAt: number | null;
}

export class ResellersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Everything the edge needs to authenticate one request, for a live key: unrevoked, or
   * revoked at a future time (a rotated key stays usable until its overlap ends).
   */
  async findCredential(apiKey: string, now: number): Promise<ApiCredential | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('resellers as r', 'r.id', 'k.reseller_id')
      .select(['r.id', 'r.tier', 'r.status', 'k.secret_enc', 'k.revoked_at'])
      .where('k.api_key', '=', apiKey)
      .where((eb) => eb.or([eb('k.revoked_at', 'is', null), eb('k.revoked_at', '>', now)]))
      .executeTakeFirst();
    if (!row) return null;
    const ips = await this.db.selectFrom('ip_whitelist').select('ip').where('reseller_id', '=', row.id).execute();
    return {
      resellerId: row.id, tier: row.tier, status: row.status, secretEnc: row.secret_enc, whitelist: ips.map((i) => i.ip),
      expiresAt: row.revoked_at === null ? null : Number(row.revoked_at),
    };
  }

  async get(id: string) {
    return this.db.selectFrom('resellers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** passwordHash: dashboard sign-in (self-registration); absent for operator-made accounts. */
  async create(r: { id: string; name: string; email: string; tier: Tier; status: ResellerStatus; callbackUrl?: string | null; passwordHash?: string }, now: number) {
    await this.db
      .insertInto('resellers')
      .values({
        id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status, balance: 0, callback_url: r.callbackUrl ?? null, created_at: now, updated_at: now,
        ...(r.passwordHash ? { password_hash: r.passwordHash } : {}),
      })
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

  /** A reseller's API keys, newest first; secrets stay sealed and are not read here. */
  async apiKeysOf(resellerId: string) {
    return this.db.selectFrom('api_keys').select(['id', 'api_key', 'created_at', 'revoked_at']).where('reseller_id', '=', resellerId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /**
   * Adds a key and, in the same transaction, sets every other live key of the reseller to stop
   * at revokeAt (never later than already set). Joins the caller's transaction when given one.
   */
  /** Adds a key and ends the others at `revokeAt`; resolves to how many keys it ended (0 for a first key). */
  async addApiKeyRevokingOthers(k: { id: string; resellerId: string; apiKey: string; secretEnc: string }, revokeAt: number, now: number): Promise<number> {
    const inTransaction = <T>(fn: (trx: Kysely<DB>) => Promise<T>) => (this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn));
    return inTransaction(async (trx) => {
      const ended = await trx
        .updateTable('api_keys')
        .set({ revoked_at: revokeAt })
        .where('reseller_id', '=', k.resellerId)
        .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', revokeAt)]))
        .executeTakeFirst();
      await trx.insertInto('api_keys').values({ id: k.id, reseller_id: k.resellerId, api_key: k.apiKey, secret_enc: k.secretEnc, created_at: now, revoked_at: null }).execute();
      return Number(ended.numUpdatedRows);
    });
  }

  /** Revokes one key of one reseller at `at`; false when the reseller has no such key. */
  async revokeApiKey(resellerId: string, keyId: string, at: number): Promise<boolean> {
    const res = await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('reseller_id', '=', resellerId).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async whitelistOf(resellerId: string) {
    return this.db.selectFrom('ip_whitelist').select(['ip', 'created_at']).where('reseller_id', '=', resellerId).orderBy('created_at').orderBy('ip').execute();
  }

  /** false when the address was not in the reseller's whitelist. */
  async removeWhitelistIp(resellerId: string, ip: string): Promise<boolean> {
    const res = await this.db.deleteFrom('ip_whitelist').where('reseller_id', '=', resellerId).where('ip', '=', ip).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
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
