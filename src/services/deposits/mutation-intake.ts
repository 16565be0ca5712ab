import type { Transaction } from 'kysely';
import { needsReview, type DepositSettings } from '../../domain/bank-deposit.js';
import { BankDepositsRepo } from '../../store/bank-deposits-repo.js';
import { BankMutationsRepo } from '../../store/bank-mutations-repo.js';
import { creditDepositIn } from '../../store/deposits-repo.js';
import type { DB } from '../../store/schema.js';

export interface IncomingMutation {
  bankAccountId: string;
  identity: string;
  source: 'statement' | 'webhook';
  bookedOn: string;
  description: string;
  amount: number;
  direction: 'CR' | 'DB';
}

export type IntakeOutcome =
  | { outcome: 'duplicate' | 'debit' | 'unmatched'; mutationId: string | null; depositId: null }
  | { outcome: 'matched' | 'review'; mutationId: string; depositId: string };

/**
 * One bank mutation, from a statement line or a webhook, in the caller's transaction: stored
 * once by its identity (a second arrival changes nothing), then a credit is matched to the
 * account's open ticket of EXACTLY that payable amount and credited through creditDepositIn,
 * or held in `review` above the review amount, or left unmatched for an operator. An amount
 * that differs by one rupiah never matches.
 */
export async function intakeMutationIn(trx: Transaction<DB>, m: IncomingMutation, settings: DepositSettings, id: string, now: number): Promise<IntakeOutcome> {
  const inserted = await BankMutationsRepo.insertOnce(trx, { ...m, id, state: m.direction === 'DB' ? 'debit' : 'unmatched', createdAt: now });
  if (!inserted) return { outcome: 'duplicate', mutationId: null, depositId: null };
  if (m.direction === 'DB') return { outcome: 'debit', mutationId: id, depositId: null };
  await BankDepositsRepo.expireDue(trx, now, m.bankAccountId);
  const ticket = await BankDepositsRepo.openByPayable(trx, m.bankAccountId, m.amount);
  if (!ticket) return { outcome: 'unmatched', mutationId: id, depositId: null };
  const matchedBy = m.source === 'statement' ? 'statement' : 'webhook';
  if (needsReview(m.amount, settings)) {
    const held = await trx.updateTable('deposits').set({ state: 'review', matched_by: matchedBy, reference: m.identity, updated_at: now })
      .where('id', '=', ticket.id).where('state', '=', 'open').executeTakeFirst();
    if (Number(held.numUpdatedRows) !== 1) return { outcome: 'unmatched', mutationId: id, depositId: null };
    await BankMutationsRepo.settle(trx, id, 'unmatched', { state: 'review', depositId: ticket.id, now });
    return { outcome: 'review', mutationId: id, depositId: ticket.id };
  }
  const credit = await creditDepositIn(trx, { id: ticket.id, matchedBy, reference: m.identity, actor: null, now, from: ['open'] });
  // Another transfer of the same amount won the ticket first: this one waits for an operator.
  if (!credit.credited) return { outcome: 'unmatched', mutationId: id, depositId: null };
  await BankMutationsRepo.settle(trx, id, 'unmatched', { state: 'matched', depositId: ticket.id, now });
  return { outcome: 'matched', mutationId: id, depositId: ticket.id };
}
