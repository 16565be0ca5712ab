import { apiErrorClass, TopupApiError, TopupConflictError, TopupTransportError } from './errors.js';
import { withResponse, type RateLimitState, type ResponseInfo } from './response.js';
import { Transport, parseRetryAfter, sleep, type CallOptions, type RawResponse, type RetryPolicy, type TransportOptions } from './transport.js';
import type {
  Balance, CallbackLog, CallbackResent, Category, Order, OrderCreated, OrderRequest, OrdersQuery, Page, Product,
  ProductsQuery, ValidationRequest, ValidationResult, WalletQuery, LedgerEntry, OrderStatus,
} from './types.js';

export type ClientOptions = TransportOptions;

/** A method's answer: its data, plus the response's status, request id and rate-limit state as a non-enumerable `$response`. */
export type Result<T> = T & { readonly $response: ResponseInfo };

/** POST /order's answer; `recovered` when it is an order an earlier attempt of this call (or a resumed one) created. */
export type PlacedOrder = Omit<OrderCreated, 'status'> & { status: OrderStatus; recovered: boolean };

export interface PlaceOrderOptions extends CallOptions {
  /**
   * This ref_id may already have been sent by you (an earlier call ended in a
   * TopupTransportError, or your process died mid-call): a DUPLICATE_REF_ID on the first
   * attempt then resolves to the existing order instead of being thrown.
   */
  resume?: boolean;
}

export interface WaitOptions extends CallOptions {
  /** Shortest time between two polls (default 1 s); longer when the rate limit asks for it. */
  intervalMs?: number;
  /** Gives up with a TopupTransportError TIMEOUT after this long (default 120 s). */
  waitMs?: number;
  /**
   * The share of what is left of the rate-limit window that polling may spend (default 0.5):
   * after each poll the next waits at least reset / (remaining × share), so your other
   * requests keep the rest and polling never runs the window dry.
   */
  rateShare?: number;
}

const FINAL: ReadonlySet<string> = new Set(['success', 'failed', 'refunded']);

/** The gap before the next poll that spends at most `share` of what is left of the rate-limit window. */
export function pollGap(rate: RateLimitState | null, share: number): number {
  if (!rate) return 0;
  const resetMs = Math.max(0, rate.resetSeconds * 1000);
  const budget = Math.floor(rate.remaining * share);
  return budget >= 1 ? Math.ceil(resetMs / budget) : resetMs + 250;
}

/**
 * The reseller API v1 client: one typed method per endpoint; every request signed as the
 * spec says. Methods resolve to the response's `data` (plus `meta` for lists), with the
 * answer's status, request id and rate-limit state as `$response`, and throw a
 * TopupApiError subclass (the service's code, message and request id) or TopupTransportError.
 */
export class TopupClient {
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  /** The rate-limit state of the latest answer that carried one (null before the first). */
  get rateLimit(): RateLimitState | null {
    return this.http.rateLimit;
  }

  /** GET /categories: games with the input form to show your end user. */
  async categories(call?: CallOptions): Promise<Result<{ categories: Category[] }>> {
    return this.data('GET', '/categories', {}, 'safe', call);
  }

  /** GET /products: your products and tier prices (one page). */
  async products(query: ProductsQuery = {}, call?: CallOptions): Promise<Result<Page<{ products: Product[] }>>> {
    return this.page('GET', '/products', { query }, call);
  }

  /**
   * POST /order, safely retried: a network error, timeout or 5xx is retried with the same
   * body (same ref_id), and a DUPLICATE_REF_ID after such a retry resolves to the order the
   * earlier attempt created (GET /order-status), so one call never orders twice or loses an
   * order. A DUPLICATE_REF_ID on the first attempt is thrown: that ref_id was used before.
   */
  async placeOrder(order: OrderRequest, options: PlaceOrderOptions = {}): Promise<Result<PlacedOrder>> {
    let r: RawResponse;
    try {
      r = await this.http.send('POST', '/order', { body: order, policy: 'order' }, options);
    } catch (err) {
      // Out of retries without an answer: the order may exist; if it does, that is the answer.
      if (err instanceof TopupTransportError && err.code !== 'ABORTED') {
        const existing = await this.orderStatus(order.ref_id, options).catch(() => null);
        if (existing) return this.recovered(order, existing);
      }
      throw err;
    }
    if (r.status === 200 && r.body?.success === true) return withResponse({ ...r.body.data, recovered: false }, this.info(r));
    const error = this.toError(r);
    if (error.code === 'DUPLICATE_REF_ID' && (r.attempts > 1 || options.resume)) {
      return this.recovered(order, await this.orderStatus(order.ref_id, options), error);
    }
    throw error;
  }

  /** POST /validation: checks a game account before ordering. */
  async validate(body: ValidationRequest, call?: CallOptions): Promise<Result<ValidationResult>> {
    return this.data('POST', '/validation', { body }, 'safe', call);
  }

  /** GET /order-status: one order by ref_id. */
  async orderStatus(refId: string, call?: CallOptions): Promise<Result<Order>> {
    return this.data('GET', '/order-status', { query: { ref_id: refId } }, 'safe', call);
  }

  /** @deprecated POST /check-status: use orderStatus(). */
  async checkStatus(refId: string, call?: CallOptions): Promise<Result<Order>> {
    return this.data('POST', '/check-status', { body: { ref_id: refId } }, 'safe', call);
  }

  /** GET /orders: order history, newest first (one page). */
  async orders(query: OrdersQuery = {}, call?: CallOptions): Promise<Result<Page<{ orders: Order[] }>>> {
    return this.page('GET', '/orders', { query }, call);
  }

  /** GET /balance. */
  async balance(call?: CallOptions): Promise<Result<Balance>> {
    return this.data('GET', '/balance', {}, 'safe', call);
  }

  /** GET /wallet-history: the wallet ledger, newest first (one page). */
  async walletHistory(query: WalletQuery = {}, call?: CallOptions): Promise<Result<Page<{ entries: LedgerEntry[] }>>> {
    return this.page('GET', '/wallet-history', { query }, call);
  }

  /** GET /callbacks: the delivery log of an order's callbacks. */
  async callbackLog(refId: string, call?: CallOptions): Promise<Result<CallbackLog>> {
    return this.data('GET', '/callbacks', { query: { ref_id: refId } }, 'safe', call);
  }

  /** POST /callbacks/resend: queues a new round of callback attempts (never retried on a network error: it is not idempotent). */
  async resendCallback(refId: string, call?: CallOptions): Promise<Result<CallbackResent>> {
    return this.data('POST', '/callbacks/resend', { body: { ref_id: refId } }, 'none', call);
  }

  /**
   * Polls GET /order-status until the order is final (success, failed or refunded), pacing
   * itself by the rate-limit headers so it fits your tier's limit (see WaitOptions.rateShare).
   */
  async waitForFinal(refId: string, options: WaitOptions = {}): Promise<Result<Order>> {
    const waitMs = options.waitMs ?? 120_000;
    const minInterval = options.intervalMs ?? 1000;
    const share = Math.min(1, Math.max(0.01, options.rateShare ?? 0.5));
    const deadline = Date.now() + waitMs;
    for (;;) {
      const order = await this.orderStatus(refId, options);
      if (FINAL.has(order.status)) return order;
      const next = Math.max(minInterval, pollGap(order.$response.rateLimit, share));
      if (Date.now() + next > deadline) throw new TopupTransportError('TIMEOUT', `order ${refId} still ${order.status} after ${waitMs} ms`);
      await sleep(next, options.signal);
    }
  }

  /** Every order of GET /orders matching `query` (newest first), reading page after page. */
  allOrders(query: Omit<OrdersQuery, 'page'> & { page?: number } = {}, call?: CallOptions): AsyncGenerator<Result<Order>> {
    return this.iterate((q) => this.orders(q, call), query, (p) => p.orders, (o) => o.order_id);
  }

  /** Every ledger entry of GET /wallet-history matching `query` (newest first). */
  allWalletHistory(query: Omit<WalletQuery, 'page'> & { page?: number } = {}, call?: CallOptions): AsyncGenerator<Result<LedgerEntry>> {
    return this.iterate((q) => this.walletHistory(q, call), query, (p) => p.entries, (e) => e.id);
  }

  /** Every product of GET /products matching `query`. */
  allProducts(query: Omit<ProductsQuery, 'page'> & { page?: number } = {}, call?: CallOptions): AsyncGenerator<Result<Product>> {
    return this.iterate((q) => this.products(q, call), query, (p) => p.products, (p) => p.code);
  }

  /**
   * Pages until `has_more` is false. Lists are newest first, so an item added while paging
   * shifts older ones onto the next page: repeats are skipped by id (nothing is missed).
   * Each item carries its page's `$response`.
   */
  private async *iterate<Q extends { page?: number; limit?: number }, P extends { meta: { has_more: boolean } }, T>(
    fetchPage: (q: Q) => Promise<Result<P>>, query: Q, items: (p: P) => T[], id: (t: T) => string,
  ): AsyncGenerator<Result<T>> {
    const seen = new Set<string>();
    for (let page = query.page ?? 1; ; page++) {
      const p = await fetchPage({ ...query, page, limit: query.limit ?? 100 });
      for (const item of items(p)) {
        const key = id(item);
        if (seen.has(key)) continue;
        seen.add(key);
        yield withResponse(item, p.$response);
      }
      if (!p.meta.has_more || items(p).length === 0) return;
    }
  }

  private async data(method: 'GET' | 'POST', path: string, init: { query?: Record<string, unknown>; body?: unknown }, policy: RetryPolicy, call?: CallOptions): Promise<any> {
    const r = await this.http.send(method, path, { ...init, policy }, call);
    if (r.status === 200 && r.body?.success === true) return withResponse(r.body.data, this.info(r));
    throw this.toError(r);
  }

  private async page(method: 'GET', path: string, init: { query?: object }, call?: CallOptions): Promise<any> {
    const r = await this.http.send(method, path, { query: init.query as Record<string, unknown>, policy: 'safe' }, call);
    if (r.status === 200 && r.body?.success === true) return withResponse({ ...r.body.data, meta: r.body.meta }, this.info(r));
    throw this.toError(r);
  }

  private info(r: RawResponse): ResponseInfo {
    return { status: r.status, requestId: r.requestId, rateLimit: r.rateLimit, attempts: r.attempts, serverDate: r.serverDate, headers: r.headers };
  }

  private toError(r: RawResponse): TopupApiError {
    const retryAfter = r.status === 429 ? parseRetryAfter(r.headers.get('retry-after'), Date.now()) : null;
    const envelope = r.body && r.body.success === false && typeof r.body.error === 'string';
    const code: string = envelope ? r.body.error : `HTTP_${r.status}`;
    const message = envelope ? String(r.body.message ?? '') : `unexpected answer: ${r.text.slice(0, 200)}`;
    // The signed X-Timestamp was too far from the server's clock: say by how much, from its Date header.
    const clockSkewMs = code === 'TIMESTAMP_EXPIRED' && r.serverDate !== null ? r.serverDate - r.signedAt : null;
    const ErrorClass = apiErrorClass(r.status, code);
    return new ErrorClass(code, message, r.status, r.requestId, retryAfter, { rateLimit: r.rateLimit, clockSkewMs });
  }

  /** The existing order for a ref_id this call sent, after checking it is the same order. */
  private recovered(order: OrderRequest, existing: Result<Order>, duplicate?: TopupApiError): Result<PlacedOrder> {
    const zone = (z: string | null | undefined) => (z == null || z.trim() === '' ? null : z);
    const same = existing.product_code === order.product_code && existing.target_id === order.target && zone(existing.zone_id) === zone(order.zone);
    // Another order under this ref_id (an earlier, different use of it): not ours to return.
    if (!same) throw duplicate ?? new TopupConflictError('DUPLICATE_REF_ID', `ref_id ${order.ref_id} belongs to a different order`, 409, null);
    return withResponse({
      order_id: existing.order_id, order_code: existing.order_code, ref_id: existing.ref_id, product_name: existing.product_name,
      price: existing.price, status: existing.status, message: 'existing order for this ref_id (an earlier attempt created it)', recovered: true,
    }, existing.$response);
  }
}
