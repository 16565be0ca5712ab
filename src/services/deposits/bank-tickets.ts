import { MAX_UNIQUE_CODE, randomUniqueCode, ticketAmounts, UNIQUE_CODE_TRIES, utcDayStart } from '../../domain/bank-deposit.js';
import { DEPOSIT_STATES, newDepositId, type DepositState } from '../../domain/deposit.js';
import { parsePage } from '../../domain/list-query.js';
import { MAX_EXACT_MINOR, toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { BankDepositsRepo, type Deposit } from '../../store/bank-deposits-repo.js';
import { isUniqueViolation } from '../../store/unique-violation.js';
import type { ServiceCore } from '../core.js';
import { minorUnits } from '../operator/money-input.js';
import type { AccountPrincipal } from '../sessions.js';
import { parseStates } from './operator-deposits.js';
import { assertWithinDailyCap } from './daily-cap.js';

const HOUR = 3_600_000;

/**
 * A reseller's bank-transfer tickets: ask (amount within the bounds and the daily cap, an
 * active bank account, the sender's name) and get the exact amount to transfer, with a
 * unique code among the account's open tickets; list; cancel an open one. Also the
 * reseller's low-balance threshold.
 */
export class BankTickets {
  private readonly repo: BankDepositsRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'dialect' | 'clock' | 'currency'>) {
    this.repo = new BankDepositsRepo(core.db);
  }

  get decimals() {
    return this.core.currency.decimals;
  }

  accounts() {
    return this.repo.accounts();
  }

  /** What the request form needs: active accounts, bounds, what is left of today's cap. */
  async options(who: AccountPrincipal) {
    const s = await this.repo.settings();
    const accounts = (await this.repo.accounts()).filter((a) => a.active);
    const asked = await BankDepositsRepo.askedSince(this.core.db, who.resellerId, utcDayStart(this.core.clock.now()));
    return { accounts, settings: s, remainingToday: s.dailyCap === null ? null : Math.max(0, s.dailyCap - asked) };
  }

  async create(who: AccountPrincipal, body: { amount: number | string; bank_account_id: string; sender_name: string }): Promise<Deposit> {
    if (who.status !== 'active') throw new AppError('INVALID_STATE', 'the account is not active yet: deposits open once the operator approves it');
    const amount = minorUnits(body.amount, this.core.currency, 'amount', { positive: true });
    const sender = body.sender_name.trim().replace(/\s+/g, ' ');
    if (!sender || sender.length > 100) throw new AppError('VALIDATION_ERROR', 'sender_name must be the name on the account you pay from (1 to 100 characters)');
    const s = await this.repo.settings();
    if (amount < s.minAmount || amount > s.maxAmount) {
      throw new AppError('VALIDATION_ERROR', `amount must be from ${this.major(s.minAmount)} to ${this.major(s.maxAmount)} ${this.core.currency.code}`);
    }
    if (amount + MAX_UNIQUE_CODE > MAX_EXACT_MINOR) throw new AppError('VALIDATION_ERROR', 'amount is too large');
    const account = await this.repo.account(body.bank_account_id);
    if (!account || !account.active) throw new AppError('VALIDATION_ERROR', 'bank_account_id must be one of the active bank accounts (GET /deposits/options)');
    for (let attempt = 0; attempt < UNIQUE_CODE_TRIES; attempt++) {
      try {
        return await this.tryCreate(who.resellerId, amount, account.id, sender, s);
      } catch (e) {
        // A concurrent ticket took the same code: choose again.
        if (!isUniqueViolation(e)) throw e;
      }
    }
    throw new AppError('INVALID_STATE', 'no unique code is free for this amount at this account right now: try a slightly different amount');
  }

  private async tryCreate(resellerId: string, amount: number, bankAccountId: string, sender: string, s: Awaited<ReturnType<BankDepositsRepo['settings']>>): Promise<Deposit> {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      await assertWithinDailyCap(trx, this.core, resellerId, amount, now);
      await BankDepositsRepo.expireDue(trx, now, bankAccountId);
      const used = await BankDepositsRepo.codesInUse(trx, bankAccountId, amount, MAX_UNIQUE_CODE);
      if (used.size >= MAX_UNIQUE_CODE) throw new AppError('INVALID_STATE', 'no unique code is free for this amount at this account right now: try a slightly different amount');
      let code = randomUniqueCode();
      while (used.has(code)) code = randomUniqueCode();
      const { payable, credited } = ticketAmounts(amount, code, s);
      const id = newDepositId();
      await trx.insertInto('deposits').values({
        id, reseller_id: resellerId, channel: 'bank', state: 'open', amount: credited, payable, unique_code: code, fee: 0, bank_account_id: bankAccountId,
        sender_name: sender, method: null, gateway_order_id: null, gateway_url: null, expires_at: now + s.ticketHours * HOUR, paid_at: null,
        matched_by: null, reference: null, actor: null, created_at: now, updated_at: now,
      }).execute();
      return (await BankDepositsRepo.depositIn(trx, id))!;
    });
  }

  async list(who: AccountPrincipal, q: { state?: string; channel?: string; page?: string; limit?: string }) {
    const page = parsePage(q);
    await BankDepositsRepo.expireDue(this.core.db, this.core.clock.now());
    const states = parseStates<DepositState>(q.state, DEPOSIT_STATES);
    const channel = q.channel ? parseStates(q.channel, ['bank', 'gateway'] as const, 'channel')![0]! : null;
    return { ...(await this.repo.list({ resellerId: who.resellerId, states, channel, limit: page.limit, offset: page.offset })), page };
  }

  async get(who: AccountPrincipal, id: string): Promise<Deposit> {
    await BankDepositsRepo.expireDue(this.core.db, this.core.clock.now());
    const d = await this.repo.deposit(id);
    if (!d || d.resellerId !== who.resellerId) throw new AppError('NOT_FOUND', `no deposit with id ${id}`);
    return d;
  }

  async cancel(who: AccountPrincipal, id: string): Promise<Deposit> {
    const d = await this.get(who, id);
    if (d.channel !== 'bank') throw new AppError('INVALID_STATE', 'only a bank-transfer ticket can be cancelled here');
    const now = this.core.clock.now();
    const r = await this.core.db.updateTable('deposits').set({ state: 'cancelled', actor: who.resellerId, updated_at: now })
      .where('id', '=', id).where('reseller_id', '=', who.resellerId).where('state', '=', 'open').executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE', `deposit ${id} is ${d.state}: only an open ticket can be cancelled`);
    return (await this.repo.deposit(id))!;
  }

  async lowBalance(who: AccountPrincipal) {
    const r = await this.core.db.selectFrom('resellers').select(['balance', 'low_balance_threshold']).where('id', '=', who.resellerId).executeTakeFirstOrThrow();
    const threshold = r.low_balance_threshold === null ? null : Number(r.low_balance_threshold);
    const balance = Number(r.balance);
    return { threshold, balance, below: threshold !== null && balance < threshold };
  }

  async setLowBalance(who: AccountPrincipal, raw: number | string | null) {
    const threshold = raw === null ? null : minorUnits(raw, this.core.currency, 'threshold', { positive: true });
    await this.core.db.updateTable('resellers').set({ low_balance_threshold: threshold }).where('id', '=', who.resellerId).execute();
    return this.lowBalance(who);
  }

  private major(minor: number) {
    return toMajor(minor, this.core.currency.decimals);
  }
}
