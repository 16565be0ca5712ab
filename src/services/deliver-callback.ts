import type { CallbackHttpResult } from '../adapters/callback-http.js';
import type { SecretBox } from '../adapters/secret-box.js';
import { CALLBACK_MAX_ATTEMPTS, CALLBACK_TIMEOUT_MS, callbackPayload, isDelivered, nextAttemptAt } from '../domain/callback.js';
import { sign } from '../domain/signature.js';
import { DELIVERABLE, type CallbacksRepo, type PreparedCallback } from '../store/callbacks-repo.js';
import { heldJob, type JobHandler } from '../worker/job-contract.js';
import type { Logger } from 'pino';
import type { Clock, IdGenerator } from './ports.js';
import type { Executor } from '../store/jobs-repo.js';
import { noMetrics, type Metrics } from './metrics.js';

export type CallbackSender = (input: { url: string; body: string; headers: Record<string, string>; timeoutMs: number; allowPrivate: boolean }) => Promise<CallbackHttpResult>;

const isDeliverable = (status: string) => (DELIVERABLE as readonly string[]).includes(status);

export const CALLBACK_USER_AGENT = 'topup-callbacks/1.0 (+order callbacks; reseller API v1)';

/** The headers of a callback request: signed over the body and timestamp with the reseller's API secret. */
export function callbackHeaders(secret: string, c: { timestamp: string; body: string; callbackId: string; attempt: number }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': CALLBACK_USER_AGENT,
    'x-timestamp': c.timestamp,
    'x-signature': sign(secret, c.timestamp, c.body),
    'x-callback-id': c.callbackId,
    'x-callback-attempt': String(c.attempt),
  };
}

/**
 * Delivers an order's callback (the handler of deliver_callback jobs): one attempt per
 * run, the delivery's state and every attempt in the store, the next attempt scheduled a
 * gap after this one ended. A restart continues from the stored attempt count.
 */
export class DeliverCallback {
  constructor(
    private readonly deps: {
      callbacks: CallbacksRepo;
      secrets: SecretBox;
      send: CallbackSender;
      clock: Clock;
      ids: IdGenerator;
      money: (minor: number) => number;
      allowPrivateTargets: boolean;
      metrics?: Metrics;
      logger?: Logger;
      /** A round given up, in the transaction that records it (the shop is told). */
      onGaveUp?: (db: Executor, f: { resellerId: string; orderId: string; refId: string; error: string }, now: number) => Promise<void>;
    },
  ) {}

  readonly handle: JobHandler<{ orderId: string; round?: number; requestId?: string }> = async (job) => {
    const metrics = this.deps.metrics ?? noMetrics;
    const { callbacks, secrets, send, clock, ids } = this.deps;
    // Handed off by the statement that settled the order: target and delivery come with it.
    // If it waited for its reseller's slots, the target is read again (the callback URL, the
    // key or, by an operator's refund, the order may have changed), but not the delivery:
    // only this job, under its lease, writes a pending delivery's attempts.
    // Otherwise both reads at once (on PostgreSQL one round trip of waiting, not two).
    const prepared = job.prepared as PreparedCallback | undefined;
    const [target, delivery] = prepared
      ? [job.waited ? await callbacks.target(job.payload.orderId) : prepared.target, prepared.delivery]
      : await Promise.all([callbacks.target(job.payload.orderId), callbacks.open(job.payload.orderId, job.payload.round ?? 1, ids.uuid(), clock.now())]);
    if (!target || !delivery || !isDeliverable(target.order.status)) return { status: 'done' };
    const { order, callbackUrl, secretEnc } = target;
    if (delivery.status !== 'pending') return { status: 'done' };
    // A job run early (e.g. re-claimed after a crash) waits for the stored schedule.
    if (delivery.next_attempt_at !== null && Number(delivery.next_attempt_at) > clock.now()) {
      return { status: 'retry', retryAt: Number(delivery.next_attempt_at) };
    }

    if (!callbackUrl || !secretEnc) {
      await callbacks.skip(delivery, clock.now());
      metrics.callbackAttempt('skipped');
      this.deps.logger?.info({ order_id: order.id, request_id: job.payload.requestId, callback_id: delivery.id, outcome: 'skipped' }, 'callback skipped: no callback URL');
      return { status: 'done' };
    }

    const attempt = Number(delivery.attempts) + 1;
    const body = JSON.stringify(callbackPayload(order, this.deps.money));
    const timestamp = String(clock.now());
    const startedAt = clock.now();
    const result = await send({
      url: callbackUrl,
      body,
      timeoutMs: CALLBACK_TIMEOUT_MS,
      allowPrivate: this.deps.allowPrivateTargets,
      headers: callbackHeaders(secrets.open(secretEnc), { timestamp, body, callbackId: delivery.id, attempt }),
    });
    const endedAt = clock.now();
    const delivered = isDelivered(result.httpStatus);
    const next = delivered || attempt >= CALLBACK_MAX_ATTEMPTS ? null : nextAttemptAt(attempt, endedAt);
    // The job's row is finished (or due at the next attempt) in the attempt's own transaction.
    const held = heldJob(job);
    const error = result.error ?? (delivered ? null : `HTTP ${result.httpStatus}`);
    const onGaveUp = this.deps.onGaveUp;
    await callbacks.recordAttempt(
      delivery,
      { attempt, url: callbackUrl, startedAt, durationMs: result.durationMs, httpStatus: result.httpStatus, error, snippet: result.responseSnippet },
      { status: delivered ? 'delivered' : next === null ? 'failed' : 'pending', nextAttemptAt: next },
      endedAt,
      held,
      onGaveUp && ((db) => onGaveUp(db, { resellerId: order.resellerId, orderId: order.id, refId: order.refId, error: error ?? '' }, endedAt)),
    );
    const outcome = delivered ? 'delivered' : next === null ? 'failed' : 'retry';
    metrics.callbackAttempt(outcome);
    // No URL (it may carry the reseller's own tokens) and no response text: ids, status, timing.
    this.deps.logger?.info(
      { order_id: order.id, request_id: job.payload.requestId, callback_id: delivery.id, attempt, http_status: result.httpStatus, outcome, ms: result.durationMs },
      'callback attempt',
    );
    const written = held ? { written: true } : {};
    return next === null ? { status: 'done', ...written } : { status: 'retry', retryAt: next, ...written };
  };
}
