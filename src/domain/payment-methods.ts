/**
 * Gateway payment methods and their fee rules (issue 36). Pure: the store keeps each
 * method's settings, these rules say what a deposit of an amount costs the reseller.
 */

/** The methods the platform knows, in the order resellers see them, and Snap's enabled_payments for each. */
export const GATEWAY_METHODS = {
  qris: { label: 'QRIS', group: 'qris', enabledPayments: ['other_qris'] },
  bca_va: { label: 'BCA Virtual Account', group: 'bank_va', enabledPayments: ['bca_va'] },
  bni_va: { label: 'BNI Virtual Account', group: 'bank_va', enabledPayments: ['bni_va'] },
  bri_va: { label: 'BRI Virtual Account', group: 'bank_va', enabledPayments: ['bri_va'] },
  permata_va: { label: 'Permata Virtual Account', group: 'bank_va', enabledPayments: ['permata_va'] },
  mandiri_bill: { label: 'Mandiri Bill Payment', group: 'bank_va', enabledPayments: ['echannel'] },
  gopay: { label: 'GoPay', group: 'ewallet', enabledPayments: ['gopay'] },
  shopeepay: { label: 'ShopeePay', group: 'ewallet', enabledPayments: ['shopeepay'] },
} as const;
export type GatewayMethodCode = keyof typeof GATEWAY_METHODS;
export const GATEWAY_METHOD_CODES = Object.keys(GATEWAY_METHODS) as GatewayMethodCode[];
export const isGatewayMethod = (code: string): code is GatewayMethodCode => Object.hasOwn(GATEWAY_METHODS, code);

/** pass: the fee is added to what the reseller pays (shown before paying); absorb: the platform pays it. */
export type FeeMode = 'pass' | 'absorb';
export const FEE_MODES: readonly FeeMode[] = ['pass', 'absorb'];

export interface MethodRule {
  code: GatewayMethodCode;
  enabled: boolean;
  /** Minor units, bounds of the amount credited. */
  minAmount: number;
  maxAmount: number;
  feeFixed: number;
  /** Basis points (1/100 of a percent) of the amount. */
  feeBps: number;
  feeMode: FeeMode;
}

/** Highest percentage fee accepted (50%): anything above is a typo. */
export const MAX_FEE_BPS = 5000;

/** The gateway's fee for crediting `amount`: fixed + amount × bps / 10 000, rounded up to a minor unit. */
export function gatewayFee(rule: Pick<MethodRule, 'feeFixed' | 'feeBps'>, amount: number): number {
  return rule.feeFixed + Math.ceil((amount * rule.feeBps) / 10_000);
}

export interface Quote {
  /** Credited to the wallet. */
  amount: number;
  /** The gateway's fee for this payment. */
  fee: number;
  /** What the reseller pays (amount + fee when passed on). */
  payable: number;
  feeMode: FeeMode;
}

export function quote(rule: MethodRule, amount: number): Quote {
  const fee = gatewayFee(rule, amount);
  return { amount, fee, payable: rule.feeMode === 'pass' ? amount + fee : amount, feeMode: rule.feeMode };
}

/** Why an amount cannot be paid with a method (null: it can). */
export function methodRefusal(rule: MethodRule, amount: number): 'disabled' | 'below_min' | 'above_max' | null {
  if (!rule.enabled) return 'disabled';
  if (amount < rule.minAmount) return 'below_min';
  if (amount > rule.maxAmount) return 'above_max';
  return null;
}

/** A rule's own consistency (what to fix), or null. */
export function ruleProblem(r: Omit<MethodRule, 'code'>): string | null {
  if (r.minAmount < 1) return 'min_amount must be greater than 0';
  if (r.maxAmount < r.minAmount) return 'max_amount must be at least min_amount';
  if (r.feeFixed < 0) return 'fee_fixed must be 0 or more';
  if (!Number.isInteger(r.feeBps) || r.feeBps < 0 || r.feeBps > MAX_FEE_BPS) return `fee_bps must be an integer from 0 to ${MAX_FEE_BPS} (basis points: 70 = 0.7%)`;
  if (!FEE_MODES.includes(r.feeMode)) return 'fee_mode must be pass or absorb';
  return null;
}
