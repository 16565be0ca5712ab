import { parseDateRange, parsePage } from '../../domain/list-query.js';
import { MAX_EXACT_MINOR, toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { LedgerRepo, type LedgerEntry } from '../../store/ledger-repo.js';
import type { ServiceCore } from '../core.js';
import { parseLedgerTypes } from '../reseller-queries.js';
import type { Actor } from './actor.js';
import type { Claim } from './idempotency.js';
import { minorUnits } from './money-input.js';

const MAX_NOTE = 500;

/** A credit's or debit's result: the reseller and its new ledger entry. */
export interface WalletChange {
  resellerId: string;
  entry: LedgerEntry;
}

/**
 * Operator credits and debits of a reseller's wallet: always a ledger entry through the
 * guarded balance update (never a direct balance edit), with the audit line in the same
 * transaction. The note is required: it is what the reseller reads in wallet-history.
 */
export class AdjustWallet {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'clock' | 'currency'>) {}

  /** `claim` (Idempotency) is taken and kept in the change's transaction. */
  credit(resellerId: string, amount: number | string, note: string, actor: Actor, claim?: Claim<WalletChange>) {
    return this.adjust(resellerId, 'credit', amount, note, actor, claim);
  }

  debit(resellerId: string, amount: number | string, note: string, actor: Actor, claim?: Claim<WalletChange>) {
    return this.adjust(resellerId, 'debit', amount, note, actor, claim);
  }

  /** The reseller's ledger as API v1 shows it, newest first (same filters: type, dates, page). */
  async history(resellerId: string, q: Record<string, unknown>) {
    const page = parsePage(q);
    const range = parseDateRange(q, this.core.clock.now());
    const types = parseLedgerTypes(q.type);
    if ((await this.core.repos.ledger.balance(resellerId)) === null) throw notFound(resellerId);
    const { entries, total } = await this.core.repos.ledger.list({ resellerId, types, ...range, limit: page.limit, offset: page.offset });
    return { items: entries, total, page };
  }

  private async adjust(resellerId: string, kind: 'credit' | 'debit', amount: number | string, rawNote: string, actor: Actor, claim?: Claim<WalletChange>): Promise<WalletChange> {
    const minor = this.minorUnits(amount);
    const note = rawNote.trim();
    if (!note) throw new AppError('VALIDATION_ERROR', 'note is required: say why the balance changes (the reseller sees it)');
    if (note.length > MAX_NOTE) throw new AppError('VALIDATION_ERROR', `note must be at most ${MAX_NOTE} characters`);
    const signed = kind === 'credit' ? minor : -minor;
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      // The key first: a request racing with the same key waits here, before any balance is read.
      await claim?.take(trx);
      const before = await trx.selectFrom('resellers').select('balance').where('id', '=', resellerId).executeTakeFirst();
      if (!before) throw notFound(resellerId);
      const done = await LedgerRepo.adjustIn(trx, resellerId, signed, note, now);
      if (!done && kind === 'credit') {
        throw new AppError('VALIDATION_ERROR', `the credit would take the balance (${this.major(Number(before.balance))}) past the largest balance the service holds, `
          + `${this.major(MAX_EXACT_MINOR)} ${this.core.currency.code}; nothing was changed`);
      }
      if (!done) {
        throw new AppError('INSUFFICIENT_BALANCE', `the balance (${this.major(Number(before.balance))}) is less than the debit (${this.major(minor)}); nothing was changed`);
      }
      await AuditRepo.record(trx, {
        operatorId: actor, action: `wallet.${kind}`, targetKind: 'reseller', targetId: resellerId,
        before: { balance: this.major(done.balanceAfter - signed) },
        after: { balance: this.major(done.balanceAfter), amount: this.major(signed), ledger_entry_id: String(done.entryId) }, note,
      }, now);
      const change = { resellerId, entry: { id: done.entryId, type: kind, amount: signed, balanceAfter: done.balanceAfter, orderId: null, refId: null, depositId: null, note, createdAt: now } };
      await claim?.keep(trx, change);
      return change;
    });
  }

  /** Amounts arrive in major units; they must be > 0, exact in minor units and within MAX_OPERATION_AMOUNT. */
  private minorUnits(amount: number | string): number {
    return minorUnits(amount, this.core.currency, 'amount', { positive: true });
  }

  private major(minor: number) {
    return toMajor(minor, this.core.currency.decimals);
  }
}

const notFound = (id: string) => new AppError('NOT_FOUND', `no reseller with id ${id}`);
