import { maskApiKey } from '../../domain/api-key.js';
import { parsePage, type Page } from '../../domain/list-query.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { MESSAGE_PATHS } from '../notifier.js';
import { isUniqueViolation } from '../../store/db.js';
import { ResellersRepo, TIERS, type ResellerStatus, type Tier } from '../../store/resellers-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;
const STATUSES: readonly ResellerStatus[] = ['pending', 'active', 'suspended'];
const MAX_SEARCH = 100;

/** What the audit log keeps of a reseller: never secrets (no keys, no password hash). */
export interface ResellerSnapshot {
  name: string;
  email: string;
  tier: Tier;
  status: ResellerStatus;
}

/** A key as the operator may see it after creation: enough to recognise it, not to use it. */

/**
 * The operator's reseller accounts: search, view, create, approve, tier, suspend and
 * reactivate. Every change is a status-guarded update with its audit line in the same
 * transaction. Suspension works at once on API v1 because the edge reads the status on
 * every request.
 */
export class ManageResellers {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'clock' | 'ids' | 'notifier'>) {}

  async search(q: { q?: string; status?: string; tier?: string; page?: string; limit?: string }) {
    const page: Page = parsePage(q);
    const text = q.q?.trim() ?? '';
    if (text.length > MAX_SEARCH) throw new AppError('VALIDATION_ERROR', `q must be at most ${MAX_SEARCH} characters`);
    const status = q.status ? oneOf(q.status, STATUSES, 'status') : undefined;
    const tier = q.tier ? oneOf(q.tier, TIERS, 'tier') : undefined;
    const { rows, total } = await this.core.repos.resellers.search({ text: text || undefined, status, tier, limit: page.limit, offset: page.offset });
    const items = rows.map((r) => ({
      id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status, balance: r.balance, callbackUrl: r.callback_url, createdAt: r.created_at, updatedAt: r.updated_at,
    }));
    return { items, total, page };
  }

  async view(id: string) {
    const { resellers } = this.core.repos;
    const r = await resellers.get(id);
    if (!r) throw notFound(id);
    const [keys, ips, catalogs] = await Promise.all([resellers.apiKeysOf(id), resellers.whitelistOf(id), resellers.catalogs(id)]);
    const whitelist = ips.map((w) => w.ip);
    return {
      id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status, balance: Number(r.balance), callbackUrl: r.callback_url,
      createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), whitelist, catalogs,
      apiKeys: keys.map((k) => ({ id: k.id, maskedKey: maskApiKey(k.api_key), createdAt: Number(k.created_at), revokedAt: k.revoked_at === null ? null : Number(k.revoked_at) })),
    };
  }

  /** The reseller id behind an email (the CLI names resellers by email). */
  async idByEmail(email: string): Promise<string> {
    const r = await this.core.repos.resellers.byEmail(email.trim().toLowerCase());
    if (!r) throw new AppError('NOT_FOUND', `no reseller with email ${email}`);
    return r.id;
  }

  /** A new reseller, pending approval unless approved at once. No API key yet: keys are issued separately. */
  async create(input: { name: string; email: string; tier?: string; approve?: boolean }, actor: Actor, note?: string | null) {
    const name = input.name.trim();
    const email = input.email.trim().toLowerCase();
    if (!name) throw new AppError('VALIDATION_ERROR', 'name must not be empty');
    if (!EMAIL.test(email)) throw new AppError('VALIDATION_ERROR', `"${input.email}" is not an email address`);
    const tier = input.tier === undefined ? 'gold' : oneOf(input.tier, TIERS, 'tier');
    const status: ResellerStatus = input.approve ? 'active' : 'pending';
    if (await this.core.repos.resellers.byEmail(email)) throw conflict(email);
    const id = this.core.ids.uuid();
    const now = this.core.clock.now();
    try {
      await this.core.db.transaction().execute(async (trx) => {
        await new ResellersRepo(trx).create({ id, name, email, tier, status }, now);
        await AuditRepo.record(trx, { operatorId: actor, action: 'reseller.create', targetKind: 'reseller', targetId: id, before: null, after: { name, email, tier, status }, note }, now);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(email);
      throw e;
    }
    return this.view(id);
  }

  approve(id: string, tier: string, actor: Actor, note?: string | null) {
    return this.change(id, 'reseller.approve', ['pending'], { status: 'active', tier: oneOf(tier, TIERS, 'tier') }, actor, note, 'only a pending reseller can be approved');
  }

  setTier(id: string, tier: string, actor: Actor, note?: string | null) {
    return this.change(id, 'reseller.set_tier', STATUSES, { tier: oneOf(tier, TIERS, 'tier') }, actor, note, '');
  }

  suspend(id: string, actor: Actor, note?: string | null) {
    return this.change(id, 'reseller.suspend', ['active'], { status: 'suspended' }, actor, note, 'only an active reseller can be suspended');
  }

  reactivate(id: string, actor: Actor, note?: string | null) {
    return this.change(id, 'reseller.reactivate', ['suspended'], { status: 'active' }, actor, note, 'only a suspended reseller can be reactivated');
  }

  private async change(
    id: string, action: string, from: readonly ResellerStatus[], patch: { status?: ResellerStatus; tier?: Tier },
    actor: Actor, note: string | null | undefined, refusal: string,
  ) {
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const repo = new ResellersRepo(trx);
      const current = await repo.get(id);
      if (!current) throw notFound(id);
      const before = snapshot(current);
      const after = { ...before, ...patch };
      if (!(await repo.transition(id, from, patch, now))) {
        throw new AppError('INVALID_STATE', `${refusal}; this reseller is ${before.status}`);
      }
      await AuditRepo.record(trx, { operatorId: actor, action, targetKind: 'reseller', targetId: id, before, after, note }, now);
      const told = STATUS_MESSAGES[action];
      if (told) {
        const { notifier } = this.core;
        await notifier.send(trx, { kind: 'reseller', id, email: current.email, language: current.language }, `${action}:${id}:${now}`,
          { template: 'shop_status', shopName: current.name, status: told, link: notifier.link(MESSAGE_PATHS.dashboard) }, now);
      }
    });
    return this.view(id);
  }
}

/** The status changes the shop is told of by email (in the change's transaction). */
const STATUS_MESSAGES: Record<string, 'approved' | 'suspended' | 'reactivated'> = {
  'reseller.approve': 'approved', 'reseller.suspend': 'suspended', 'reseller.reactivate': 'reactivated',
};

const snapshot = (r: ResellerSnapshot): ResellerSnapshot => ({ name: r.name, email: r.email, tier: r.tier, status: r.status });

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new AppError('VALIDATION_ERROR', `${what} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

const notFound = (id: string) => new AppError('NOT_FOUND', `no reseller with id ${id}`);
const conflict = (email: string) => new AppError('CONFLICT', `a reseller with email ${email} already exists`);
