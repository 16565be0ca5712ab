import type { SecretBox } from '../adapters/secret-box.js';
import type { UpstreamV1Credentials } from '../adapters/suppliers/upstream-v1.js';
import { orderIdOfReference } from '../domain/supplier-reference.js';
import { assertText } from '../domain/text.js';
import { AppError } from '../errors.js';
import { verifyCallback } from '../receiver.js';
import { supplierCredentials, type FulfilmentRepo } from '../store/fulfilment-repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import type { Clock } from './ports.js';

/**
 * An upstream-v1 supplier's callback: verified with that supplier's API secret, it only
 * brings the order's next status query forward; the status query stays the source of truth.
 */
export class ReceiveUpstreamCallback {
  constructor(private readonly deps: { db: Kysely<DB>; fulfilment: FulfilmentRepo; secrets: SecretBox; clock: Clock; wake: () => void }) {}

  async execute(supplierId: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer): Promise<void> {
    const supplier = await this.deps.db.selectFrom('suppliers').select(['id', 'adapter']).where('id', '=', supplierId).executeTakeFirst();
    if (!supplier || supplier.adapter !== 'upstream-v1') throw new AppError('NOT_FOUND', 'no upstream-v1 supplier with this id');
    const creds = JSON.parse(this.deps.secrets.open(await supplierCredentials(this.deps.db, supplierId))) as UpstreamV1Credentials;
    const verdict = verifyCallback({ rawBody, headers, secret: creds.apiSecret, now: this.deps.clock.now() });
    if (!verdict.ok) throw new AppError(verdict.reason === 'timestamp_expired' ? 'TIMESTAMP_EXPIRED' : 'INVALID_SIGNATURE', `callback refused: ${verdict.reason}`);
    let refId: unknown;
    try {
      refId = (JSON.parse(rawBody.toString('utf8')) as { ref_id?: unknown }).ref_id;
    } catch {
      throw new AppError('VALIDATION_ERROR', 'callback body is not JSON');
    }
    if (typeof refId !== 'string') throw new AppError('VALIDATION_ERROR', 'callback has no ref_id');
    assertText('ref_id', refId);
    if (await this.deps.fulfilment.expediteFulfilment(orderIdOfReference(refId), this.deps.clock.now())) this.deps.wake();
  }
}
