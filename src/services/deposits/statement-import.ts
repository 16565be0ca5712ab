import { parse } from 'csv-parse/sync';
import { statementLines, type StatementLine } from '../../domain/bank-statement.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { BankDepositsRepo, type BankAccount, type Deposit } from '../../store/bank-deposits-repo.js';
import { BankMutationsRepo } from '../../store/bank-mutations-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from '../operator/actor.js';
import { intakeMutationIn, type IntakeOutcome } from './mutation-intake.js';
import { needsReview } from '../../domain/bank-deposit.js';

export const MAX_STATEMENT_BYTES = 1024 * 1024;

export interface PreviewLine extends StatementLine {
  /** matched: an open ticket of exactly this amount (review: one held for an operator); already_imported: seen before. */
  status: 'matched' | 'review' | 'unmatched' | 'already_imported' | 'debit';
  deposit: Deposit | null;
  /** For an already-imported line: what became of it then. */
  previous: { state: string; depositId: string | null } | null;
}

/**
 * A bank statement export (CSV) read with the account's saved mapping. Preview shows every
 * line with what apply would do; apply takes each line through the same intake as the
 * mutation webhook, in its own transaction, so a statement imported twice (or overlapping
 * an earlier one) credits each transfer once.
 */
export class StatementImport {
  private readonly repo: BankDepositsRepo;
  private readonly mutations: BankMutationsRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'currency'>) {
    this.repo = new BankDepositsRepo(core.db);
    this.mutations = new BankMutationsRepo(core.db);
  }

  async preview(bankAccountId: string, csv: string): Promise<PreviewLine[]> {
    const { lines } = await this.read(bankAccountId, csv);
    const known = await this.mutations.known(bankAccountId, lines.map((l) => l.identity));
    const settings = await this.repo.settings();
    const now = this.core.clock.now();
    const taken = new Set<string>();
    const out: PreviewLine[] = [];
    for (const l of lines) {
      const prev = known.get(l.identity);
      if (prev) {
        out.push({ ...l, status: 'already_imported', deposit: prev.depositId ? await this.repo.deposit(prev.depositId) : null, previous: { state: prev.state, depositId: prev.depositId } });
        continue;
      }
      if (l.direction === 'DB') {
        out.push({ ...l, status: 'debit', deposit: null, previous: null });
        continue;
      }
      const t = await BankDepositsRepo.openByPayable(this.core.db, bankAccountId, l.amount);
      const ticket = t && t.expiresAt > now && !taken.has(t.id) ? t : null;
      if (ticket) taken.add(ticket.id);
      out.push({ ...l, status: ticket ? (needsReview(l.amount, settings) ? 'review' : 'matched') : 'unmatched', deposit: ticket, previous: null });
    }
    return out;
  }

  async apply(bankAccountId: string, csv: string, actor: Actor) {
    const { lines } = await this.read(bankAccountId, csv);
    const settings = await this.repo.settings();
    const results: { line: StatementLine; result: IntakeOutcome }[] = [];
    for (const line of lines) {
      const now = this.core.clock.now();
      const result = await this.core.db.transaction().execute((trx) => intakeMutationIn(trx, {
        bankAccountId, identity: line.identity, source: 'statement', bookedOn: line.date, description: line.description, amount: line.amount, direction: line.direction,
      }, settings, this.core.ids.uuid(), now));
      results.push({ line, result });
    }
    const counts = { matched: 0, review: 0, unmatched: 0, duplicate: 0, debit: 0 };
    for (const r of results) counts[r.result.outcome]++;
    await AuditRepo.record(this.core.db, { operatorId: actor, action: 'deposit.statement_import', targetKind: 'bank_account', targetId: bankAccountId, before: null, after: { lines: lines.length, ...counts } }, this.core.clock.now());
    return { results, counts };
  }

  private async read(bankAccountId: string, csv: string): Promise<{ account: BankAccount; lines: StatementLine[] }> {
    const account = await this.repo.account(bankAccountId);
    if (!account) throw new AppError('NOT_FOUND', `no bank account with id ${bankAccountId}`);
    if (!account.mapping) throw new AppError('INVALID_STATE', `bank account ${bankAccountId} has no statement mapping yet: save its columns first`);
    if (Buffer.byteLength(csv) > MAX_STATEMENT_BYTES) throw new AppError('VALIDATION_ERROR', 'the statement is larger than 1 MB: import it in parts (lines already imported are skipped)');
    let rows: Record<string, string>[];
    try {
      rows = parse(csv, { columns: true, delimiter: account.mapping.delimiter, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as Record<string, string>[];
    } catch (e) {
      throw new AppError('VALIDATION_ERROR', `the statement is not CSV the mapping can read: ${(e as Error).message.slice(0, 200)}`);
    }
    const header = rows.length ? Object.keys(rows[0]!) : [];
    const m = account.mapping;
    for (const col of [m.date, m.description, m.amount, m.credit, m.debit, m.mutationId]) {
      if (col && rows.length && !header.includes(col)) throw new AppError('VALIDATION_ERROR', `the statement has no column "${col}" (its columns: ${header.join(', ').slice(0, 300)}); fix the mapping or the file`);
    }
    return { account, lines: statementLines(bankAccountId, rows, m, this.core.currency.decimals) };
  }
}
