import type { SecretBox } from '../adapters/secret-box.js';
import { ipAllowed } from '../domain/ip.js';
import { parseTimestamp, signatureMatches, timestampFresh } from '../domain/signature.js';
import { AppError } from '../errors.js';
import type { ResellersRepo, Tier } from '../store/resellers-repo.js';
import type { Clock } from './ports.js';

/** An identified caller of the reseller API, before or after its signature is checked. */
export interface ResellerPrincipal {
  resellerId: string;
  tier: Tier;
  active: boolean;
  secret: string;
  timestamp: string;
}

/**
 * The reseller API's authentication rules, in two steps because a POST body is only read
 * after the headers were accepted: identify() checks key, source IP and timestamp;
 * verify() checks the HMAC over the exact bytes received, then the account status.
 */
export class Authenticator {
  constructor(
    private readonly resellers: ResellersRepo,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  async identify(h: { apiKey: string | undefined; ip: string; timestamp: string | undefined }): Promise<ResellerPrincipal> {
    if (!h.apiKey) throw new AppError('INVALID_API_KEY', 'X-Api-Key header is required');
    const cred = h.apiKey.length <= 200 ? await this.resellers.findCredential(h.apiKey, this.clock.now()) : null;
    if (!cred) throw new AppError('INVALID_API_KEY', 'X-Api-Key is not a valid API key');
    if (!ipAllowed(h.ip, cred.whitelist)) {
      throw new AppError('IP_NOT_WHITELISTED', `source IP ${h.ip} is not in this API key's IP whitelist; add it in Settings > API Keys > IP Whitelist`);
    }
    const ts = parseTimestamp(h.timestamp);
    if (ts === null) throw new AppError('TIMESTAMP_EXPIRED', 'X-Timestamp header is required: current Unix time in milliseconds, as a string of digits');
    const now = this.clock.now();
    if (!timestampFresh(ts, now)) {
      const hint = ts < 1e11 ? '; it looks like seconds, send milliseconds' : '';
      throw new AppError('TIMESTAMP_EXPIRED', `X-Timestamp is more than 5 minutes away from server time (${now})${hint}`);
    }
    return { resellerId: cred.resellerId, tier: cred.tier, active: cred.status === 'active', secret: this.secrets.open(cred.secretEnc), timestamp: h.timestamp! };
  }

  /** body is the exact bytes received (empty for GET: the timestamp alone is signed). */
  verify(p: ResellerPrincipal, signature: string | undefined, body: Buffer | string): void {
    if (!signature || !signatureMatches(p.secret, p.timestamp, body, signature)) {
      throw new AppError('INVALID_SIGNATURE', 'X-Signature does not match: sign the exact body bytes followed by X-Timestamp (GET: the timestamp alone) with HMAC-SHA256 and your API secret, lowercase hex');
    }
    if (!p.active) throw new AppError('RESELLER_INACTIVE', 'this reseller account is not active (pending approval or suspended); contact the operator');
  }
}
