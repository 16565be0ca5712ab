import type { FastifyReply } from 'fastify';
import type { Gated } from '../services/operator/approvals.js';
import type { ApprovalRequest } from '../store/approvals-repo.js';
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

/**
 * A four-eyes money change through `once`: its answer is kept as {done} or {pending}, so
 * that a replay gives the same status again (200 with the change, or 202 with the request).
 */
export async function onceGated<T, D, P>(
  idempotency: Idempotency, scope: string, reply: FastifyReply, body: unknown,
  change: (claim: Claim<Gated<T>>) => Promise<Gated<T>>, present: (result: T) => D, presentRequest: (r: ApprovalRequest) => P,
): Promise<{ data: D | P; status: 200 | 202 }> {
  const { data } = await once(idempotency, scope, reply, body, change,
    (g): { done: D } | { pending: P } => ('done' in g ? { done: present(g.done) } : { pending: presentRequest(g.pending) }));
  if ('pending' in data) return { data: data.pending, status: 202 };
  // An answer kept before four-eyes (the bare change) is replayed as it was.
  return { data: 'done' in data ? data.done : (data as D), status: 200 };
}
