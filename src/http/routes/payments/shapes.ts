import { Type } from '@sinclair/typebox';
import { GATEWAY_METHOD_CODES, type MethodRule } from '../../../domain/payment-methods.js';
import { DEPOSIT_STATES } from '../../../domain/deposit.js';
import { toMajor } from '../../../domain/money.js';
import type { GatewayDepositRow } from '../../../store/gateway-repo.js';
import { IsoTime, Money, Nullable, StringEnum } from '../../schemas.js';

/** Response shapes of gateway deposits, shared by the operator and dashboard APIs. */
export const MethodCode = StringEnum(GATEWAY_METHOD_CODES, 'payment method');
export const FeeModeSchema = StringEnum(['pass', 'absorb'] as const, 'pass: the fee is added to what the reseller pays; absorb: the platform pays it');

export const GatewayDeposit = Type.Object({
  id: Type.String({ description: 'DEP-…; also the gateway order_id' }),
  state: StringEnum(DEPOSIT_STATES),
  method: Nullable(Type.String()),
  amount: Money('credited to the wallet when paid'),
  fee: Money('the gateway fee of this payment'),
  payable: Money('what the reseller pays (amount + fee when the fee is passed on)'),
  redirect_url: Nullable(Type.String({ description: 'the gateway\'s payment page (Snap)' })),
  expires_at: IsoTime(), paid_at: Nullable(IsoTime()), created_at: IsoTime(), updated_at: IsoTime(),
});

const iso = (ms: number) => new Date(ms).toISOString();

export const gatewayDeposit = (d: GatewayDepositRow, decimals: number) => ({
  id: d.id, state: d.state as (typeof DEPOSIT_STATES)[number], method: d.method, amount: toMajor(d.amount, decimals), fee: toMajor(d.fee, decimals),
  payable: toMajor(d.payable, decimals), redirect_url: d.gatewayUrl, expires_at: iso(d.expiresAt), paid_at: d.paidAt === null ? null : iso(d.paidAt),
  created_at: iso(d.createdAt), updated_at: iso(d.updatedAt),
});

export const MethodRuleSchema = Type.Object({
  code: MethodCode, label: Type.String(), enabled: Type.Boolean(), min_amount: Money(), max_amount: Money(), fee_fixed: Money(),
  fee_bps: Type.Integer({ description: 'basis points of the amount (70 = 0.7%)' }), fee_mode: FeeModeSchema,
});

export const methodRule = (r: MethodRule, label: string, decimals: number) => ({
  code: r.code, label, enabled: r.enabled, min_amount: toMajor(r.minAmount, decimals), max_amount: toMajor(r.maxAmount, decimals),
  fee_fixed: toMajor(r.feeFixed, decimals), fee_bps: r.feeBps, fee_mode: r.feeMode,
});
