import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../adapters/secret-box.js';
import type { DigiflazzCredentials } from '../adapters/suppliers/digiflazz/protocol.js';
import { verifyHubSignature } from '../adapters/suppliers/digiflazz/webhook.js';
import { orderIdOfReference } from '../domain/supplier-reference.js';
import { AppError } from '../errors.js';
import { supplierCredentials, type FulfilmentRepo } from '../store/fulfilment-repo.js';
import type { DB } from '../store/schema.js';
import type { Clock } from './ports.js';

/**
 * A Digiflazz webhook (X-Hub-Signature checked with the supplier's webhook secret) is only
 * a hint: it brings the order's next status query forward, and that query, read by the
 * same rules as every poll, settles the order. So a replayed webhook changes nothing the
 * supplier does not confirm, and one for an unknown or already final order changes
 * nothing at all (it is logged). Answers at once; the query runs in the worker.
 */
export class ReceiveDigiflazzWebhook {
  constructor(private readonly deps: { db: Kysely<DB>; fulfilment: FulfilmentRepo; secrets: SecretBox; clock: Clock; logger: Logger; wake: () => void }) {}

  async execute(supplierId: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer): Promise<{ event: string; expedited: boolean }> {
    const { db, fulfilment, secrets, clock, logger } = this.deps;
    const supplier = await db.selectFrom('suppliers').select(['id', 'adapter']).where('id', '=', supplierId).executeTakeFirst();
    if (!supplier || supplier.adapter !== 'digiflazz') throw new AppError('NOT_FOUND', 'no digiflazz supplier with this id');
    const creds = JSON.parse(secrets.open(await supplierCredentials(db, supplierId))) as DigiflazzCredentials;
    if (!creds.webhookSecret || !verifyHubSignature(rawBody, headers['x-hub-signature'], creds.webhookSecret)) {
      logger.warn({ supplierId }, 'digiflazz webhook refused: bad or missing X-Hub-Signature');
      throw new AppError('INVALID_SIGNATURE', 'webhook refused: X-Hub-Signature does not match the webhook secret');
    }
    const event = typeof headers['x-digiflazz-event'] === 'string' ? headers['x-digiflazz-event'] : 'update';
    if (event === 'ping') return { event, expedited: false };
    let refId: unknown;
    try {
      refId = (JSON.parse(rawBody.toString('utf8')) as { data?: { ref_id?: unknown } }).data?.ref_id;
    } catch {
      throw new AppError('VALIDATION_ERROR', 'webhook body is not JSON');
    }
    if (typeof refId !== 'string' || refId === '') throw new AppError('VALIDATION_ERROR', 'webhook has no data.ref_id');
    const order = await fulfilment.order(orderIdOfReference(refId));
    // Only the attempt in flight is asked about: a webhook for an earlier attempt is stale.
    if (!order || order.status !== 'processing' || order.supplierId !== supplierId || (order.supplierRef ?? order.id) !== refId) {
      logger.info({ supplierId, refId, event, orderStatus: order?.status ?? null }, 'digiflazz webhook for an unknown, other or already final order: nothing changed');
      return { event, expedited: false };
    }
    const expedited = await fulfilment.expediteFulfilment(order.id, clock.now());
    if (expedited) this.deps.wake();
    return { event, expedited };
  }
}
