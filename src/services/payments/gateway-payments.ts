import type { Kysely } from 'kysely';
import { parsePage } from '../../domain/list-query.js';
import { DEPOSIT_STATES } from '../../domain/deposit.js';
import { toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AttentionRepo } from '../../store/attention-repo.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { GatewayRepo } from '../../store/gateway-repo.js';
import { LedgerRepo } from '../../store/ledger-repo.js';
import type { DB } from '../../store/schema.js';
import type { Actor } from '../operator/actor.js';
import { minorUnits } from '../operator/money-input.js';
import type { Clock, CurrencySettings } from '../ports.js';
import { refundAttentionId } from './settle-gateway-deposit.js';

const MAX_NOTE = 500;

/**
 * The operator's view of gateway payments (each with its raw notifications) and the one
 * action on them: after the gateway refunded a credited payment, debit the credit back.
 * Never below zero: the ledger forbids a negative balance, so when the wallet holds less
 * than the reversal, nothing is debited and the operator is told so (no partial debit).
 */
export class GatewayPayments {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; currency: CurrencySettings }) {}

  async list(q: { state?: string; reseller_id?: string; page?: string; limit?: string }) {
    if (q.state !== undefined && !(DEPOSIT_STATES as readonly string[]).includes(q.state)) throw new AppError('VALIDATION_ERROR', `state must be one of ${DEPOSIT_STATES.join(', ')}`);
    const page = parsePage(q);
    const r = await new GatewayRepo(this.deps.db).deposits({ state: q.state ?? null, resellerId: q.reseller_id ?? null, limit: page.limit, offset: page.offset });
    return { ...r, page };
  }

  async detail(id: string) {
    const repo = new GatewayRepo(this.deps.db);
    const deposit = await repo.deposit(id);
    if (!deposit) throw new AppError('NOT_FOUND', `no gateway payment "${id}"`);
    const [notifications, refund] = await Promise.all([repo.notificationsOf(id), new AttentionRepo(this.deps.db).byId(refundAttentionId(id))]);
    return { deposit, notifications, refund };
  }

  /** Signed notifications that matched no payment, newest first. */
  unmatched(limit = 50) {
    return new GatewayRepo(this.deps.db).unmatchedNotifications(limit);
  }

  /**
   * Debits a refunded payment's credit back (once: the ledger holds one reversal per deposit).
   * amount: major units, default the whole credit; required for a partial refund.
   */
  async reverse(id: string, input: { amount?: number | string; note?: string }, actor: Actor) {
    const note = (input.note ?? '').trim();
    if (note.length > MAX_NOTE) throw new AppError('VALIDATION_ERROR', `note must be at most ${MAX_NOTE} characters`);
    const now = this.deps.clock.now();
    const money = (m: number) => toMajor(m, this.deps.currency.decimals);
    return this.deps.db.transaction().execute(async (trx) => {
      const d = await trx.selectFrom('deposits').selectAll().where('id', '=', id).where('channel', '=', 'gateway').executeTakeFirst();
      if (!d) throw new AppError('NOT_FOUND', `no gateway payment "${id}"`);
      const attention = await new AttentionRepo(trx).byId(refundAttentionId(id));
      if (d.state === 'reversed') throw new AppError('INVALID_STATE', `${id} was already reversed`);
      if (d.state !== 'paid' || !attention) throw new AppError('INVALID_STATE', `${id} is ${d.state} and the gateway has reported no refund of it after its credit: nothing to reverse`);
      const credited = Number(d.amount);
      const partial = (attention.details as { transaction_status?: string } | null)?.transaction_status === 'partial_refund';
      if (partial && input.amount === undefined) throw new AppError('VALIDATION_ERROR', `the gateway refunded ${id} in part: give amount, what to debit back (at most ${money(credited)})`);
      const amount = input.amount === undefined ? credited : minorUnits(input.amount, this.deps.currency, 'amount', { positive: true });
      if (amount > credited) throw new AppError('VALIDATION_ERROR', `amount must be at most the ${money(credited)} credited by ${id}`);
      // The deposit row first (as creditDepositIn does): a concurrent reversal waits here and then finds it reversed.
      const claimed = await trx.updateTable('deposits').set({ state: 'reversed', actor, updated_at: now }).where('id', '=', id).where('state', '=', 'paid').executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) throw new AppError('INVALID_STATE', `${id} was already reversed`);
      const before = await trx.selectFrom('resellers').select('balance').where('id', '=', d.reseller_id).executeTakeFirstOrThrow();
      const entry = await LedgerRepo.depositIn(trx, {
        resellerId: d.reseller_id, depositId: id, amount: -amount, now,
        note: note ? `Reversal of deposit ${id} (refunded by the payment gateway): ${note}` : `Reversal of deposit ${id} (refunded by the payment gateway)`,
      });
      if (!entry) {
        // Thrown: the state change above rolls back with it.
        throw new AppError('INSUFFICIENT_BALANCE', `the wallet holds ${money(Number(before.balance))}, less than the ${money(amount)} to reverse; a wallet never goes below zero, so nothing was debited. Reverse it once the balance allows, or settle it with the reseller outside the platform and resolve the attention item`);
      }
      await new AttentionRepo(trx).resolve(attention.id, actor, now);
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'deposit.reverse', targetKind: 'deposit', targetId: id,
        before: { state: 'paid', balance: Number(before.balance) }, after: { state: 'reversed', amount: -amount, balance: entry.balanceAfter }, note: note || null,
      }, now);
      return { depositId: id, resellerId: d.reseller_id, amount, balanceAfter: entry.balanceAfter };
    });
  }
}
