import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter, RateState } from '../adapters/rate-limiter.js';
import { AppError, lengthRequired } from '../errors.js';
import type { Authenticator, ResellerPrincipal } from '../services/authenticate.js';
import type { Tier } from '../store/resellers-repo.js';
import { MAX_BODY_BYTES, parseJsonBody } from './app.js';

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
  if (Number(length) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `request body is ${length} bytes; the limit is 4 KB (${MAX_BODY_BYTES} bytes)`);
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json');
}

/**
 * Hooks of every /api/v1 route, in this order: key, IP whitelist and timestamp; the rate
 * count; for POST the transport checks; the signature (GET: at once; POST: over the raw
 * bytes once read); the account status; finally the JSON parse, never before the signature.
 */
export function resellerPipeline(deps: { auth: Authenticator; limiter: RateLimiter; rateLimitScale: number }) {
  const limitOf = (tier: Tier) => Math.max(1, Math.round(TIER_RATE_LIMITS[tier] * deps.rateLimitScale));
  return {
    async onRequest(req: FastifyRequest, reply: FastifyReply) {
      req.principal = null;
      const principal = await deps.auth.identify({ apiKey: header(req, 'x-api-key'), ip: req.ip, timestamp: header(req, 'x-timestamp') });
      req.principal = principal;
      const limit = limitOf(principal.tier);
      const key = `reseller:${principal.resellerId}`;
      // The spec's tier limits apply to GET endpoints; POSTs (the order above all, bounded by
      // balance and ref_id) are not counted but still show the account's state in the headers.
      const state = req.method === 'GET' ? await deps.limiter.consume(key, limit) : await deps.limiter.peek(key, limit);
      setRateHeaders(reply, state);
      if (!state.allowed) {
        throw new AppError('RATE_LIMIT_EXCEEDED', `rate limit of ${limit} requests per minute for your tier exceeded; retry after ${state.resetSeconds} s`, {
          headers: { 'retry-after': String(state.resetSeconds) },
        });
      }
      if (req.method === 'POST') checkPostTransport(req);
      else deps.auth.verify(principal, header(req, 'x-signature'), '');
    },

    async preValidation(req: FastifyRequest) {
      if (req.method !== 'POST') return;
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      deps.auth.verify(req.principal!, header(req, 'x-signature'), raw);
      req.body = parseJsonBody(raw);
    },

    /** Every response carries rate headers; callers we could not identify are counted per IP. */
    async onSend(req: FastifyRequest, reply: FastifyReply) {
      if (reply.hasHeader('x-ratelimit-limit')) return;
      setRateHeaders(reply, await deps.limiter.consume(`ip:${req.ip}`, limitOf('gold')));
    },
  };
}

export const principalOf = (req: FastifyRequest): ResellerPrincipal => {
  if (!req.principal) throw new Error('reseller route reached without a principal');
  return req.principal;
};
