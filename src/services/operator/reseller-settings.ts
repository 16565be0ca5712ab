import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { ApiKeys, type RevokePrevious } from '../account/api-keys.js';
import { IpWhitelist } from '../account/whitelist.js';
import type { AfterWrite } from '../after-write.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';
import type { Actor } from './actor.js';

/**
 * A support desk acting for a reseller on its own settings: API keys, the IP whitelist and
 * the callback URL. The reseller's own services apply (the same rules, limits and SSRF
 * checks as in the dashboard); each change commits with its audit line, which never holds a
 * secret (keys masked).
 */
export class ResellerSettings {
  private readonly keys: ApiKeys;
  private readonly whitelist: IpWhitelist;

  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'secrets' | 'clock' | 'ids' | 'setCallbackUrl'>) {
    this.keys = new ApiKeys(core);
    this.whitelist = new IpWhitelist(core);
  }

  /** The reseller as its own services see it signed in (status read now, as every request does). */
  private async as(resellerId: string): Promise<AccountPrincipal> {
    const r = await this.core.repos.resellers.get(resellerId);
    if (!r) throw new AppError('NOT_FOUND', `no reseller with id ${resellerId}`);
    return { kind: 'reseller', resellerId: r.id, email: r.email, status: r.status };
  }

  private audit<R>(actor: Actor, action: string, resellerId: string, note: string | null | undefined, snapshot: (r: R) => { before: unknown; after: unknown }): AfterWrite<R> {
    return (trx, result) => AuditRepo.record(trx, { operatorId: actor, action, targetKind: 'reseller', targetId: resellerId, ...snapshot(result), note }, this.core.clock.now());
  }

  async listKeys(resellerId: string) {
    return this.keys.list(await this.as(resellerId));
  }

  /** The secret is in the result only: shown once to the operator, who hands it over. */
  async issueKey(resellerId: string, revokePrevious: RevokePrevious, actor: Actor, note?: string | null) {
    return this.keys.generate(await this.as(resellerId), revokePrevious, this.audit(actor, 'reseller.api_key_issue', resellerId, note, (k) => ({
      before: null, after: { key_id: k.id, api_key: k.masked, revoke_previous: revokePrevious, previous_keys_revoked_at: k.previousRevokedAt },
    })));
  }

  async revokeKey(resellerId: string, keyId: string, actor: Actor, note?: string | null) {
    return this.keys.revoke(await this.as(resellerId), keyId, this.audit(actor, 'reseller.api_key_revoke', resellerId, note, (k) => ({
      before: { key_id: k.id, api_key: k.masked, revoked_at: k.wasRevokedAt }, after: { key_id: k.id, api_key: k.masked, revoked_at: k.revokedAt },
    })));
  }

  async listWhitelist(resellerId: string) {
    return this.whitelist.list(await this.as(resellerId));
  }

  async addIp(resellerId: string, ip: string, actor: Actor, note?: string | null) {
    return this.whitelist.add(await this.as(resellerId), ip, this.audit(actor, 'reseller.whitelist_add', resellerId, note, (w) => ({ before: null, after: { ip: w.ip } })));
  }

  async removeIp(resellerId: string, ip: string, actor: Actor, note?: string | null) {
    return this.whitelist.remove(await this.as(resellerId), ip, this.audit(actor, 'reseller.whitelist_remove', resellerId, note, (w) => ({ before: { ip: w.ip }, after: null })));
  }

  /** null (or blank) clears it; otherwise the SSRF rules of the reseller's own setting apply. */
  async setCallbackUrl(resellerId: string, raw: string | null, actor: Actor, note?: string | null) {
    await this.as(resellerId);
    const stored = await this.core.setCallbackUrl.execute(resellerId, raw, this.audit(actor, 'reseller.set_callback_url', resellerId, note, (r) => ({
      before: { callback_url: r.previous }, after: { callback_url: r.url },
    })));
    return { callbackUrl: stored };
  }
}
