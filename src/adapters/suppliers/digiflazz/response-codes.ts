import type { FailureCode } from '../../../domain/failure.js';

/**
 * What each Digiflazz rc means for an order: THE table (docs/suppliers/digiflazz.md shows
 * it, and a test holds the two equal).
 * - success / pending: as said (the transaction's `status` decides first, see interpret.ts);
 * - unknown: the outcome is not known: ask again with the same ref_id, never order elsewhere;
 * - not-found: the supplier has no transaction with this ref_id;
 * - refused: the call was refused (payload, signature, whitelist, account, deposit, rate
 *   limit), not a transaction: placing, nothing was stored and the next route may be
 *   tried; asking about an order, it says nothing about it (ask again later); `code` is
 *   the order's failure if no route is left;
 * - next-route: the transaction is final and certainly not taken, for a reason on the
 *   supplier's side that says nothing about the game account: the next route may be
 *   tried; `code` is the order's failure if no route is left;
 * - failed: a definite failure no other route would change (a verdict about the account
 *   or destination), with our failure code.
 * `deposit`: our deposit at the supplier is short (flag the supplier).
 */
export type RcVerdict =
  | { kind: 'success' }
  | { kind: 'pending' }
  | { kind: 'unknown' }
  | { kind: 'not-found' }
  | { kind: 'refused'; code: FailureCode; deposit?: true }
  | { kind: 'next-route'; code: FailureCode }
  | { kind: 'failed'; code: FailureCode };

const refused = (code: FailureCode, deposit?: true): RcVerdict => ({ kind: 'refused', code, ...(deposit ? { deposit } : {}) });
const next = (code: FailureCode): RcVerdict => ({ kind: 'next-route', code });
const failed = (code: FailureCode): RcVerdict => ({ kind: 'failed', code });

/**
 * `cause`: what an operator should know or do, when the rc is about our account or set-up
 * rather than the order (health messages name it: describeRc).
 */
export const RC_TABLE: Readonly<Record<string, { meaning: string; verdict: RcVerdict; cause?: string }>> = {
  '00': { meaning: 'success', verdict: { kind: 'success' } },
  '01': { meaning: 'timeout (outcome unknown)', verdict: { kind: 'unknown' } },
  '02': { meaning: 'transaction failed', verdict: failed('SUPPLIER_REJECTED') },
  '03': { meaning: 'pending', verdict: { kind: 'pending' } },
  '40': { meaning: 'payload error', verdict: refused('SUPPLIER_REJECTED') },
  '41': { meaning: 'invalid signature', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: 'signature refused: check the API key (and the username)' },
  '42': { meaning: 'buyer API processing failed', verdict: refused('NO_SUPPLIER_AVAILABLE') },
  '43': { meaning: 'SKU not found or inactive', verdict: refused('PRODUCT_UNAVAILABLE') },
  '44': { meaning: "buyer's balance insufficient", verdict: refused('NO_SUPPLIER_AVAILABLE', true), cause: 'our deposit at the supplier is too low: top it up' },
  '45': { meaning: 'caller IP not whitelisted', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: "this server's IP is not whitelisted at the supplier: add it in the supplier's member area" },
  '47': { meaning: 'transaction already made at another seller', verdict: failed('PURCHASE_LIMIT') },
  '49': { meaning: 'ref_id not unique', verdict: { kind: 'unknown' } },
  '50': { meaning: 'transaction not found', verdict: { kind: 'not-found' } },
  '51': { meaning: 'destination number blocked', verdict: failed('SUPPLIER_REJECTED') },
  '52': { meaning: 'prefix does not match the operator', verdict: failed('INVALID_ID') },
  '53': { meaning: "seller's product unavailable", verdict: next('PRODUCT_UNAVAILABLE') },
  '54': { meaning: 'wrong destination number', verdict: failed('INVALID_ID') },
  '55': { meaning: 'product disrupted at the seller', verdict: next('PRODUCT_UNAVAILABLE') },
  '56': { meaning: "seller's balance limit", verdict: next('NO_SUPPLIER_AVAILABLE') },
  '57': { meaning: 'wrong number of digits', verdict: failed('INVALID_ID') },
  '58': { meaning: 'cut-off period', verdict: next('SUPPLIER_MAINTENANCE') },
  '59': { meaning: 'destination outside the service area', verdict: failed('REGION_LOCK') },
  '60': { meaning: 'bill not available (postpaid)', verdict: failed('SUPPLIER_REJECTED') },
  '61': { meaning: 'buyer has never deposited', verdict: refused('NO_SUPPLIER_AVAILABLE', true), cause: 'no deposit was ever made at the supplier: make one' },
  '62': { meaning: 'seller disrupted', verdict: next('SUPPLIER_MAINTENANCE') },
  '63': { meaning: 'multi-transaction not supported', verdict: next('PURCHASE_LIMIT') },
  '64': { meaning: 'ticket withdrawal failed', verdict: next('NO_SUPPLIER_AVAILABLE') },
  '65': { meaning: 'multi-transaction limit', verdict: next('PURCHASE_LIMIT') },
  '66': { meaning: 'seller cut-off (maintenance)', verdict: next('SUPPLIER_MAINTENANCE') },
  '67': { meaning: 'seller not verified', verdict: next('NO_SUPPLIER_AVAILABLE') },
  '68': { meaning: 'out of stock', verdict: next('PRODUCT_UNAVAILABLE') },
  '73': { meaning: 'kWh above limit (PLN)', verdict: failed('SUPPLIER_REJECTED') },
  '74': { meaning: 'transaction refunded', verdict: failed('SUPPLIER_REJECTED') },
  '80': { meaning: 'account/seller blocked or unverified', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: 'the supplier account is blocked or unverified: see the supplier' },
  '81': { meaning: 'account/seller blocked or unverified', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: 'the supplier account is blocked or unverified: see the supplier' },
  '82': { meaning: 'account/seller blocked or unverified', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: 'the supplier account is blocked or unverified: see the supplier' },
  '83': { meaning: 'price list request limit', verdict: refused('NO_SUPPLIER_AVAILABLE'), cause: 'the price list was asked for too often: wait before the next sync' },
  '84': { meaning: 'invalid nominal', verdict: next('PRODUCT_UNAVAILABLE') },
  '85': { meaning: 'transaction limit', verdict: refused('NO_SUPPLIER_AVAILABLE') },
  '86': { meaning: 'PLN number check limit', verdict: refused('NO_SUPPLIER_AVAILABLE') },
  '99': { meaning: 'router issue (outcome unknown)', verdict: { kind: 'unknown' } },
};

/**
 * An rc as an operator reads it: the cause when the table names one, else the meaning,
 * then the supplier's own words (e.g. rc 45: this server's IP is not whitelisted ...).
 */
export function describeRc(rc: string, supplierMessage?: string | null): string {
  const row = RC_TABLE[rc];
  const what = row ? (row.cause ?? row.meaning) : 'unknown response code';
  return `rc ${rc || 'missing'}: ${what}${supplierMessage ? ` (the supplier said: "${supplierMessage}")` : ''}`;
}
