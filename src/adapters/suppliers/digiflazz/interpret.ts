import type { FailureCode } from '../../../domain/failure.js';
import type { Answer, DigiflazzTransaction } from './protocol.js';
import { describeRc, RC_TABLE } from './response-codes.js';

/** One transaction answer, read by the same rules whether it came from placing, asking again or a webhook. */
export type Outcome =
  | { kind: 'success'; sn: string; message: string | null }
  | { kind: 'pending' }
  | { kind: 'unknown'; message: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'next-route'; code: FailureCode; message: string; deposit?: true; priceRise?: true }
  | { kind: 'failed'; code: FailureCode; message: string };

/**
 * Final states come from `status` (Sukses, Gagal); rc 01 and 99 are unknown whatever the
 * status says short of Sukses; anything we cannot read is unknown, never a failure.
 * `maxPrice`: what we sent as max_price; a Gagal at a higher price is the supplier
 * refusing a price rise (the protocol names no rc for it), so another route may be tried.
 */
export function interpret(answer: Answer, maxPrice: number | null): Outcome {
  if (answer.kind === 'refused') return { kind: 'next-route', code: 'SUPPLIER_UNREACHABLE', message: answer.message };
  if (answer.kind === 'no-answer') return { kind: 'unknown', message: answer.message };
  const tx = answer.data as DigiflazzTransaction | null;
  if (!tx || typeof tx !== 'object' || Array.isArray(tx)) return { kind: 'unknown', message: `unreadable answer (HTTP ${answer.httpStatus})` };
  const rc = typeof tx.rc === 'string' ? tx.rc : '';
  const said = typeof tx.message === 'string' && tx.message ? tx.message : null;
  // A refusal about our account or set-up names its cause for the operator (never a reseller's reason: those rcs carry fixed failure codes).
  const message = RC_TABLE[rc]?.cause ? describeRc(rc, said) : said ?? `rc ${rc || 'missing'}`;
  if (tx.status === 'Sukses') return { kind: 'success', sn: typeof tx.sn === 'string' ? tx.sn.trim() : '', message: said };
  const row = RC_TABLE[rc];
  if (row?.verdict.kind === 'unknown') return { kind: 'unknown', message };
  if (tx.status === 'Pending') return { kind: 'pending' };
  const gagal = tx.status === 'Gagal';
  if (gagal && maxPrice !== null && typeof tx.price === 'number' && tx.price > maxPrice) {
    return { kind: 'next-route', code: 'PRODUCT_UNAVAILABLE', message: `price ${tx.price} above max_price ${maxPrice}`, priceRise: true };
  }
  if (!row) return gagal ? { kind: 'failed', code: 'SUPPLIER_REJECTED', message } : { kind: 'unknown', message };
  const v = row.verdict;
  switch (v.kind) {
    case 'success':
    case 'pending':
      // rc says so but status does not: a final Gagal stands, anything else is asked again.
      return gagal ? { kind: 'failed', code: 'SUPPLIER_REJECTED', message } : v.kind === 'pending' ? { kind: 'pending' } : { kind: 'unknown', message };
    case 'not-found':
      return { kind: 'not-found', message };
    case 'next-route':
      return { kind: 'next-route', code: v.code, message, ...(v.deposit ? { deposit: v.deposit } : {}) };
    case 'failed':
      return { kind: 'failed', code: v.code, message };
    default:
      return { kind: 'unknown', message };
  }
}
