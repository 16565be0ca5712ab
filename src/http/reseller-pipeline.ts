import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter, RateState } from '../adapters/rate-limiter.js';
import { AppError, isAppError, lengthRequired } from '../errors.js';
import type { AuthFailureGuard } from '../services/auth-failures.js';
import type { Authenticator, ResellerPrincipal } from '../services/authenticate.js';
import type { Tier } from '../store/resellers-repo.js';
import { MAX_BODY_BYTES } from './app.js';
import { bodyLimitText } from './errors.js';
import { parseJsonBody } from './json-body.js';

/** Requests per minute by tier (spec, Limits). Unidentified callers are counted per IP at the lowest. */
export const TIER_RATE_LIMITS: Record<Tier, number> = { gold: 300, platinum: 600, diamond: 1200 };

declare module 'fastify' {
  interface FastifyRequest {
    principal: ResellerPrincipal | null;
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function setRateHeaders(reply: FastifyReply, s: RateState) {
  reply.header('x-ratelimit-limit', String(s.limit));
  reply.header('x-ratelimit-remaining', String(s.remaining));
  reply.header('x-ratelimit-reset', String(s.resetSeconds));
}

/** Refuses what cannot be a valid POST before a single body byte is read. */
function checkPostTransport(req: FastifyRequest) {
  const length = header(req, 'content-length');
  if (length === undefined || header(req, 'transfer-encoding') !== undefined) throw lengthRequired();
  if (!/^\d+$/.test(length)) throw new AppError('VALIDATION_ERROR', 'Content-Length must be a number of bytes');
  if (Number(length) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `request body is ${length} bytes; the limit is ${bodyLimitText(MAX_BODY_BYTES)}`);
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json');
}

/**
 * Hooks of every /api/v1 route, in this order: key, IP whitelist and timestamp; for POST the
 * rate headers and the transport checks, then the signature over the raw bytes once read; for
 * GET the signature, then the rate count (so only authenticated requests spend the tier's
 * limit); the account status; finally the JSON parse, never before the signature. Only a
 * failed authentication consults the failure guard (counted per address and, past the
 * whitelist, per key), which may answer it 429 instead: an authenticated request never waits
 * on it nor is refused by it, whatever else its address or key sent.
 */
export function resellerPipeline(deps: { auth: Authenticator; limiter: RateLimiter; rateLimitScale: number; failures: AuthFailureGuard }) {
  const limitOf = (tier: Tier) => Math.max(1, Math.round(TIER_RATE_LIMITS[tier] * deps.rateLimitScale));

  /** The signature check; a mismatch counts against the address and the key. */
  async function verify(req: FastifyRequest, principal: ResellerPrincipal, body: Buffer | string) {
    try {
      deps.auth.verify(principal, header(req, 'x-signature'), body);
    } catch (err) {
      if (isAppError(err) && err.code === 'INVALID_SIGNATURE') await deps.failures.failed(req.ip, header(req, 'x-api-key'));
      throw err;
    }
  }

  return {
    async onRequest(req: FastifyRequest, reply: FastifyReply) {
      req.principal = null;
      const apiKey = header(req, 'x-api-key');
      let principal: ResellerPrincipal;
      try {
        principal = await deps.auth.identify({ apiKey, ip: req.ip, timestamp: header(req, 'x-timestamp') });
      } catch (err) {
        // A stale timestamp comes past the whitelist: it spends the key's allowance too.
        if (isAppError(err)) await deps.failures.failed(req.ip, err.code === 'TIMESTAMP_EXPIRED' ? apiKey : undefined);
        throw err;
      }
      req.principal = principal;
      const limit = limitOf(principal.tier);
      const key = `reseller:${principal.resellerId}`;
      // The spec's tier limits apply to GET endpoints; POSTs (the order above all, bounded by
      // balance and ref_id) are not counted but still show the account's state in the headers.
      if (req.method === 'POST') {
        setRateHeaders(reply, await deps.limiter.peek(key, limit));
        checkPostTransport(req);
        return;
      }
      await verify(req, principal, '');
      const state = await deps.limiter.consume(key, limit);
      setRateHeaders(reply, state);
      if (!state.allowed) {
        throw new AppError('RATE_LIMIT_EXCEEDED', `rate limit of ${limit} requests per minute for your tier exceeded; retry after ${state.resetSeconds} s`, {
          headers: { 'retry-after': String(state.resetSeconds) },
        });
      }
    },

    // preValidation and onSend are callback-style hooks: most requests pass straight
    // through them (a GET; a response with its rate headers), without a promise.
    preValidation(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
      if (req.method !== 'POST') return done();
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      verify(req, req.principal!, raw).then(() => {
        req.body = parseJsonBody(raw);
      }).then(() => done(), done);
    },

    /** Every response carries rate headers; callers we could not identify are counted per IP. */
    onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) {
      if (reply.hasHeader('x-ratelimit-limit')) return done(null, payload);
      deps.limiter.consume(`ip:${req.ip}`, limitOf('gold')).then((state) => {
        setRateHeaders(reply, state);
        done(null, payload);
      }, done);
    },
  };
}

export const principalOf = (req: FastifyRequest): ResellerPrincipal => {
  if (!req.principal) throw new Error('reseller route reached without a principal');
  return req.principal;
};
