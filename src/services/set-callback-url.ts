import { isIP } from 'node:net';
import type { ResolveHost } from '../adapters/callback-http.js';
import { isPublicAddress, validateCallbackUrl } from '../domain/callback-url.js';
import { AppError } from '../errors.js';
import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import type { Clock } from './ports.js';

/**
 * Sets a reseller's callback URL after the SSRF rules: http(s) only, and unless private
 * targets are allowed, a host that resolves to public addresses only. The same rules run
 * again at every delivery attempt (DNS may change).
 */
export class SetCallbackUrl {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; allowPrivate: boolean; resolve: ResolveHost }) {}

  async execute(resellerId: string, url: string | null): Promise<void> {
    if (url !== null) {
      const check = validateCallbackUrl(url, { allowPrivate: this.deps.allowPrivate });
      if (!check.ok) throw new AppError('VALIDATION_ERROR', check.message);
      const host = check.url.hostname.replace(/^\[|\]$/g, '');
      if (!this.deps.allowPrivate && !isIP(host)) {
        const addresses = await this.deps.resolve(host).catch(() => []);
        if (addresses.length === 0) throw new AppError('VALIDATION_ERROR', `callback host ${host} does not resolve`);
        if (addresses.some((a) => !isPublicAddress(a.address))) throw new AppError('VALIDATION_ERROR', `callback host ${host} resolves to a private or reserved address`);
      }
    }
    const res = await this.deps.db.updateTable('resellers').set({ callback_url: url, updated_at: this.deps.clock.now() }).where('id', '=', resellerId).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND', 'reseller not found');
  }
}
