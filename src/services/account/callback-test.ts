import type { RateLimiter } from '../../adapters/rate-limiter.js';
import type { SecretBox } from '../../adapters/secret-box.js';
import { CALLBACK_TIMEOUT_MS, callbackPayload, isDelivered } from '../../domain/callback.js';
import type { OrderRecord } from '../../domain/order.js';
import { AppError } from '../../errors.js';
import type { Kysely } from 'kysely';
import { newestKeySecret } from '../../store/callbacks-repo.js';
import type { DB } from '../../store/schema.js';
import { callbackHeaders, type CallbackSender } from '../deliver-callback.js';
import type { Clock, IdGenerator } from '../ports.js';
import type { AccountPrincipal } from '../sessions.js';

/** Test callbacks one account may send a minute (each is an outbound request we make for it). */
export const TEST_CALLBACKS_PER_MINUTE = 10;

/**
 * "Send a test callback": a signed sample order callback delivered now to the account's
 * callback URL, exactly as a real one (same payload shape, headers, signature with the newest
 * live key's secret, SSRF rules at connect time, timeout, no redirects), and what the
 * receiver answered. Nothing is stored: it is not an order's delivery.
 */
export class CallbackTest {
  constructor(
    private readonly deps: {
      db: Kysely<DB>; secrets: SecretBox; send: CallbackSender; limiter: RateLimiter; clock: Clock; ids: IdGenerator;
      money: (minor: number) => number; allowPrivateTargets: boolean;
    },
  ) {}

  async send(who: AccountPrincipal) {
    const { db, secrets, send, limiter, clock, ids } = this.deps;
    const row = await db
      .selectFrom('resellers as r')
      .select(['r.callback_url', newestKeySecret('r.id').as('secret_enc')])
      .where('r.id', '=', who.resellerId)
      .executeTakeFirst();
    if (!row?.callback_url) throw new AppError('INVALID_STATE', 'set a callback URL first (PUT /me/callback-url)');
    if (!row.secret_enc) throw new AppError('INVALID_STATE', 'generate an API key first: callbacks are signed with its secret');
    const state = await limiter.consume(`callback-test:${who.resellerId}`, TEST_CALLBACKS_PER_MINUTE);
    if (!state.allowed) {
      throw new AppError('TOO_MANY_ATTEMPTS', `at most ${TEST_CALLBACKS_PER_MINUTE} test callbacks a minute; retry after ${state.resetSeconds} s`, { headers: { 'retry-after': String(state.resetSeconds) } });
    }
    const now = clock.now();
    const payload = callbackPayload(sampleOrder(ids.uuid(), who.resellerId, now), this.deps.money);
    const body = JSON.stringify(payload);
    const timestamp = String(now);
    const headers = callbackHeaders(secrets.open(row.secret_enc), { timestamp, body, callbackId: ids.uuid(), attempt: 1 });
    const result = await send({ url: row.callback_url, body, headers, timeoutMs: CALLBACK_TIMEOUT_MS, allowPrivate: this.deps.allowPrivateTargets });
    return {
      delivered: isDelivered(result.httpStatus),
      url: row.callback_url,
      httpStatus: result.httpStatus,
      durationMs: result.durationMs,
      responseExcerpt: result.responseSnippet,
      error: result.error ?? (isDelivered(result.httpStatus) ? null : `HTTP ${result.httpStatus}`),
      payload,
      headers: { 'x-timestamp': headers['x-timestamp']!, 'x-signature': headers['x-signature']!, 'x-callback-id': headers['x-callback-id']!, 'x-callback-attempt': '1' },
    };
  }
}

/** A successful order that never existed; its ref_id says it is a test. */
function sampleOrder(id: string, resellerId: string, now: number): OrderRecord {
  return {
    id, resellerId, refId: `test-callback-${id.slice(0, 8)}`, productCode: 'TEST-100', productName: 'Test callback (not a real order)',
    target: '123456789', zone: null, price: 0, status: 'success', serialNumber: 'SRL-TEST000000', failureCode: null, failureReason: null,
    createdAt: now, completedAt: now,
  };
}
