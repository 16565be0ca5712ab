import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { assertText } from '../../domain/text.js';
import { AppError } from '../../errors.js';
import { isUniqueViolation } from '../../store/db.js';
import type { DB } from '../../store/schema.js';
import type { Clock } from '../ports.js';

/** How long a key is remembered: a retry after a day is a new request. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
const MAX_KEY = 255;

/** What a caller sends: its key, and what identifies its request (method, path, body). */
export interface IdempotentRequest {
  key: string;
  /** The request the key was first used with; see fingerprintOf. */
  fingerprint: string;
}

/**
 * What a guarded change does with its key, in its own transaction: `take` is its first
 * statement and `keep` its last, so the key, the change and the answer kept for replays
 * commit together or not at all. A key another request holds uncommitted makes `take` wait
 * for it (the primary key): its answer is replayed, or, rolled back, the key is free.
 */
export interface Claim<T> {
  take(trx: Transaction<DB>): Promise<void>;
  keep(trx: Transaction<DB>, result: T): Promise<void>;
}
const noClaim: Claim<never> = { take: async () => {}, keep: async () => {} };

/** The key was taken by a request that committed first (thrown out of the change's transaction). */
class KeyTaken extends Error {}

/** sha256 of the request, body keys sorted, so that the same request always has the same print. */
export function fingerprintOf(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? sortedKeys(v) : v))).digest('hex');
}
const sortedKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));

/**
 * Operator money changes run at most once per Idempotency-Key (scoped per operator, kept
 * 24 h), as Stripe's API does: the same key with the same request answers the first result
 * again; with another request it is refused (IDEMPOTENCY_KEY_REUSED). The key is claimed
 * first in the change's transaction and its answer written last in it (Claim): requests
 * racing with one key wait for the first and replay its answer, and a crash leaves either
 * the change with its answer or neither (the key free again). A change that fails
 * (refused, not found) writes nothing, the key included: a retry is evaluated afresh.
 */
export class Idempotency {
  constructor(private readonly core: { db: Kysely<DB>; clock: Clock }) {}

  /**
   * Runs `change` (which must take and keep the claim in its transaction) unless the key
   * was seen; `present` turns its result into the answer that is kept for replays.
   */
  async run<T, D>(scope: string, req: IdempotentRequest | null, change: (claim: Claim<T>) => Promise<T>, present: (result: T) => D): Promise<{ data: D; replayed: boolean }> {
    if (!req) return { data: present(await change(noClaim)), replayed: false };
    checkKey(req.key);
    const seen = await this.seen(scope, req);
    if (seen) return seen as { data: D; replayed: true };
    const now = this.core.clock.now();
    const kept: { data?: D } = {};
    const claim: Claim<T> = {
      async take(trx) {
        // This key's expired row only: locking every expired row here would queue unrelated
        // changes behind each other for their whole transactions (the rest go after, below).
        await trx.deleteFrom('idempotency_keys').where('scope', '=', scope).where('idem_key', '=', req.key).where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute();
        try {
          await trx.insertInto('idempotency_keys').values({ scope, idem_key: req.key, fingerprint: req.fingerprint, response: null, created_at: now }).execute();
        } catch (e) {
          throw isUniqueViolation(e) ? new KeyTaken() : e;
        }
      },
      async keep(trx, result) {
        kept.data = present(result);
        await trx.updateTable('idempotency_keys').set({ response: JSON.stringify(kept.data) }).where('scope', '=', scope).where('idem_key', '=', req.key).execute();
      },
    };
    let result: T;
    try {
      result = await change(claim);
    } catch (e) {
      if (!(e instanceof KeyTaken)) throw e;
      const first = await this.seen(scope, req);
      if (first) return first as { data: D; replayed: true };
      throw inProgress();
    }
    // Housekeeping after the change has committed: a failure here must not turn its answer
    // into an error (the next change prunes again).
    await this.core.db.deleteFrom('idempotency_keys').where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute().catch(() => {});
    return { data: 'data' in kept ? kept.data! : present(result), replayed: false };
  }

  private async seen(scope: string, req: IdempotentRequest): Promise<{ data: unknown; replayed: true } | null> {
    const row = await this.core.db.selectFrom('idempotency_keys').select(['fingerprint', 'response'])
      .where('scope', '=', scope).where('idem_key', '=', req.key).where('created_at', '>=', this.core.clock.now() - IDEMPOTENCY_TTL_MS)
      .executeTakeFirst();
    if (!row) return null;
    if (row.fingerprint !== req.fingerprint) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used in the last 24 hours with a different request (path or body); use a new key for a new request');
    }
    if (row.response === null) throw inProgress();
    return { data: JSON.parse(row.response), replayed: true };
  }
}

function checkKey(key: string) {
  if (key.length === 0 || key.length > MAX_KEY) throw new AppError('VALIDATION_ERROR', `Idempotency-Key must be 1 to ${MAX_KEY} characters (a UUID is a good key)`);
  assertText('Idempotency-Key', key);
}

// Only a row written before answers were kept in the change's transaction has none.
const inProgress = () =>
  new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with this Idempotency-Key has been applied but its answer is not recorded yet; retry in a moment with the same key');
