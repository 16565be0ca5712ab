import { parsePage } from '../../domain/list-query.js';
import { DEPOSIT_STATES, type DepositState } from '../../domain/deposit.js';
import { utcDayStart } from '../../domain/bank-deposit.js';
import { toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AttentionRepo } from '../../store/attention-repo.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { BankDepositsRepo } from '../../store/bank-deposits-repo.js';
import { BankMutationsRepo } from '../../store/bank-mutations-repo.js';
import { creditDepositIn } from '../../store/deposits-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from '../operator/actor.js';

export const MUTATION_STATES = ['matched', 'review', 'unmatched', 'assigned', 'handled', 'debit'] as const;
/** Unmatched money older than this raises an attention item. */
export const UNMATCHED_ATTENTION_MS = 3_600_000;
const REFERENCE_MAX = 200;

export function parseStates<T extends string>(raw: unknown, all: readonly T[], what = 'state'): T[] | null {
  if (raw === undefined || raw === '') return null;
  const parts = typeof raw === 'string' ? raw.split(',').map((s) => s.trim().toLowerCase()) : [];
  if (!parts.length || !parts.every((p) => (all as readonly string[]).includes(p))) {
    throw new AppError('VALIDATION_ERROR', `${what} must be one of ${all.join(', ')} (or a comma-separated list); got "${String(raw)}"`);
  }
  return [...new Set(parts)] as T[];
}

const cleanNote = (raw: string | undefined | null, what: string, required: boolean) => {
  const t = (raw ?? '').trim();
  if (required && !t) throw new AppError('VALIDATION_ERROR', `${what} is required`);
  if (t.length > REFERENCE_MAX) throw new AppError('VALIDATION_ERROR', `${what} must be at most ${REFERENCE_MAX} characters`);
  return t || null;
};

/**
 * The operator's side of deposits: lists, today's credits, marking a ticket paid (also the
 * confirmation of one held for review), and the unmatched-money queue (assign to a ticket,
 * or handled outside the platform). Every credit goes through creditDepositIn, audited in
 * its transaction.
 */
export class OperatorDeposits {
  private readonly repo: BankDepositsRepo;
  private readonly mutations: BankMutationsRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'currency'>) {
    this.repo = new BankDepositsRepo(core.db);
    this.mutations = new BankMutationsRepo(core.db);
  }

  async list(q: { state?: string; channel?: string; reseller_id?: string; page?: string; limit?: string }) {
    const page = parsePage(q);
    await BankDepositsRepo.expireDue(this.core.db, this.core.clock.now());
    const states = parseStates<DepositState>(q.state, DEPOSIT_STATES);
    const channel = parseStates(q.channel, ['bank', 'gateway'] as const, 'channel');
    if (channel && channel.length > 1) throw new AppError('VALIDATION_ERROR', 'channel must be bank or gateway');
    const r = await this.repo.list({ states, channel: channel?.[0] ?? null, resellerId: q.reseller_id || undefined, limit: page.limit, offset: page.offset });
    return { ...r, page };
  }

  async listMutations(q: { state?: string; page?: string; limit?: string }) {
    const page = parsePage(q);
    const states = parseStates(q.state, MUTATION_STATES);
    await this.raiseStaleUnmatched();
    return { ...(await this.mutations.list({ states, limit: page.limit, offset: page.offset })), page };
  }

  /** Open tickets, tickets in review, unmatched money, and what wallets got today (UTC) by channel. */
  async summary() {
    const now = this.core.clock.now();
    await BankDepositsRepo.expireDue(this.core.db, now);
    const count = async (table: 'deposits' | 'bank_mutations', state: string) =>
      Number((await this.core.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', state).executeTakeFirst())?.n ?? 0);
    await this.raiseStaleUnmatched();
    return {
      open: await count('deposits', 'open'), review: await count('deposits', 'review'), unmatched: await count('bank_mutations', 'unmatched'),
      today: await this.repo.creditedSince(utcDayStart(now)),
    };
  }

  async markPaid(id: string, rawReference: string | undefined, actor: Actor, note?: string | null) {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const d = await BankDepositsRepo.depositIn(trx, id);
      if (!d || d.channel !== 'bank') throw new AppError('NOT_FOUND', `no bank-transfer deposit with id ${id}`);
      if (!['open', 'review', 'expired'].includes(d.state)) throw new AppError('INVALID_STATE', `deposit ${id} is ${d.state}: only an open, expired or review ticket can be marked paid; nothing was changed`);
      // A ticket held for review keeps the reference of the transfer that matched it.
      const reference = cleanNote(rawReference, 'reference', d.state !== 'review') ?? d.reference;
      const credit = await creditDepositIn(trx, { id, matchedBy: d.state === 'review' ? (d.matchedBy as 'statement') : 'operator', reference, actor, now, from: ['open', 'review', 'expired'] });
      if (!credit.credited) throw new AppError('INVALID_STATE', `deposit ${id} is ${credit.state}: only an open, expired or review ticket can be marked paid; nothing was changed`);
      if (d.state === 'review') await trx.updateTable('bank_mutations').set({ state: 'matched', actor, updated_at: now }).where('deposit_id', '=', id).where('state', '=', 'review').execute();
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'deposit.mark_paid', targetKind: 'reseller', targetId: d.resellerId,
        before: { deposit_id: id, state: d.state }, after: { deposit_id: id, state: 'paid', reference, amount: this.major(credit.amount), balance: this.major(credit.balanceAfter) }, note: cleanNote(note, 'note', false),
      }, now);
      return { deposit: (await BankDepositsRepo.depositIn(trx, id))!, balanceAfter: credit.balanceAfter };
    });
  }

  /**
   * Unmatched money credited to a reseller's ticket (open, expired or cancelled). The wallet
   * gets the ticket's amount when the transfer paid its exact payable amount, else what
   * arrived (a transfer of another amount is credited as it came).
   */
  async assign(mutationId: string, depositId: string, actor: Actor, note?: string | null) {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const m = await BankMutationsRepo.byId(trx, mutationId);
      if (!m) throw new AppError('NOT_FOUND', `no bank mutation with id ${mutationId}`);
      if (m.state !== 'unmatched') throw new AppError('INVALID_STATE', `mutation ${mutationId} is ${m.state}: only unmatched money can be assigned; nothing was changed`);
      const d = await BankDepositsRepo.depositIn(trx, depositId);
      if (!d || d.channel !== 'bank') throw new AppError('NOT_FOUND', `no bank-transfer deposit with id ${depositId}`);
      const from = ['open', 'expired', 'cancelled'];
      if (!from.includes(d.state)) throw new AppError('INVALID_STATE', `deposit ${depositId} is ${d.state}: assign to an open, expired or cancelled ticket (confirm a review ticket with mark-paid)`);
      const credited = m.amount === d.payable ? d.amount : m.amount;
      if (credited !== d.amount) await trx.updateTable('deposits').set({ amount: credited, updated_at: now }).where('id', '=', depositId).execute();
      const credit = await creditDepositIn(trx, { id: depositId, matchedBy: 'operator', reference: m.identity, actor, now, from });
      if (!credit.credited) throw new AppError('INVALID_STATE', `deposit ${depositId} is ${credit.state}; nothing was changed`);
      if (!(await BankMutationsRepo.settle(trx, mutationId, 'unmatched', { state: 'assigned', depositId, actor, note: cleanNote(note, 'note', false), now }))) {
        throw new AppError('INVALID_STATE', `mutation ${mutationId} was settled meanwhile; nothing was changed`);
      }
      await this.resolveAttention(trx, mutationId, actor, now);
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'deposit.assign_mutation', targetKind: 'reseller', targetId: d.resellerId,
        before: { deposit_id: depositId, state: d.state, mutation_id: mutationId, mutation_amount: this.major(m.amount), payable: this.major(d.payable) },
        after: { deposit_id: depositId, state: 'paid', amount: this.major(credited), balance: this.major(credit.balanceAfter) }, note: cleanNote(note, 'note', false),
      }, now);
      return { mutation: (await BankMutationsRepo.byId(trx, mutationId))!, deposit: (await BankDepositsRepo.depositIn(trx, depositId))!, balanceAfter: credit.balanceAfter };
    });
  }

  /** Unmatched money dealt with outside the platform (refunded, another account's): leaves the queue. */
  async handle(mutationId: string, rawNote: string, actor: Actor) {
    const note = cleanNote(rawNote, 'note', true);
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const m = await BankMutationsRepo.byId(trx, mutationId);
      if (!m) throw new AppError('NOT_FOUND', `no bank mutation with id ${mutationId}`);
      if (!(await BankMutationsRepo.settle(trx, mutationId, 'unmatched', { state: 'handled', actor, note, now }))) {
        throw new AppError('INVALID_STATE', `mutation ${mutationId} is ${m.state}: only unmatched money can be marked handled; nothing was changed`);
      }
      await this.resolveAttention(trx, mutationId, actor, now);
      await AuditRepo.record(trx, { operatorId: actor, action: 'bank_mutation.handle', targetKind: 'bank_mutation', targetId: mutationId, before: { state: 'unmatched' }, after: { state: 'handled' }, note }, now);
      return (await BankMutationsRepo.byId(trx, mutationId))!;
    });
  }

  /** Unmatched money older than an hour gets one attention item each (kind unmatched_money). */
  private async raiseStaleUnmatched() {
    const now = this.core.clock.now();
    const stale = await this.mutations.unmatchedOlderThan(now - UNMATCHED_ATTENTION_MS);
    if (!stale.length) return;
    const raised = new Set((await this.core.db.selectFrom('attention_items').select('target_id').where('kind', '=', 'unmatched_money').where('target_id', 'in', stale.map((m) => m.id)).execute()).map((r) => r.target_id));
    const attention = new AttentionRepo(this.core.db);
    for (const m of stale) {
      if (raised.has(m.id)) continue;
      await attention.add({
        id: this.core.ids.uuid(), kind: 'unmatched_money', targetKind: 'bank_mutation', targetId: m.id, createdAt: now,
        summary: `${this.major(m.amount)} ${this.core.currency.code} arrived on ${m.bookedOn} and matches no ticket: assign it or mark it handled (Deposits)`,
        details: { bank_account_id: m.bankAccountId, amount: this.major(m.amount), description: m.description },
      }).catch(() => undefined); // a concurrent reader raised it: one is enough
    }
  }

  private async resolveAttention(trx: Parameters<typeof AuditRepo.record>[0], mutationId: string, actor: Actor, now: number) {
    await trx.updateTable('attention_items').set({ resolved_at: now, resolved_by: actor }).where('kind', '=', 'unmatched_money').where('target_id', '=', mutationId).where('resolved_at', 'is', null).execute();
  }

  private major(minor: number) {
    return toMajor(minor, this.core.currency.decimals);
  }
}
