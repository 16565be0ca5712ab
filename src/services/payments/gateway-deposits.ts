import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { newDepositId } from '../../domain/deposit.js';
import { GATEWAY_METHODS, methodRefusal, quote, type MethodRule, type Quote } from '../../domain/payment-methods.js';
import { parseDecimalPrice, toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { GatewayRepo, type GatewayDepositRow } from '../../store/gateway-repo.js';
import type { DB } from '../../store/schema.js';
import type { AccountPrincipal } from '../sessions.js';
import type { Clock, CurrencySettings } from '../ports.js';
import type { GatewayConfig } from './gateway-config.js';
import { GatewayUnavailable, type PaymentGateway } from './gateway-port.js';
import { depositForSettling, settleGatewayDepositIn } from './settle-gateway-deposit.js';
import { assertWithinDailyCap } from '../deposits/daily-cap.js';

export interface MethodOffer { rule: MethodRule; label: string; quote: Quote | null; refusal: ReturnType<typeof methodRefusal> }

/** The return page polls; the status API is asked about an open deposit at most this often. */
const RECHECK_MS = 5_000;

/**
 * A reseller's gateway deposits (dashboard): the methods with what each would cost, a new
 * payment (a deposit `open` with its own gateway order id: a retry is a new deposit), and one
 * deposit's state. Reading an open deposit asks the gateway's status API now and then, so
 * the return page settles even when a notification is late or cannot reach this service.
 */
export class GatewayDeposits {
  private readonly lastCheck = new Map<string, number>();

  constructor(private readonly deps: {
    db: Kysely<DB>; dialect: 'sqlite' | 'postgres'; config: GatewayConfig; gateway: PaymentGateway; clock: Clock; currency: CurrencySettings; returnOrigin: string | null; logger: Logger;
  }) {}

  /** Enabled methods; with an amount (major units), each one's fee and payable, or why it cannot take it. */
  async methods(amountRaw: string | undefined): Promise<{ offers: MethodOffer[]; amount: number | null; available: boolean }> {
    const amount = amountRaw === undefined || amountRaw === '' ? null : this.amount(amountRaw);
    const available = (await this.deps.config.access()) !== null && this.deps.currency.code === 'IDR';
    const rules = (await this.deps.config.rules()).filter((r) => r.enabled);
    return {
      amount, available,
      offers: rules.map((rule) => ({ rule, label: GATEWAY_METHODS[rule.code].label, quote: amount === null ? null : quote(rule, amount), refusal: amount === null ? null : methodRefusal(rule, amount) })),
    };
  }

  /** requestOrigin: where the reseller's browser reached us (used when PUBLIC_BASE_URL is unset) for the return link. */
  async create(who: AccountPrincipal, input: { amount: number | string; method: string }, requestOrigin: string): Promise<GatewayDepositRow> {
    if (who.status !== 'active') throw new AppError('INVALID_STATE', 'the account must be active (approved) to deposit');
    const amount = this.amount(input.amount);
    const rule = await this.deps.config.rule(input.method);
    if (!rule || !rule.enabled) throw new AppError('VALIDATION_ERROR', `method "${input.method}" is not offered; GET /payment-methods lists those that are`);
    const refusal = methodRefusal(rule, amount);
    const money = (m: number) => toMajor(m, this.deps.currency.decimals);
    if (refusal === 'below_min') throw new AppError('VALIDATION_ERROR', `amount must be at least ${money(rule.minAmount)} for ${input.method}`);
    if (refusal === 'above_max') throw new AppError('VALIDATION_ERROR', `amount must be at most ${money(rule.maxAmount)} for ${input.method}`);
    if (this.deps.currency.code !== 'IDR') throw new AppError('INVALID_STATE', 'the payment gateway takes IDR only, and this service keeps another currency');
    const access = await this.deps.config.access();
    if (!access) throw new AppError('GATEWAY_UNAVAILABLE', 'payments by gateway are not set up yet: ask the operator, or deposit by bank transfer');
    const q = quote(rule, amount);
    const { expiryMinutes } = await this.deps.config.view();
    const now = this.deps.clock.now();
    const id = newDepositId();
    const reseller = await this.deps.db.selectFrom('resellers').select(['name', 'email']).where('id', '=', who.resellerId).executeTakeFirstOrThrow();
    // The row first: a notification can always find its deposit, even if this process stops before Snap answers.
    await this.deps.db.transaction().execute(async (trx) => {
      await assertWithinDailyCap(trx, { dialect: this.deps.dialect, currency: this.deps.currency }, who.resellerId, q.amount, now);
      await trx.insertInto('deposits').values({
        id, reseller_id: who.resellerId, channel: 'gateway', state: 'open', amount: q.amount, payable: q.payable, unique_code: null, fee: q.fee,
        bank_account_id: null, sender_name: null, method: rule.code, gateway_order_id: id, gateway_url: null, expires_at: now + expiryMinutes * 60_000,
        paid_at: null, matched_by: null, reference: null, actor: null, created_at: now, updated_at: now,
      }).execute();
    });
    try {
      const snap = await this.deps.gateway.createPayment(access, {
        orderId: id, grossAmount: q.payable / 10 ** this.deps.currency.decimals, enabledPayments: GATEWAY_METHODS[rule.code].enabledPayments,
        expiryMinutes, finishUrl: `${this.deps.returnOrigin ?? requestOrigin}/dashboard/wallet/deposits/${id}`, customer: { firstName: reseller.name, email: reseller.email },
      });
      await this.deps.db.updateTable('deposits').set({ gateway_url: snap.redirectUrl, updated_at: now }).where('id', '=', id).execute();
    } catch (e) {
      await this.deps.db.updateTable('deposits').set({ state: 'failed', actor: 'gateway', updated_at: now }).where('id', '=', id).where('state', '=', 'open').execute();
      if (e instanceof GatewayUnavailable) throw new AppError('GATEWAY_UNAVAILABLE', `${e.message}; no payment was made, try again`);
      throw e;
    }
    return (await new GatewayRepo(this.deps.db).deposit(id))!;
  }

  /** One of the reseller's gateway deposits; an open one is first checked with the gateway (at most every few seconds). */
  async get(who: AccountPrincipal, id: string): Promise<GatewayDepositRow> {
    const repo = new GatewayRepo(this.deps.db);
    const d = await repo.deposit(id);
    if (!d || d.resellerId !== who.resellerId) throw new AppError('NOT_FOUND', `no gateway deposit "${id}"`);
    if (d.state !== 'open' || !d.gatewayOrderId) return d;
    const now = this.deps.clock.now();
    if (now - (this.lastCheck.get(id) ?? 0) < RECHECK_MS) return d;
    this.lastCheck.set(id, now);
    if (this.lastCheck.size > 10_000) this.lastCheck.clear();
    await this.reconcile(d.gatewayOrderId).catch((e: unknown) => this.deps.logger.info({ depositId: id, err: (e as Error).message }, 'gateway status check on read failed; the deposit stays as it is'));
    return (await repo.deposit(id))!;
  }

  /** Applies the status API's answer to the deposit of an order (the same rules as a confirmed notification). */
  async reconcile(orderId: string): Promise<string> {
    const access = await this.deps.config.access();
    if (!access) return 'not_configured';
    const deposit = await depositForSettling(this.deps.db, orderId);
    if (!deposit) return 'unknown_order';
    const status = await this.deps.gateway.status(access, orderId);
    if (status.kind !== 'found' || status.orderId !== orderId) return 'missing';
    return this.deps.db.transaction().execute((trx) => settleGatewayDepositIn(trx, deposit, status, { now: this.deps.clock.now(), currency: this.deps.currency }));
  }

  private amount(raw: number | string): number {
    const p = parseDecimalPrice(raw, this.deps.currency.decimals);
    if (!p.ok || p.minor <= 0) throw new AppError('VALIDATION_ERROR', `amount must be a number greater than 0, in major units with at most ${this.deps.currency.decimals} decimals (got ${JSON.stringify(raw)})`);
    if (p.minor > this.deps.currency.maxAmount) throw new AppError('VALIDATION_ERROR', `amount must be at most ${toMajor(this.deps.currency.maxAmount, this.deps.currency.decimals)}`);
    return p.minor;
  }
}
