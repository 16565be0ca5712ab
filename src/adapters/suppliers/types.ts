import type { FailureCode } from '../../domain/failure.js';
import type { RouteOptions } from '../../domain/route-options.js';

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
  /** The order's price and the route's expected cost, minor units (cost null: not known). */
  price: number;
  cost: number | null;
  /** The route's own settings (customer number format, testing mode). */
  options: RouteOptions;
}

export type UpstreamFailure = { code: FailureCode | null; message: string | null };

/** What the supplier said with a success (its serial number and message), kept on the order for disputes. */
export type UpstreamSuccess = { voucherCode?: string; supplierSerial?: string; supplierMessage?: string };

export type SubmitResult =
  /** Taken upstream, outcome later: poll status(reference). */
  | { outcome: 'accepted' }
  | ({ outcome: 'success' } & UpstreamSuccess)
  /** A definite no. notTaken: certainly never accepted upstream, so another route may be tried. */
  | ({ outcome: 'rejected'; notTaken: boolean } & UpstreamFailure)
  /** Sent, but no definite answer (timeout after sending): never re-order elsewhere, poll. */
  | { outcome: 'ambiguous'; message: string };

export type StatusResult =
  | { state: 'unknown' }
  | { state: 'pending' }
  | ({ state: 'success' } & UpstreamSuccess)
  /** notTaken: the supplier certainly never took it (final there), so another route may be tried. */
  | ({ state: 'failed'; notTaken?: boolean } & UpstreamFailure)
  | { state: 'ambiguous'; message: string };

/** One SKU of a supplier's price list, as the price-list sync stores it. */
export interface PriceListItem {
  sku: string;
  name: string;
  category: string;
  brand: string;
  /** Minor units of the platform currency. */
  cost: number;
  buyable: boolean;
  /** "HH:MM-HH:MM" in the supplier's time zone, null: none. */
  cutOff: string | null;
}

export interface Supplier {
  submit(req: SubmitRequest): Promise<SubmitResult>;
  /** `order` is the submission as it was sent (a supplier that asks by re-sending needs it). */
  status(reference: string, order: SubmitRequest): Promise<StatusResult>;
  /**
   * Which of these SKUs can be sourced now, asked once per supplier per refresh (an upstream
   * counts every request against its rate limit). Throws when the check itself cannot run;
   * null for a SKU: the check ran but could not tell for that one (counted as available).
   */
  available(skus: readonly string[]): Promise<Map<string, boolean | null>>;
  health(): Promise<'up' | 'down' | 'maintenance'>;
  /** The whole price list, read afresh (suppliers with a price list only). Throws when it cannot be read. */
  priceList?(): Promise<PriceListItem[]>;
}
