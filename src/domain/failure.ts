/**
 * Order failure taxonomy (spec, "Order failure codes"). failure_reason is a sentence for
 * the end customer and never names a supplier.
 */
export type FailureCode =
  | 'NO_SUPPLIER_AVAILABLE' | 'PRODUCT_UNAVAILABLE' | 'SUPPLIER_MAINTENANCE' | 'SUPPLIER_UNREACHABLE'
  | 'SUPPLIER_REJECTED' | 'INVALID_ID' | 'REGION_LOCK' | 'PURCHASE_LIMIT' | 'WDP_LIMIT_LIKELY';

const REASONS: Record<Exclude<FailureCode, 'SUPPLIER_REJECTED'>, string> = {
  NO_SUPPLIER_AVAILABLE: 'This product could not be sourced right now. Please try again later.',
  PRODUCT_UNAVAILABLE: 'This product is currently unavailable (out of stock or delisted).',
  SUPPLIER_MAINTENANCE: 'The game is under maintenance. Please try again later.',
  SUPPLIER_UNREACHABLE: 'The top-up could not be processed because of a temporary network problem. Please try again later.',
  INVALID_ID: 'The game account does not exist. Please check the player ID.',
  REGION_LOCK: "The game account's region cannot receive this product.",
  PURCHASE_LIMIT: 'This account has already used its allowance for this product.',
  WDP_LIMIT_LIKELY: 'The weekly pass could not be added, probably because the account already holds the maximum number of active passes (10).',
};

export interface Failure { code: FailureCode | null; reason: string | null }

/**
 * Removes supplier names from upstream wording: anything before a colon that looks like a
 * sender ("Acme Games Inc: ...") and any configured supplier name.
 */
export function cleanUpstreamWording(text: string, supplierNames: readonly string[]): string {
  let out = text.replace(/^[^:]{1,60}:\s*/, '');
  for (const name of supplierNames) {
    if (name.trim().length < 3) continue;
    out = out.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), 'the provider');
  }
  out = out.trim();
  return out ? `${out.charAt(0).toUpperCase()}${out.slice(1)}${/[.!?]$/.test(out) ? '' : '.'}` : 'The top-up was rejected.';
}

/**
 * The failure recorded on an order. A weekly-pass order rejected for no stated reason,
 * for an account the checker verified, is most likely the in-game stack limit.
 */
export function classifyFailure(input: {
  code: FailureCode | null;
  upstreamMessage: string | null;
  limitGated: boolean;
  checkerVerified: boolean;
  supplierNames: readonly string[];
}): Failure {
  if (input.code === null) return { code: null, reason: null };
  if (input.code === 'SUPPLIER_REJECTED') {
    if (input.limitGated && input.checkerVerified) return { code: 'WDP_LIMIT_LIKELY', reason: REASONS.WDP_LIMIT_LIKELY };
    return { code: 'SUPPLIER_REJECTED', reason: input.upstreamMessage ? cleanUpstreamWording(input.upstreamMessage, input.supplierNames) : 'The top-up was rejected.' };
  }
  return { code: input.code, reason: REASONS[input.code] };
}
