import { maskApiKey } from '../../domain/api-key.js';
import { AppError } from '../../errors.js';
import { ResellersRepo } from '../../store/resellers-repo.js';
import type { AfterWrite } from '../after-write.js';
import type { ServiceCore } from '../core.js';
import { newApiCredentials } from '../ids.js';
import type { AccountPrincipal } from '../sessions.js';

/** How long a rotated-out key keeps working, so integrators can roll without downtime. */
export const KEY_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Live keys (including ones inside their overlap) one account may hold. */
export const MAX_LIVE_KEYS = 5;

export type RevokePrevious = 'after_overlap' | 'now';
export type KeyState = 'live' | 'expiring' | 'revoked';

/** What an operator's audit line may keep of a new key: never the secret, the key masked. */
/** previousRevokedAt: when the keys that were live stop; null when there were none (a first key). */
export interface GeneratedKey { id: string; masked: string; createdAt: number; previousRevokedAt: number | null }
export interface RevokedKey { id: string; masked: string; revokedAt: number; /** null: it was live; else the end of its overlap. */ wasRevokedAt: number | null }

export function keyState(revokedAt: number | string | null, now: number): KeyState {
  if (revokedAt === null) return 'live';
  return Number(revokedAt) > now ? 'expiring' : 'revoked';
}

/**
 * API keys of the signed-in reseller (onboarding step 3). The secret is returned by generate()
 * only and stored sealed (AES-256-GCM); nothing reads it back for the dashboard.
 */
export class ApiKeys {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'secrets' | 'clock' | 'ids'>) {}

  async list(who: AccountPrincipal) {
    const now = this.core.clock.now();
    const keys = await this.core.repos.resellers.apiKeysOf(who.resellerId);
    return keys.map((k) => ({
      id: k.id, masked: maskApiKey(k.api_key), createdAt: Number(k.created_at),
      revokedAt: k.revoked_at === null ? null : Number(k.revoked_at), state: keyState(k.revoked_at, now),
    }));
  }

  /**
   * A new key and secret. The previous live keys stop after the overlap (default) or at once.
   * Only active accounts: the spec's onboarding has keys come after the operator's approval.
   * `after` runs in the same transaction (an operator's audit line); it never sees the secret.
   */
  async generate(who: AccountPrincipal, revokePrevious: RevokePrevious = 'after_overlap', after?: AfterWrite<GeneratedKey>) {
    if (who.status !== 'active') {
      throw new AppError('INVALID_STATE', `API keys can be generated once the operator has approved the account; this account is ${who.status}`);
    }
    const now = this.core.clock.now();
    const { apiKey, apiSecret } = newApiCredentials();
    const id = this.core.ids.uuid();
    const revokeAt = revokePrevious === 'now' ? now : now + KEY_ROTATION_OVERLAP_MS;
    const previousRevokedAt = await this.core.db.transaction().execute(async (trx) => {
      const resellers = new ResellersRepo(trx);
      if (revokePrevious === 'after_overlap') {
        const live = (await resellers.apiKeysOf(who.resellerId)).filter((k) => keyState(k.revoked_at, now) !== 'revoked');
        if (live.length >= MAX_LIVE_KEYS) {
          throw new AppError('INVALID_STATE', `at most ${MAX_LIVE_KEYS} keys may be live at once; revoke one, or generate with revoke_previous "now"`);
        }
      }
      const ended = await resellers.addApiKeyRevokingOthers({ id, resellerId: who.resellerId, apiKey, secretEnc: this.core.secrets.seal(apiSecret) }, revokeAt, now);
      const previous = ended > 0 ? revokeAt : null;
      await after?.(trx, { id, masked: maskApiKey(apiKey), createdAt: now, previousRevokedAt: previous });
      return previous;
    });
    return { id, apiKey, apiSecret, createdAt: now, previousRevokedAt };
  }

  /** Stops a key at once (also one inside its overlap). Any status may revoke: it only removes access. */
  async revoke(who: AccountPrincipal, keyId: string, after?: AfterWrite<RevokedKey>) {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const resellers = new ResellersRepo(trx);
      const key = (await resellers.apiKeysOf(who.resellerId)).find((k) => k.id === keyId);
      if (!key) throw new AppError('NOT_FOUND', `no API key ${keyId} on this account`);
      if (keyState(key.revoked_at, now) === 'revoked') throw new AppError('INVALID_STATE', 'this API key is already revoked');
      await resellers.revokeApiKey(who.resellerId, keyId, now);
      const revoked: RevokedKey = { id: keyId, masked: maskApiKey(key.api_key), revokedAt: now, wasRevokedAt: key.revoked_at === null ? null : Number(key.revoked_at) };
      await after?.(trx, revoked);
      return revoked;
    });
  }
}
