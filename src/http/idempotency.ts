import type { FastifyReply } from 'fastify';
import { fingerprintOf, type Claim, type Idempotency, type IdempotentRequest } from '../services/operator/idempotency.js';

/** Header of a request that must not be applied twice, and of an answer given again. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The request's Idempotency-Key with the request it stands for (method, path, body), if sent. */
export function idempotentRequest(reply: FastifyReply, body: unknown): IdempotentRequest | null {
  const req = reply.request;
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  return { key, fingerprint: fingerprintOf([req.method, req.url.split('?')[0], body]) };
}

/**
 * A money-changing handler run through Idempotency: the first result again (with
 * `Idempotent-Replayed: true`) for a repeated key and request.
 */
export async function once<T, D>(
  idempotency: Idempotency, scope: string, reply: FastifyReply, body: unknown,
  change: (claim: Claim<T>) => Promise<T>, present: (result: T) => D,
): Promise<{ data: D }> {
  const r = await idempotency.run(scope, idempotentRequest(reply, body), change, present);
  if (r.replayed) reply.header(REPLAYED_HEADER, 'true');
  return { data: r.data };
}
