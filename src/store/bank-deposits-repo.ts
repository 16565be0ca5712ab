import type { Kysely, Selectable, Transaction } from 'kysely';
import { DEFAULT_DEPOSIT_SETTINGS, type DepositSettings } from '../domain/bank-deposit.js';
import type { StatementMapping } from '../domain/bank-statement.js';
import type { BankAccountsTable, DB, DepositsTable } from './schema.js';

type Db = Kysely<DB> | Transaction<DB>;

const SETTINGS_KEY = 'deposits.settings';
const SECRET_KEY = 'deposits.webhook_secret';

export interface BankAccount {
  id: string;
  bank: string;
  number: string;
  holder: string;
  active: boolean;
  mutationBankId: string | null;
  mapping: StatementMapping | null;
  createdAt: number;
  updatedAt: number;
}

export interface Deposit {
  id: string;
  resellerId: string;
  channel: 'bank' | 'gateway';
  state: string;
  amount: number;
  payable: number;
  uniqueCode: number | null;
  bankAccountId: string | null;
  senderName: string | null;
  expiresAt: number;
  paidAt: number | null;
  matchedBy: string | null;
  reference: string | null;
  actor: string | null;
  createdAt: number;
  updatedAt: number;
}

export const toBankAccount = (r: Selectable<BankAccountsTable>): BankAccount => ({
  id: r.id, bank: r.bank, number: r.number, holder: r.holder, active: Number(r.active) === 1, mutationBankId: r.mutation_bank_id ?? null,
  mapping: r.statement_mapping ? (JSON.parse(r.statement_mapping) as StatementMapping) : null, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
});

export const toDeposit = (r: Selectable<DepositsTable>): Deposit => ({
  id: r.id, resellerId: r.reseller_id, channel: r.channel, state: r.state, amount: Number(r.amount), payable: Number(r.payable),
  uniqueCode: r.unique_code === null ? null : Number(r.unique_code), bankAccountId: r.bank_account_id, senderName: r.sender_name,
  expiresAt: Number(r.expires_at), paidAt: r.paid_at === null ? null : Number(r.paid_at), matchedBy: r.matched_by, reference: r.reference, actor: r.actor,
  createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
});

/**
 * Bank accounts, the deposit settings (store_settings, one JSON value; the webhook secret
 * sealed under its own key) and bank-transfer tickets. Static methods take the caller's
 * transaction.
 */
export class BankDepositsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async settings(): Promise<DepositSettings> {
    return BankDepositsRepo.settingsIn(this.db);
  }

  static async settingsIn(db: Db): Promise<DepositSettings> {
    const row = await db.selectFrom('store_settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    return row ? { ...DEFAULT_DEPOSIT_SETTINGS, ...(JSON.parse(row.value) as Partial<DepositSettings>) } : { ...DEFAULT_DEPOSIT_SETTINGS };
  }

  static async putSettings(db: Db, s: DepositSettings) {
    await putSetting(db, SETTINGS_KEY, JSON.stringify(s));
  }

  async sealedWebhookSecret(): Promise<string | null> {
    return (await this.db.selectFrom('store_settings').select('value').where('key', '=', SECRET_KEY).executeTakeFirst())?.value ?? null;
  }

  static async putSealedWebhookSecret(db: Db, sealed: string | null) {
    if (sealed === null) await db.deleteFrom('store_settings').where('key', '=', SECRET_KEY).execute();
    else await putSetting(db, SECRET_KEY, sealed);
  }

  async accounts(): Promise<BankAccount[]> {
    return (await this.db.selectFrom('bank_accounts').selectAll().orderBy('created_at').orderBy('id').execute()).map(toBankAccount);
  }

  async account(id: string): Promise<BankAccount | null> {
    return BankDepositsRepo.accountIn(this.db, id);
  }

  static async accountIn(db: Db, id: string): Promise<BankAccount | null> {
    const r = await db.selectFrom('bank_accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toBankAccount(r) : null;
  }

  /** The account a mutation service names, by its own id or else the account number (digits compared). */
  async accountForMutation(bankId: string | null, accountNumber: string | null): Promise<BankAccount | null> {
    if (bankId) {
      const r = await this.db.selectFrom('bank_accounts').selectAll().where('mutation_bank_id', '=', bankId).executeTakeFirst();
      if (r) return toBankAccount(r);
    }
    if (!accountNumber) return null;
    const digits = accountNumber.replace(/\D/g, '');
    return (await this.accounts()).find((a) => a.number.replace(/\D/g, '') === digits) ?? null;
  }

  async deposit(id: string): Promise<Deposit | null> {
    return BankDepositsRepo.depositIn(this.db, id);
  }

  static async depositIn(db: Db, id: string): Promise<Deposit | null> {
    const r = await db.selectFrom('deposits').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toDeposit(r) : null;
  }

  /** Open tickets past their expiry become `expired` (lazily, before anything reads or matches them). */
  static async expireDue(db: Db, now: number, bankAccountId?: string) {
    let q = db.updateTable('deposits').set({ state: 'expired', updated_at: now }).where('channel', '=', 'bank').where('state', '=', 'open').where('expires_at', '<=', now);
    if (bankAccountId) q = q.where('bank_account_id', '=', bankAccountId);
    await q.execute();
  }

  /** Unique codes taken by the account's open tickets of amounts amount+1 .. amount+999. */
  static async codesInUse(db: Db, bankAccountId: string, amount: number, maxCode: number): Promise<Set<number>> {
    const rows = await db.selectFrom('deposits').select('payable').where('bank_account_id', '=', bankAccountId).where('state', '=', 'open')
      .where('payable', '>', amount).where('payable', '<=', amount + maxCode).execute();
    return new Set(rows.map((r) => Number(r.payable) - amount));
  }

  /** What a reseller asked for since `since` in tickets that still count (open, review, paid). */
  static async askedSince(db: Db, resellerId: string, since: number): Promise<number> {
    const r = await db.selectFrom('deposits').select((eb) => eb.fn.sum<string | number>('amount').as('s'))
      .where('reseller_id', '=', resellerId).where('created_at', '>=', since).where('state', 'in', ['open', 'review', 'paid']).executeTakeFirst();
    return Number(r?.s ?? 0);
  }

  /** The one open ticket of an account that asks for exactly this amount (unique by the partial index). */
  static async openByPayable(db: Db, bankAccountId: string, payable: number): Promise<Deposit | null> {
    const r = await db.selectFrom('deposits').selectAll().where('bank_account_id', '=', bankAccountId).where('state', '=', 'open').where('payable', '=', payable).executeTakeFirst();
    return r ? toDeposit(r) : null;
  }

  /** Newest first. */
  async list(f: { resellerId?: string; states?: string[] | null; channel?: string | null; limit: number; offset: number }): Promise<{ items: Deposit[]; total: number }> {
    let q = this.db.selectFrom('deposits');
    if (f.resellerId) q = q.where('reseller_id', '=', f.resellerId);
    if (f.states?.length) q = q.where('state', 'in', f.states);
    if (f.channel) q = q.where('channel', '=', f.channel as 'bank');
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { items: rows.map(toDeposit), total: Number(count?.n ?? 0) };
  }

  /** Credits since `since`, by channel: count and sum of what wallets got. */
  async creditedSince(since: number): Promise<{ channel: string; count: number; amount: number }[]> {
    const rows = await this.db.selectFrom('deposits').select(['channel', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<string | number>('amount').as('s')])
      .where('state', '=', 'paid').where('paid_at', '>=', since).groupBy('channel').execute();
    return rows.map((r) => ({ channel: r.channel, count: Number(r.n), amount: Number(r.s ?? 0) }));
  }
}

async function putSetting(db: Db, key: string, value: string) {
  await db.insertInto('store_settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}
