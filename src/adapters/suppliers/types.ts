import type { FailureCode } from '../../domain/failure.js';

/**
 * What the fulfilment engine needs from an upstream supplier. Our order id is always the
 * upstream reference, so a submission can be looked up after a crash before ordering again.
 */
export interface SubmitRequest {
  reference: string;
  sku: string;
  target: string;
  zone: string | null;
  kind: 'instant' | 'voucher';
}

export type UpstreamFailure = { code: FailureCode | null; message: string | null };

export type SubmitResult =
  /** Taken upstream, outcome later: poll status(reference). */
  | { outcome: 'accepted' }
  | { outcome: 'success'; voucherCode?: string }
  /** A definite no. notTaken: certainly never accepted upstream, so another route may be tried. */
  | ({ outcome: 'rejected'; notTaken: boolean } & UpstreamFailure)
  /** Sent, but no definite answer (timeout after sending): never re-order elsewhere, poll. */
  | { outcome: 'ambiguous'; message: string };

export type StatusResult =
  | { state: 'unknown' }
  | { state: 'pending' }
  | { state: 'success'; voucherCode?: string }
  | ({ state: 'failed' } & UpstreamFailure)
  | { state: 'ambiguous'; message: string };

export interface Supplier {
  submit(req: SubmitRequest): Promise<SubmitResult>;
  status(reference: string): Promise<StatusResult>;
  /**
   * Which of these SKUs can be sourced now, asked once per supplier per refresh (an upstream
   * counts every request against its rate limit). Throws when the check itself cannot run;
   * null for a SKU: the check ran but could not tell for that one (counted as available).
   */
  available(skus: readonly string[]): Promise<Map<string, boolean | null>>;
  health(): Promise<'up' | 'down' | 'maintenance'>;
}
