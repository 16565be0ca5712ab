import { isIP } from 'node:net';
import { normalizeIp } from '../../domain/ip.js';
import { AppError } from '../../errors.js';
import { ResellersRepo } from '../../store/resellers-repo.js';
import type { AfterWrite } from '../after-write.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';

/** Enough for a server fleet; keeps the per-request whitelist check small. */
export const MAX_WHITELIST = 50;

/**
 * The IP whitelist of API v1 (onboarding step 4). Exact addresses only: the edge's matcher
 * (domain/ip.ts) compares addresses, not ranges. Changes apply to the next API v1 request.
 */
export class IpWhitelist {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'clock'>) {}

  async list(who: AccountPrincipal) {
    return (await this.core.repos.resellers.whitelistOf(who.resellerId)).map((w) => ({ ip: w.ip, createdAt: Number(w.created_at) }));
  }

  /**
   * Stores the canonical form (lower-case IPv6, IPv4-mapped IPv6 as IPv4). `after` runs in
   * the same transaction (an operator's audit line).
   */
  async add(who: AccountPrincipal, raw: string, after?: AfterWrite<{ ip: string }>) {
    const ip = parseAddress(raw);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const resellers = new ResellersRepo(trx);
      const current = await resellers.whitelistOf(who.resellerId);
      if (current.some((w) => w.ip === ip)) throw new AppError('CONFLICT', `${ip} is already in the whitelist`);
      if (current.length >= MAX_WHITELIST) throw new AppError('INVALID_STATE', `the whitelist holds at most ${MAX_WHITELIST} addresses; remove one first`);
      await resellers.addWhitelistIp(who.resellerId, ip, now);
      await after?.(trx, { ip });
    });
    return { ip, createdAt: now };
  }

  async remove(who: AccountPrincipal, raw: string, after?: AfterWrite<{ ip: string }>) {
    const ip = parseAddress(raw);
    await this.core.db.transaction().execute(async (trx) => {
      if (!(await new ResellersRepo(trx).removeWhitelistIp(who.resellerId, ip))) throw new AppError('NOT_FOUND', `${ip} is not in the whitelist`);
      await after?.(trx, { ip });
    });
    return { ip };
  }
}

function parseAddress(raw: string): string {
  if (raw.includes('/')) throw new AppError('VALIDATION_ERROR', `"${raw}" is a range; the whitelist holds single addresses (CIDR ranges are not supported)`);
  const ip = normalizeIp(raw);
  if (ip === null) throw new AppError('VALIDATION_ERROR', `"${raw}" is not an IPv4 or IPv6 address`);
  if (ip === '0.0.0.0' || ip === '::') throw new AppError('VALIDATION_ERROR', `${ip} is the unspecified address; no request comes from it`);
  if (isIP(ip) === 0) throw new AppError('VALIDATION_ERROR', `"${raw}" is not an IPv4 or IPv6 address`);
  return ip;
}
