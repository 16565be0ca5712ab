import type { Transaction } from 'kysely';
import type { DB } from '../../store/schema.js';
import { validateSettings, type DepositSettings } from '../../domain/bank-deposit.js';
import { toMajor } from '../../domain/money.js';
import { validateMapping, type StatementMapping } from '../../domain/bank-statement.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { BankDepositsRepo, type BankAccount } from '../../store/bank-deposits-repo.js';
import { isUniqueViolation } from '../../store/unique-violation.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from '../operator/actor.js';
import { minorUnits } from '../operator/money-input.js';

export interface SettingsInput {
  min_amount: number;
  max_amount: number;
  ticket_hours: number;
  credit_unique_code: boolean;
  daily_cap: number | null;
  review_above: number | null;
  webhook_signature_header: string;
}

export interface AccountInput {
  bank: string;
  number: string;
  holder: string;
  active: boolean;
  mutation_bank_id?: string | null;
}

const text = (v: string, what: string, max = 100) => {
  const t = v.trim();
  if (!t || t.length > max) throw new AppError('VALIDATION_ERROR', `${what} must be 1 to ${max} characters`);
  return t;
};

/**
 * The operator's deposit settings and receiving bank accounts; every change audited in its
 * own transaction. The mutation webhook's secret is sealed at rest and never shown again.
 */
export class DepositSettingsService {
  readonly repo: BankDepositsRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'secrets' | 'currency'>) {
    this.repo = new BankDepositsRepo(core.db);
  }

  async get() {
    return { settings: await this.repo.settings(), webhookSecretSet: (await this.repo.sealedWebhookSecret()) !== null };
  }

  async put(body: SettingsInput, actor: Actor): Promise<DepositSettings> {
    const c = this.core.currency;
    const opt = (v: number | null, what: string) => (v === null ? null : minorUnits(v, c, what, { positive: true }));
    const next = validateSettings({
      minAmount: minorUnits(body.min_amount, c, 'min_amount', { positive: true }), maxAmount: minorUnits(body.max_amount, c, 'max_amount', { positive: true }),
      ticketHours: body.ticket_hours, creditUniqueCode: body.credit_unique_code, dailyCap: opt(body.daily_cap, 'daily_cap'), reviewAbove: opt(body.review_above, 'review_above'),
      webhookSignatureHeader: body.webhook_signature_header.trim(),
    });
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const before = await BankDepositsRepo.settingsIn(trx);
      await BankDepositsRepo.putSettings(trx, next);
      await AuditRepo.record(trx, { operatorId: actor, action: 'deposit.settings', targetKind: 'store', targetId: 'deposits', before: this.major(before), after: this.major(next) }, now);
    });
    return next;
  }

  /** null clears it (the webhook then refuses every delivery). */
  async setWebhookSecret(secret: string | null, actor: Actor) {
    if (secret !== null && (secret.length < 16 || secret.length > 256)) throw new AppError('VALIDATION_ERROR', 'secret must be 16 to 256 characters (or null to remove it)');
    const sealed = secret === null ? null : this.core.secrets.seal(secret);
    await this.core.db.transaction().execute(async (trx) => {
      await BankDepositsRepo.putSealedWebhookSecret(trx, sealed);
      await AuditRepo.record(trx, { operatorId: actor, action: 'deposit.webhook_secret', targetKind: 'store', targetId: 'deposits', before: null, after: { secret_set: secret !== null } }, this.core.clock.now());
    });
    return { secretSet: secret !== null };
  }

  accounts() {
    return this.repo.accounts();
  }

  async createAccount(body: AccountInput, actor: Actor): Promise<BankAccount> {
    const now = this.core.clock.now();
    const id = `ba_${this.core.ids.uuid().replace(/-/g, '').slice(0, 16)}`;
    const v = this.clean(body);
    return this.write(async (trx) => {
      await trx.insertInto('bank_accounts').values({ id, ...v, statement_mapping: null, created_at: now, updated_at: now }).execute();
      await AuditRepo.record(trx, { operatorId: actor, action: 'bank_account.create', targetKind: 'bank_account', targetId: id, before: null, after: v }, now);
      return (await BankDepositsRepo.accountIn(trx, id))!;
    });
  }

  async updateAccount(id: string, body: AccountInput, actor: Actor): Promise<BankAccount> {
    const now = this.core.clock.now();
    const v = this.clean(body);
    return this.write(async (trx) => {
      const before = await BankDepositsRepo.accountIn(trx, id);
      if (!before) throw notFound(id);
      await trx.updateTable('bank_accounts').set({ ...v, updated_at: now }).where('id', '=', id).execute();
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'bank_account.update', targetKind: 'bank_account', targetId: id,
        before: { bank: before.bank, number: before.number, holder: before.holder, active: before.active ? 1 : 0, mutation_bank_id: before.mutationBankId }, after: v,
      }, now);
      return (await BankDepositsRepo.accountIn(trx, id))!;
    });
  }

  async setMapping(id: string, m: StatementMapping, actor: Actor): Promise<BankAccount> {
    const mapping = validateMapping(m);
    const now = this.core.clock.now();
    return this.write(async (trx) => {
      const before = await BankDepositsRepo.accountIn(trx, id);
      if (!before) throw notFound(id);
      await trx.updateTable('bank_accounts').set({ statement_mapping: JSON.stringify(mapping), updated_at: now }).where('id', '=', id).execute();
      await AuditRepo.record(trx, { operatorId: actor, action: 'bank_account.statement_mapping', targetKind: 'bank_account', targetId: id, before: before.mapping, after: mapping }, now);
      return (await BankDepositsRepo.accountIn(trx, id))!;
    });
  }

  private clean(b: AccountInput) {
    const number = text(b.number, 'number', 40);
    if (!/^[0-9][0-9 .-]*$/.test(number)) throw new AppError('VALIDATION_ERROR', 'number must be the account number: digits, spaces, dots or dashes');
    const mid = b.mutation_bank_id?.trim() || null;
    if (mid && mid.length > 100) throw new AppError('VALIDATION_ERROR', 'mutation_bank_id must be at most 100 characters');
    return { bank: text(b.bank, 'bank', 60), number, holder: text(b.holder, 'holder'), active: b.active ? 1 : 0, mutation_bank_id: mid };
  }

  private async write<R>(fn: (trx: Transaction<DB>) => Promise<R>): Promise<R> {
    try {
      return await this.core.db.transaction().execute(fn);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'another bank account already has this mutation_bank_id');
      throw e;
    }
  }

  private major(s: DepositSettings) {
    const m = (v: number | null) => (v === null ? null : toMajor(v, this.core.currency.decimals));
    return { min_amount: m(s.minAmount), max_amount: m(s.maxAmount), ticket_hours: s.ticketHours, credit_unique_code: s.creditUniqueCode, daily_cap: m(s.dailyCap), review_above: m(s.reviewAbove), webhook_signature_header: s.webhookSignatureHeader };
  }
}

const notFound = (id: string) => new AppError('NOT_FOUND', `no bank account with id ${id}`);
