/**
 * An order's `failure_code` (spec, "Order failure codes"). The set is open: a code not
 * listed here may appear later, so show `failure_reason` for one you do not know.
 */
export const FAILURE_CODES = [
  'NO_SUPPLIER_AVAILABLE', 'PRODUCT_UNAVAILABLE', 'SUPPLIER_MAINTENANCE', 'SUPPLIER_UNREACHABLE',
  'SUPPLIER_REJECTED', 'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT', 'WDP_LIMIT_LIKELY',
] as const;

export type KnownFailureCode = (typeof FAILURE_CODES)[number];
/** Known codes autocomplete; any other string is still accepted. */
export type FailureCode = KnownFailureCode | (string & {});

export const isKnownFailureCode = (code: string | null | undefined): code is KnownFailureCode =>
  code != null && (FAILURE_CODES as readonly string[]).includes(code);
