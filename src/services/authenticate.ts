import type { SecretBox } from '../adapters/secret-box.js';
import { compileWhitelist } from '../domain/ip.js';
import { parseTimestamp, signatureMatches, timestampFresh } from '../domain/signature.js';
import { AppError } from '../errors.js';
import type { CacheVersions, VersionWatch } from '../store/cache-versions.js';
import type { ApiCredential, ResellersRepo, Tier } from '../store/resellers-repo.js';
import type { Clock } from './ports.js';

/** An identified caller of the reseller API, before or after its signature is checked. */
export interface ResellerPrincipal {
  resellerId: string;
  tier: Tier;
  active: boolean;
  secret: string;
  timestamp: string;
  /** Cache versions read at the start of this request (reused by the catalog cache). */
  versions?: CacheVersions;
}

/**
 * A refusal of a request whose API key is known: whose it was, so that the reseller can see
 * it among its recent API errors (ApiErrorLog) although no principal was established.
 */
export class KnownCallerRefusal extends AppError {
  constructor(readonly resellerId: string, code: 'IP_NOT_WHITELISTED' | 'TIMESTAMP_EXPIRED', message: string) {
    super(code, message);
  }
}

interface CachedCredential {
  cred: ApiCredential;
  secret: string;
  allows: (ip: string) => boolean;
}

/** Bounds the credential cache; past it the cache starts over (a key costs ~300 bytes). */
const MAX_CACHED_KEYS = 50_000;

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
    private readonly versions?: VersionWatch,
  ) {}

  /**
   * Live credentials by API key, with the secret already opened: two queries and an
   * AES-GCM open per request were most of the cost of a small request. Valid only for the
   * 'auth' cache version they were read under; any change to resellers' status/tier, keys
   * or whitelists bumps it (triggers, migration 006), and every request reads the current
   * version first, so suspensions, revocations and whitelist edits apply to the very next
   * request, in every process. Unknown keys are never cached.
   */
  private cached = new Map<string, CachedCredential>();
  private cachedVersion = -1;

  private async credential(apiKey: string, authVersion: number | null, now: number): Promise<CachedCredential | null> {
    if (authVersion !== null && authVersion === this.cachedVersion) {
      const hit = this.cached.get(apiKey);
      // A key in its rotation overlap ends with time, not with a write: no version bump tells us.
      if (hit && (hit.cred.expiresAt === null || hit.cred.expiresAt > now)) return hit;
    }
    const cred = await this.resellers.findCredential(apiKey, now);
    if (!cred) return null;
    // The whitelist is parsed with the credential: a whitelist edit bumps 'auth' and drops it.
    const entry = { cred, secret: this.secrets.open(cred.secretEnc), allows: compileWhitelist(cred.whitelist) };
    // An older request (version below the cache's) must not put old data in the newer cache.
    if (authVersion !== null && authVersion >= this.cachedVersion) {
      if (authVersion > this.cachedVersion || this.cached.size >= MAX_CACHED_KEYS) this.cached = new Map();
      this.cachedVersion = authVersion;
      this.cached.set(apiKey, entry);
    }
    return entry;
  }

  async identify(h: { apiKey: string | undefined; ip: string; timestamp: string | undefined }): Promise<ResellerPrincipal> {
    if (!h.apiKey) throw new AppError('INVALID_API_KEY', 'X-Api-Key header is required');
    const versions = this.versions ? await this.versions.current() : undefined;
    const found = h.apiKey.length <= 200 ? await this.credential(h.apiKey, versions?.auth ?? null, this.clock.now()) : null;
    if (!found) throw new AppError('INVALID_API_KEY', 'X-Api-Key is not a valid API key');
    const { cred } = found;
    if (!found.allows(h.ip)) {
      throw new KnownCallerRefusal(cred.resellerId, 'IP_NOT_WHITELISTED', `source IP ${h.ip} is not in this API key's IP whitelist; add it in Settings > API Keys > IP Whitelist`);
    }
    const ts = parseTimestamp(h.timestamp);
    if (ts === null) throw new KnownCallerRefusal(cred.resellerId, 'TIMESTAMP_EXPIRED', 'X-Timestamp header is required: current Unix time in milliseconds, as a string of digits');
    const now = this.clock.now();
    if (!timestampFresh(ts, now)) {
      const hint = ts < 1e11 ? '; it looks like seconds, send milliseconds' : '';
      throw new KnownCallerRefusal(cred.resellerId, 'TIMESTAMP_EXPIRED', `X-Timestamp is more than 5 minutes away from server time (${now})${hint}`);
    }
    return { resellerId: cred.resellerId, tier: cred.tier, active: cred.status === 'active', secret: found.secret, timestamp: h.timestamp!, versions };
  }

  /** body is the exact bytes received (empty for GET: the timestamp alone is signed). */
  verify(p: ResellerPrincipal, signature: string | undefined, body: Buffer | string): void {
    if (!signature || !signatureMatches(p.secret, p.timestamp, body, signature)) {
      throw new AppError('INVALID_SIGNATURE', 'X-Signature does not match: sign the exact body bytes followed by X-Timestamp (GET: the timestamp alone) with HMAC-SHA256 and your API secret, lowercase hex');
    }
    if (!p.active) throw new AppError('RESELLER_INACTIVE', 'this reseller account is not active (pending approval or suspended); contact the operator');
  }
}
