import type { Kysely } from 'kysely';
import type { SecretBox } from '../../adapters/secret-box.js';
import { MIDTRANS_ORIGINS, type MidtransEnvironment } from '../../adapters/payments/midtrans.js';
import { GATEWAY_METHOD_CODES, GATEWAY_METHODS, isGatewayMethod, ruleProblem, type FeeMode, type GatewayMethodCode, type MethodRule } from '../../domain/payment-methods.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { GatewayRepo } from '../../store/gateway-repo.js';
import type { DB } from '../../store/schema.js';
import type { Actor } from '../operator/actor.js';
import { minorUnits } from '../operator/money-input.js';
import type { Clock, CurrencySettings } from '../ports.js';
import type { GatewayAccess } from './gateway-port.js';

/** What the environment may set instead of the stored settings (config.midtrans). */
export interface MidtransEnv { serverKey: string | null; appUrl: string | null; apiUrl: string | null }

export const DEFAULT_EXPIRY_MINUTES = 60;
const MAX_EXPIRY_MINUTES = 7 * 24 * 60;
const MAX_KEY = 200;

export interface GatewaySettingsView {
  environment: MidtransEnvironment;
  clientKey: string | null;
  /** Where the server key comes from: MIDTRANS_SERVER_KEY, the sealed setting, or nowhere yet. */
  serverKeySource: 'env' | 'settings' | null;
  expiryMinutes: number;
  updatedAt: number | null;
}

export interface GatewaySettingsInput {
  environment?: string;
  /** A new server key (sealed at rest); absent: keep; empty string: remove. */
  server_key?: string;
  client_key?: string | null;
  expiry_minutes?: number;
}

export interface MethodInput { enabled?: boolean; min_amount?: number | string; max_amount?: number | string; fee_fixed?: number | string; fee_bps?: number; fee_mode?: string }

/**
 * The gateway's settings and payment methods: read by the deposit and notification
 * services, changed by the operator (audited; the server key is sealed and never shown,
 * the audit line says only that it changed).
 */
export class GatewayConfig {
  constructor(private readonly deps: { db: Kysely<DB>; secrets: SecretBox; clock: Clock; currency: CurrencySettings; env: MidtransEnv }) {}

  async view(): Promise<GatewaySettingsView> {
    const s = await new GatewayRepo(this.deps.db).settings();
    return {
      environment: asEnvironment(s?.environment), clientKey: s?.clientKey ?? null,
      serverKeySource: this.deps.env.serverKey ? 'env' : s?.serverKeySealed ? 'settings' : null,
      expiryMinutes: s?.expiryMinutes ?? DEFAULT_EXPIRY_MINUTES, updatedAt: s?.updatedAt ?? null,
    };
  }

  /** How to reach the gateway now, or null when no server key is set. */
  async access(): Promise<GatewayAccess | null> {
    const s = await new GatewayRepo(this.deps.db).settings();
    const serverKey = this.deps.env.serverKey ?? (s?.serverKeySealed ? this.deps.secrets.open(s.serverKeySealed) : null);
    if (!serverKey) return null;
    const origins = MIDTRANS_ORIGINS[asEnvironment(s?.environment)];
    return { serverKey, appUrl: this.deps.env.appUrl ?? origins.appUrl, apiUrl: this.deps.env.apiUrl ?? origins.apiUrl };
  }

  async save(input: GatewaySettingsInput, actor: Actor): Promise<GatewaySettingsView> {
    if (input.environment !== undefined && !Object.hasOwn(MIDTRANS_ORIGINS, input.environment)) throw new AppError('VALIDATION_ERROR', 'environment must be sandbox or production');
    if (input.expiry_minutes !== undefined && (!Number.isInteger(input.expiry_minutes) || input.expiry_minutes < 1 || input.expiry_minutes > MAX_EXPIRY_MINUTES)) {
      throw new AppError('VALIDATION_ERROR', `expiry_minutes must be an integer from 1 to ${MAX_EXPIRY_MINUTES}`);
    }
    const key = input.server_key?.trim();
    if (key !== undefined && (key.length > MAX_KEY || /\s/.test(key))) throw new AppError('VALIDATION_ERROR', `server_key must be the key as Midtrans shows it (no spaces, at most ${MAX_KEY} characters)`);
    const clientKey = input.client_key === undefined ? undefined : input.client_key === null ? null : input.client_key.trim() || null;
    if (clientKey && (clientKey.length > MAX_KEY || /\s/.test(clientKey))) throw new AppError('VALIDATION_ERROR', `client_key must be the key as Midtrans shows it (no spaces, at most ${MAX_KEY} characters)`);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const repo = new GatewayRepo(trx);
      const before = await repo.settings();
      const next = {
        environment: input.environment ?? before?.environment ?? 'sandbox',
        serverKeySealed: key === undefined ? before?.serverKeySealed ?? null : key === '' ? null : this.deps.secrets.seal(key),
        clientKey: clientKey === undefined ? before?.clientKey ?? null : clientKey,
        expiryMinutes: input.expiry_minutes ?? before?.expiryMinutes ?? DEFAULT_EXPIRY_MINUTES,
        updatedAt: now,
      };
      await repo.saveSettings(next);
      const shown = (s: typeof before) => s && { environment: s.environment, client_key: s.clientKey, server_key_set: s.serverKeySealed !== null, expiry_minutes: s.expiryMinutes };
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'gateway.settings', targetKind: 'payment_gateway', targetId: 'midtrans', before: shown(before),
        after: { ...shown(next), server_key_changed: key !== undefined },
      }, now);
    });
    return this.view();
  }

  /** Every known method with its rule (a method never saved is disabled, with default bounds). */
  async rules(): Promise<MethodRule[]> {
    const stored = new Map((await new GatewayRepo(this.deps.db).methods()).map((m) => [m.code, m]));
    return GATEWAY_METHOD_CODES.map((code) => {
      const m = stored.get(code);
      return m ? { code, enabled: m.enabled, minAmount: m.minAmount, maxAmount: m.maxAmount, feeFixed: m.feeFixed, feeBps: m.feeBps, feeMode: m.feeMode as FeeMode } : this.defaultRule(code);
    });
  }

  async rule(code: string): Promise<MethodRule | null> {
    return (await this.rules()).find((r) => r.code === code) ?? null;
  }

  async saveMethod(code: string, input: MethodInput, actor: Actor): Promise<MethodRule> {
    if (!isGatewayMethod(code)) throw new AppError('NOT_FOUND', `no payment method "${code}"; known: ${GATEWAY_METHOD_CODES.join(', ')}`);
    const before = (await this.rule(code))!;
    const c = this.deps.currency;
    const next: MethodRule = {
      code,
      enabled: input.enabled ?? before.enabled,
      minAmount: input.min_amount === undefined ? before.minAmount : minorUnits(input.min_amount, c, 'min_amount', { positive: true }),
      maxAmount: input.max_amount === undefined ? before.maxAmount : minorUnits(input.max_amount, c, 'max_amount', { positive: true }),
      feeFixed: input.fee_fixed === undefined ? before.feeFixed : minorUnits(input.fee_fixed, c, 'fee_fixed'),
      feeBps: input.fee_bps ?? before.feeBps,
      feeMode: (input.fee_mode ?? before.feeMode) as FeeMode,
    };
    const problem = ruleProblem(next);
    if (problem) throw new AppError('VALIDATION_ERROR', problem);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await new GatewayRepo(trx).saveMethod({ ...next, updatedAt: now });
      await AuditRepo.record(trx, { operatorId: actor, action: 'gateway.method', targetKind: 'payment_method', targetId: code, before, after: next }, now);
    });
    return next;
  }

  private defaultRule(code: GatewayMethodCode): MethodRule {
    const unit = 10 ** this.deps.currency.decimals;
    return { code, enabled: false, minAmount: 10_000 * unit, maxAmount: 10_000_000 * unit, feeFixed: 0, feeBps: 0, feeMode: 'pass' };
  }
}

const asEnvironment = (v: string | undefined): MidtransEnvironment => (v === 'production' ? 'production' : 'sandbox');

export const methodLabel = (code: string) => (isGatewayMethod(code) ? GATEWAY_METHODS[code].label : code);
