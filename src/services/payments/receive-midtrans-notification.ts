import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { verifyMidtransSignature } from '../../adapters/payments/midtrans.js';
import { gatewayVerdict, statusConfirms } from '../../domain/gateway-status.js';
import { AppError } from '../../errors.js';
import { GatewayRepo } from '../../store/gateway-repo.js';
import type { DB } from '../../store/schema.js';
import type { Clock, CurrencySettings, IdGenerator } from '../ports.js';
import type { GatewayConfig } from './gateway-config.js';
import { GatewayUnavailable, type PaymentGateway } from './gateway-port.js';
import { depositForSettling, settleGatewayDepositIn } from './settle-gateway-deposit.js';

const MAX_BODY = 16_384;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * A Midtrans HTTP notification (POST /hooks/midtrans). Every notification that is signed or
 * names one of our payments is kept, raw, with its outcome. Order of checks: signature_key (timing-safe, with the server key), then the
 * status API, whose answer, not the notification's, is what is applied (the notification
 * only says "ask now"). Answers:
 * - 2xx when the status was applied, when the notification is stale (the status is further
 *   along: a late `pending`), or when it is about an order we never made (nothing to retry);
 * - 401 for a bad signature; 400 for an unreadable body;
 * - 502 when the status API gives no usable answer, and 409 when it does not confirm what the
 *   notification says (e.g. `settlement` while the status is `pending`): nothing changes and
 *   the non-2xx answer makes Midtrans retry, by which time the status may agree.
 */
export class ReceiveMidtransNotification {
  constructor(private readonly deps: { db: Kysely<DB>; config: GatewayConfig; gateway: PaymentGateway; clock: Clock; ids: IdGenerator; currency: CurrencySettings; logger: Logger }) {}

  async execute(raw: Buffer): Promise<{ outcome: string }> {
    const { db, clock, ids } = this.deps;
    const now = clock.now();
    const body = raw.subarray(0, MAX_BODY).toString('utf8');
    // The endpoint is public: what is neither signed nor about one of our payments goes to the
    // log only, so a stranger's flood cannot fill the table the operator reads.
    const log = async (n: { orderId: string | null; depositId: string | null; status: string | null; signatureValid: boolean; confirmed: string | null; outcome: string }) => {
      if (!n.signatureValid && !n.depositId) {
        this.deps.logger.warn({ orderId: n.orderId?.slice(0, 100) ?? null, outcome: n.outcome }, 'midtrans notification refused (unsigned, for no payment of ours)');
        return;
      }
      await new GatewayRepo(db).logNotification({ id: ids.uuid(), receivedAt: now, orderId: n.orderId, depositId: n.depositId, transactionStatus: n.status, signatureValid: n.signatureValid, confirmedStatus: n.confirmed, outcome: n.outcome, body });
    };

    let n: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) n = parsed as Record<string, unknown>;
    } catch { /* below */ }
    const orderId = str(n?.order_id), statusCode = str(n?.status_code), gross = str(n?.gross_amount), signature = str(n?.signature_key), txStatus = str(n?.transaction_status);
    if (!n || !orderId || !statusCode || !gross || !signature || !txStatus) {
      const known = orderId ? await depositForSettling(db, orderId) : undefined;
      await log({ orderId, depositId: known?.id ?? null, status: txStatus, signatureValid: false, confirmed: null, outcome: 'unreadable' });
      throw new AppError('VALIDATION_ERROR', 'notification must be a JSON object with order_id, status_code, gross_amount, transaction_status and signature_key (strings)');
    }
    const deposit = await depositForSettling(db, orderId);
    const depositId = deposit?.id ?? null;
    const access = await this.deps.config.access();
    if (!access) {
      await log({ orderId, depositId, status: txStatus, signatureValid: false, confirmed: null, outcome: 'not_configured' });
      throw new AppError('GATEWAY_UNAVAILABLE', 'the payment gateway is not set up (no server key): nothing was changed');
    }
    if (!verifyMidtransSignature({ order_id: orderId, status_code: statusCode, gross_amount: gross, signature_key: signature }, access.serverKey)) {
      await log({ orderId, depositId, status: txStatus, signatureValid: false, confirmed: null, outcome: 'bad_signature' });
      this.deps.logger.warn({ orderId }, 'midtrans notification refused: signature_key does not match');
      throw new AppError('INVALID_SIGNATURE', 'signature_key does not match this notification and the server key');
    }
    if (!deposit) {
      await log({ orderId, depositId: null, status: txStatus, signatureValid: true, confirmed: null, outcome: 'unknown_order' });
      return { outcome: 'unknown_order' };
    }
    let status;
    try {
      status = await this.deps.gateway.status(access, orderId);
    } catch (e) {
      if (!(e instanceof GatewayUnavailable)) throw e;
      await log({ orderId, depositId, status: txStatus, signatureValid: true, confirmed: null, outcome: 'status_unavailable' });
      throw new AppError('GATEWAY_UNAVAILABLE', `${e.message}; nothing was changed, retry later`);
    }
    const confirmedStatus = status.kind === 'found' ? status.transactionStatus : 'missing';
    const notified = gatewayVerdict(txStatus, str(n.fraud_status));
    if (status.kind !== 'found' || status.orderId !== orderId || !statusConfirms(notified, gatewayVerdict(status.transactionStatus, status.fraudStatus))) {
      await log({ orderId, depositId, status: txStatus, signatureValid: true, confirmed: confirmedStatus, outcome: 'status_disagrees' });
      throw new AppError('CONFLICT', `the status API does not confirm "${txStatus}" (it says "${confirmedStatus}"); nothing was changed, retry later`);
    }
    const outcome = await db.transaction().execute(async (trx) => {
      const o = await settleGatewayDepositIn(trx, deposit, status, { now, currency: this.deps.currency });
      await new GatewayRepo(trx).logNotification({ id: ids.uuid(), receivedAt: now, orderId, depositId, transactionStatus: txStatus, signatureValid: true, confirmedStatus, outcome: o, body });
      return o;
    });
    return { outcome };
  }
}
