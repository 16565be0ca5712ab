import type { FailureCode } from '../../domain/failure.js';
import type { RouteOptions } from '../../domain/route-options.js';

/**
 * What the fulfilment engine needs from an upstream supplier. `reference` is the attempt's
 * own reference at that supplier (src/domain/supplier-reference.ts), stored before the
 * submission, so a submission can be looked up after a crash before ordering again.
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
export type UpstreamSuccess = {
  voucherCode?: string; supplierSerial?: string; supplierMessage?: string;
  /** What the supplier says it charged for this transaction, minor units (when its answer carries it): the order's cost. */
  charged?: number;
};

/**
 * What one supplier answer says, to a submission or a status query alike. An adapter only
 * says which answers are definite; what an answer means for the order (move on, refund,
 * ask again) is the fulfilment service's rule, the same for every supplier
 * (src/services/fulfil-order.ts).
 */
export type SupplierAnswer =
  /** The transaction succeeded (final). */
  | ({ kind: 'success' } & UpstreamSuccess)
  /** The transaction exists and is not final yet. */
  | { kind: 'pending' }
  /**
   * The transaction is final and was never delivered (the supplier took no money for it).
   * otherRoute: the reason is on the supplier's side (stock, seller, product), so another
   * route may do better; otherwise a verdict about the destination no route changes.
   */
  | ({ kind: 'failed'; otherRoute: boolean } & UpstreamFailure)
  /**
   * The call itself was refused before a transaction was placed or looked up (connection
   * refused, signature, whitelist, payload, account, rate limit): this call stored nothing,
   * and it says nothing about a transaction an earlier call placed.
   */
  | ({ kind: 'refused' } & UpstreamFailure)
  /** The supplier has no transaction under this reference. */
  | { kind: 'not-found' }
  /** Nothing definite: a timeout or cut connection after sending, an unreadable body, an answer whose outcome is unknown. */
  | { kind: 'unknown'; message: string };

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
  submit(req: SubmitRequest): Promise<SupplierAnswer>;
  /** `order` is the submission as it was sent, `reference` its own (a supplier that asks by re-sending needs it). */
  status(reference: string, order: SubmitRequest): Promise<SupplierAnswer>;
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
