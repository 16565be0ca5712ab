import type { Kysely, Transaction } from 'kysely';
import { CREDITABLE_STATES } from '../../domain/deposit.js';
import { gatewayVerdict, parseGrossAmount, type GatewayVerdict } from '../../domain/gateway-status.js';
import { AttentionRepo } from '../../store/attention-repo.js';
import { creditDepositIn } from '../../store/deposits-repo.js';
import type { DB } from '../../store/schema.js';
import type { CurrencySettings } from '../ports.js';
import type { GatewayStatus } from './gateway-port.js';

/** What a confirmed status did to a deposit (kept with the notification, shown to the operator). */
export type SettleOutcome =
  | 'credited' | 'already_credited' | 'amount_mismatch' | 'closed' | 'already_closed' | 'pending' | 'refund_attention' | 'refund_uncredited' | 'no_change';

/** A paid status may still credit a deposit we closed earlier: the gateway's confirmed word is that money arrived. */
const CREDIT_FROM = [...CREDITABLE_STATES, 'failed', 'cancelled'] as const;
const CLOSED_STATE: Partial<Record<GatewayVerdict, string>> = { failed: 'failed', expired: 'expired', cancelled: 'cancelled' };

export const refundAttentionId = (depositId: string) => `gateway-refund-${depositId}`;
const mismatchAttentionId = (depositId: string) => `gateway-amount-${depositId}`;

/**
 * Applies the gateway's confirmed status (from its status API, never a notification's own
 * word) to a deposit, inside the caller's transaction. Crediting goes through
 * creditDepositIn, so any number of confirmations in any order credit once.
 */
export async function settleGatewayDepositIn(
  trx: Transaction<DB>,
  d: { id: string; payable: number },
  status: Extract<GatewayStatus, { kind: 'found' }>,
  ctx: { now: number; currency: CurrencySettings },
): Promise<SettleOutcome> {
  const verdict = gatewayVerdict(status.transactionStatus, status.fraudStatus);
  if (verdict === 'paid') {
    const gross = parseGrossAmount(status.grossAmount);
    const expected = d.payable / 10 ** ctx.currency.decimals;
    if (gross === null || gross !== expected) {
      await new AttentionRepo(trx).addOnce({
        id: mismatchAttentionId(d.id), kind: 'gateway_amount_mismatch', targetKind: 'deposit', targetId: d.id, createdAt: ctx.now,
        summary: `Gateway payment ${d.id}: paid ${status.grossAmount}, expected ${expected}; nothing was credited`,
        details: { gross_amount: status.grossAmount, expected_gross_amount: expected, transaction_id: status.transactionId },
      });
      return 'amount_mismatch';
    }
    const r = await creditDepositIn(trx, { id: d.id, matchedBy: 'gateway', reference: status.transactionId, actor: null, now: ctx.now, from: CREDIT_FROM });
    return r.credited ? 'credited' : 'already_credited';
  }
  const closed = CLOSED_STATE[verdict];
  if (closed) {
    const r = await trx.updateTable('deposits').set({ state: closed, updated_at: ctx.now }).where('id', '=', d.id).where('state', '=', 'open').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? 'closed' : 'already_closed';
  }
  if (verdict === 'refunded') {
    const row = await trx.selectFrom('deposits').select(['state', 'amount']).where('id', '=', d.id).executeTakeFirstOrThrow();
    if (row.state === 'paid') {
      await new AttentionRepo(trx).addOnce({
        id: refundAttentionId(d.id), kind: 'gateway_refund', targetKind: 'deposit', targetId: d.id, createdAt: ctx.now,
        summary: `Gateway payment ${d.id} was refunded after its credit: confirm the reversal in Deposits`,
        details: { transaction_status: status.transactionStatus, refund_amount: status.body.refund_amount ?? null, credited: Number(row.amount), transaction_id: status.transactionId },
      });
      return 'refund_attention';
    }
    if (row.state === 'open') {
      await trx.updateTable('deposits').set({ state: 'cancelled', updated_at: ctx.now }).where('id', '=', d.id).where('state', '=', 'open').execute();
      return 'refund_uncredited';
    }
    return 'no_change';
  }
  return verdict === 'pending' ? 'pending' : 'no_change';
}

export async function depositForSettling(db: Kysely<DB> | Transaction<DB>, orderId: string) {
  return db.selectFrom('deposits').select(['id', 'payable', 'reseller_id', 'state']).where('gateway_order_id', '=', orderId).where('channel', '=', 'gateway').executeTakeFirst();
}
