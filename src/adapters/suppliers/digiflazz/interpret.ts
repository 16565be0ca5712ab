import type { FailureCode } from '../../../domain/failure.js';
import type { Answer, DigiflazzTransaction } from './protocol.js';
import { describeRc, RC_TABLE } from './response-codes.js';

/** One transaction answer, read by the same rules whether it came from placing, asking again or a webhook. */
export type Outcome =
  | { kind: 'success'; sn: string; message: string | null; price?: number }
  | { kind: 'pending' }
  | { kind: 'unknown'; message: string }
  | { kind: 'not-found'; message: string }
  /** The call, not a transaction, was refused (see RcVerdict). */
  | { kind: 'refused'; code: FailureCode; message: string; deposit?: true }
  | { kind: 'next-route'; code: FailureCode; message: string; priceRise?: true }
  | { kind: 'failed'; code: FailureCode; message: string };

/**
 * Final states come from `status` (Sukses, Gagal); rc 01, 99 and 49 are unknown whatever
 * the status says short of Sukses; a Gagal whose rc refuses the call is no transaction's
 * state; anything we cannot read, an rc not in the table included, is unknown, never a
 * failure.
 * `maxPrice`: what we sent as max_price; a Gagal at a higher price is the supplier
 * refusing a price rise (the protocol names no rc for it), so another route may be tried.
 */
export function interpret(answer: Answer, maxPrice: number | null): Outcome {
  if (answer.kind === 'refused') return { kind: 'refused', code: 'SUPPLIER_UNREACHABLE', message: answer.message };
  if (answer.kind === 'no-answer') return { kind: 'unknown', message: answer.message };
  const tx = answer.data as DigiflazzTransaction | null;
  if (!tx || typeof tx !== 'object' || Array.isArray(tx)) return { kind: 'unknown', message: `unreadable answer (HTTP ${answer.httpStatus})` };
  const rc = typeof tx.rc === 'string' ? tx.rc : '';
  const said = typeof tx.message === 'string' && tx.message ? tx.message : null;
  // A refusal about our account or set-up names its cause for the operator (never a reseller's reason: those rcs carry fixed failure codes).
  const message = RC_TABLE[rc]?.cause ? describeRc(rc, said) : said ?? `rc ${rc || 'missing'}`;
  if (tx.status === 'Sukses') {
    const price = typeof tx.price === 'number' && Number.isSafeInteger(tx.price) && tx.price >= 0 ? { price: tx.price } : {};
    return { kind: 'success', sn: typeof tx.sn === 'string' ? tx.sn.trim() : '', message: said, ...price };
  }
  const row = RC_TABLE[rc];
  const v = row?.verdict;
  if (v?.kind === 'unknown') return { kind: 'unknown', message };
  if (tx.status === 'Pending') return { kind: 'pending' };
  // Said of the call, not of a transaction: whatever else the answer carries.
  if (v?.kind === 'refused') return { kind: 'refused', code: v.code, message, ...(v.deposit ? { deposit: v.deposit } : {}) };
  if (v?.kind === 'not-found') return { kind: 'not-found', message };
  if (tx.status !== 'Gagal') return { kind: 'unknown', message: `${message} (no final status)` };
  if (maxPrice !== null && typeof tx.price === 'number' && tx.price > maxPrice) {
    return { kind: 'next-route', code: 'PRODUCT_UNAVAILABLE', message: `price ${tx.price} above max_price ${maxPrice}`, priceRise: true };
  }
  switch (v?.kind) {
    case undefined:
      return { kind: 'unknown', message: `${message} (rc ${rc || 'missing'} unknown to us)` };
    case 'success':
    case 'pending':
      // The rc says so but the status is a final Gagal: it stands.
      return { kind: 'failed', code: 'SUPPLIER_REJECTED', message };
    case 'next-route':
      return { kind: 'next-route', code: v.code, message };
    case 'failed':
      return { kind: 'failed', code: v.code, message };
  }
}
