import type { Transaction } from 'kysely';
import { AppError } from '../errors.js';
import { CREDITABLE_STATES, depositNote, type DepositChannel, type DepositMatch } from '../domain/deposit.js';
import { LedgerRepo } from './ledger-repo.js';
import { enqueueJob } from './jobs-repo.js';
import { JOB_KINDS } from './job-kinds.js';
import type { DB } from './schema.js';

export type CreditOutcome =
  | { credited: true; resellerId: string; amount: number; balanceAfter: number }
  | { credited: false; state: string | null };

/**
 * The one way a deposit becomes money in a wallet, for every channel: inside the caller's
 * transaction, the deposit moves from a creditable state to `paid` and its ledger credit is
 * written. A second arrival finds it paid and credits nothing; the ledger's unique
 * (deposit_id, type) holds even if a caller forgot the state.
 */
export async function creditDepositIn(
  trx: Transaction<DB>,
  d: { id: string; matchedBy: DepositMatch; reference: string | null; actor: string | null; now: number; from?: readonly string[] },
): Promise<CreditOutcome> {
  const row = await trx
    .updateTable('deposits')
    .set({ state: 'paid', paid_at: d.now, matched_by: d.matchedBy, reference: d.reference, actor: d.actor, updated_at: d.now })
    .where('id', '=', d.id)
    .where('state', 'in', [...(d.from ?? CREDITABLE_STATES)])
    .returning(['reseller_id', 'amount', 'channel'])
    .executeTakeFirst();
  if (!row) {
    const current = await trx.selectFrom('deposits').select('state').where('id', '=', d.id).executeTakeFirst();
    return { credited: false, state: current?.state ?? null };
  }
  const amount = Number(row.amount);
  const entry = await LedgerRepo.depositIn(trx, { resellerId: row.reseller_id, depositId: d.id, amount, note: depositNote(d.id, row.channel as DepositChannel), now: d.now });
  // Only past MAX_EXACT_MINOR: thrown, so the state change rolls back with it.
  if (!entry) throw new AppError('INVALID_STATE', `crediting ${d.id} would take the balance past the largest balance the service holds; nothing was changed`);
  // The shop's notice, committed with the credit (its job writes the message).
  await enqueueJob(trx, { kind: JOB_KINDS.depositCredited, payload: { depositId: d.id }, runAt: d.now }, d.now);
  return { credited: true, resellerId: row.reseller_id, amount, balanceAfter: entry.balanceAfter };
}
