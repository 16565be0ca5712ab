import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress, validateCallbackUrl } from '../domain/callback-url.js';
import { AppError } from '../errors.js';
import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import type { AfterWrite } from './after-write.js';
import type { Clock } from './ports.js';

/**
 * Sets a reseller's callback URL after the SSRF rules: http(s) only, and unless private
 * targets are allowed, a host that resolves to public addresses only. The same rules run
 * again at every delivery attempt (DNS may change).
 */
export class SetCallbackUrl {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; allowPrivate: boolean }) {}

  /**
   * null or blank clears it; returns the URL stored. `after` runs in the transaction of the
   * update with the URL it replaced (an operator's audit line).
   */
  async execute(resellerId: string, raw: string | null, after?: AfterWrite<{ previous: string | null; url: string | null }>): Promise<string | null> {
    const url = raw === null || raw.trim() === '' ? null : raw.trim();
    if (url !== null) {
      const check = validateCallbackUrl(url, { allowPrivate: this.deps.allowPrivate });
      if (!check.ok) throw new AppError('VALIDATION_ERROR', check.message);
      const host = check.url.hostname.replace(/^\[|\]$/g, '');
      if (!this.deps.allowPrivate && !isIP(host)) {
        const addresses = await lookup(host, { all: true }).catch(() => []);
        if (addresses.length === 0) throw new AppError('VALIDATION_ERROR', `callback host ${host} does not resolve`);
        if (addresses.some((a) => !isPublicAddress(a.address))) throw new AppError('VALIDATION_ERROR', `callback host ${host} resolves to a private or reserved address`);
      }
    }
    await this.deps.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('resellers').select('callback_url').where('id', '=', resellerId).executeTakeFirst();
      if (!current) throw new AppError('NOT_FOUND', 'reseller not found');
      await trx.updateTable('resellers').set({ callback_url: url, updated_at: this.deps.clock.now() }).where('id', '=', resellerId).execute();
      await after?.(trx, { previous: current.callback_url, url });
    });
    return url;
  }
}
