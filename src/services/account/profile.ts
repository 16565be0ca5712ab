import { AppError } from '../../errors.js';
import type { ServiceCore } from '../core.js';
import { bearerToken, hashToken, type AccountPrincipal } from '../sessions.js';
import { maskApiKey } from '../../domain/api-key.js';
import { keyState } from './api-keys.js';
import { assertPasswordAcceptable } from './registration.js';

/** The signed-in reseller's own account: profile, password, callback URL. */
export class AccountProfile {
  constructor(private readonly core: Pick<ServiceCore, 'repos' | 'hasher' | 'clock' | 'currency' | 'setCallbackUrl' | 'sessions'>) {}

  /** Balance in minor units (the HTTP layer presents major units). */
  async view(who: AccountPrincipal) {
    const { resellers, ledger } = this.core.repos;
    const r = await resellers.get(who.resellerId);
    if (!r) throw new AppError('NOT_FOUND', 'account not found');
    const now = this.core.clock.now();
    const [balance, whitelist, keys] = await Promise.all([ledger.balance(r.id), resellers.whitelistOf(r.id), resellers.apiKeysOf(r.id)]);
    return {
      id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status,
      balance: balance ?? 0, currency: this.core.currency.code, callbackUrl: r.callback_url,
      whitelist: whitelist.map((w) => w.ip),
      apiKeys: keys.map((k) => ({ id: k.id, masked: maskApiKey(k.api_key), createdAt: Number(k.created_at), revokedAt: k.revoked_at === null ? null : Number(k.revoked_at), state: keyState(k.revoked_at, now) })),
      createdAt: Number(r.created_at),
    };
  }

  /**
   * Needs the current password (a borrowed session alone cannot take the account over) and
   * ends every other session: whoever knew the old password is signed out.
   */
  async changePassword(who: AccountPrincipal, authorization: string | undefined, current: string, next: string) {
    const { accounts } = this.core.repos;
    // A stolen session must not become a password-guessing oracle.
    await this.core.sessions.throttle(`password:reseller:${who.resellerId}`);
    const login = await accounts.resellerLogin(who.email);
    const ok = login?.password_hash ? await this.core.hasher.verify(current, login.password_hash) : false;
    if (!login || !ok) throw new AppError('INVALID_CREDENTIALS', 'current_password is wrong');
    assertPasswordAcceptable(next, 'new_password');
    if (next === current) throw new AppError('VALIDATION_ERROR', 'new_password must differ from current_password');
    await accounts.setResellerPassword(login.id, await this.core.hasher.hash(next), this.core.clock.now());
    await accounts.deleteOtherSessions('reseller', login.id, hashToken(bearerToken(authorization) ?? ''));
  }

  /** null clears it. The SSRF rules of API v1 apply (VALIDATION_ERROR names the reason). */
  async setCallbackUrl(who: AccountPrincipal, url: string | null) {
    await this.core.setCallbackUrl.execute(who.resellerId, url);
  }
}
