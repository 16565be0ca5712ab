import { TopupApiError, TopupTransportError } from './errors.js';
import { Transport, parseRetryAfter, type CallOptions, type RawResponse, type RetryPolicy, type TransportOptions } from './transport.js';
import type {
  Balance, CallbackLog, CallbackResent, Category, Order, OrderCreated, OrderRequest, OrdersQuery, Page, Product,
  ProductsQuery, ValidationRequest, ValidationResult, WalletQuery, LedgerEntry, OrderStatus,
} from './types.js';

export type ClientOptions = TransportOptions;

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
  /** Between two polls (default 1 s). */
  intervalMs?: number;
  /** Gives up with a TopupTransportError TIMEOUT after this long (default 120 s). */
  waitMs?: number;
}

const FINAL: ReadonlySet<string> = new Set(['success', 'failed', 'refunded']);

/**
 * The reseller API v1 client: one typed method per endpoint; every request signed as the
 * spec says. Methods resolve to the response's `data` (plus `meta` for lists) and throw
 * TopupApiError (the service's code, message and request id) or TopupTransportError.
 */
export class TopupClient {
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  /** GET /categories: games with the input form to show your end user. */
  async categories(call?: CallOptions): Promise<{ categories: Category[] }> {
    return this.data('GET', '/categories', {}, 'safe', call);
  }

  /** GET /products: your products and tier prices (one page). */
  async products(query: ProductsQuery = {}, call?: CallOptions): Promise<Page<{ products: Product[] }>> {
    return this.page('GET', '/products', { query }, call);
  }

  /**
   * POST /order, safely retried: a network error, timeout or 5xx is retried with the same
   * body (same ref_id), and a DUPLICATE_REF_ID after such a retry resolves to the order the
   * earlier attempt created (GET /order-status), so one call never orders twice or loses an
   * order. A DUPLICATE_REF_ID on the first attempt is thrown: that ref_id was used before.
   */
  async placeOrder(order: OrderRequest, options: PlaceOrderOptions = {}): Promise<PlacedOrder> {
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
    if (r.status === 200 && r.body?.success === true) return { ...r.body.data, recovered: false };
    const error = this.toError(r);
    if (error.code === 'DUPLICATE_REF_ID' && (r.attempts > 1 || options.resume)) {
      return this.recovered(order, await this.orderStatus(order.ref_id, options), error);
    }
    throw error;
  }

  /** POST /validation: checks a game account before ordering. */
  async validate(body: ValidationRequest, call?: CallOptions): Promise<ValidationResult> {
    return this.data('POST', '/validation', { body }, 'safe', call);
  }

  /** GET /order-status: one order by ref_id. */
  async orderStatus(refId: string, call?: CallOptions): Promise<Order> {
    return this.data('GET', '/order-status', { query: { ref_id: refId } }, 'safe', call);
  }

  /** @deprecated POST /check-status: use orderStatus(). */
  async checkStatus(refId: string, call?: CallOptions): Promise<Order> {
    return this.data('POST', '/check-status', { body: { ref_id: refId } }, 'safe', call);
  }

  /** GET /orders: order history, newest first (one page). */
  async orders(query: OrdersQuery = {}, call?: CallOptions): Promise<Page<{ orders: Order[] }>> {
    return this.page('GET', '/orders', { query }, call);
  }

  /** GET /balance. */
  async balance(call?: CallOptions): Promise<Balance> {
    return this.data('GET', '/balance', {}, 'safe', call);
  }

  /** GET /wallet-history: the wallet ledger, newest first (one page). */
  async walletHistory(query: WalletQuery = {}, call?: CallOptions): Promise<Page<{ entries: LedgerEntry[] }>> {
    return this.page('GET', '/wallet-history', { query }, call);
  }

  /** GET /callbacks: the delivery log of an order's callbacks. */
  async callbackLog(refId: string, call?: CallOptions): Promise<CallbackLog> {
    return this.data('GET', '/callbacks', { query: { ref_id: refId } }, 'safe', call);
  }

  /** POST /callbacks/resend: queues a new round of callback attempts (never retried on a network error: it is not idempotent). */
  async resendCallback(refId: string, call?: CallOptions): Promise<CallbackResent> {
    return this.data('POST', '/callbacks/resend', { body: { ref_id: refId } }, 'none', call);
  }

  /** Polls GET /order-status until the order is final (success, failed or refunded). */
  async waitForFinal(refId: string, options: WaitOptions = {}): Promise<Order> {
    const deadline = Date.now() + (options.waitMs ?? 120_000);
    for (;;) {
      const order = await this.orderStatus(refId, options);
      if (FINAL.has(order.status)) return order;
      if (Date.now() + (options.intervalMs ?? 1000) > deadline) throw new TopupTransportError('TIMEOUT', `order ${refId} still ${order.status} after ${options.waitMs ?? 120_000} ms`);
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 1000));
    }
  }

  private async data(method: 'GET' | 'POST', path: string, init: { query?: Record<string, unknown>; body?: unknown }, policy: RetryPolicy, call?: CallOptions): Promise<any> {
    const r = await this.http.send(method, path, { ...init, policy }, call);
    if (r.status === 200 && r.body?.success === true) return r.body.data;
    throw this.toError(r);
  }

  private async page(method: 'GET', path: string, init: { query?: object }, call?: CallOptions): Promise<any> {
    const r = await this.http.send(method, path, { query: init.query as Record<string, unknown>, policy: 'safe' }, call);
    if (r.status === 200 && r.body?.success === true) return { ...r.body.data, meta: r.body.meta };
    throw this.toError(r);
  }

  private toError(r: RawResponse): TopupApiError {
    const retryAfter = r.status === 429 ? parseRetryAfter(r.headers.get('retry-after'), Date.now()) : null;
    if (r.body && r.body.success === false && typeof r.body.error === 'string') {
      return new TopupApiError(r.body.error, String(r.body.message ?? ''), r.status, r.requestId, retryAfter);
    }
    return new TopupApiError(`HTTP_${r.status}`, `unexpected answer: ${r.text.slice(0, 200)}`, r.status, r.requestId, retryAfter);
  }

  /** The existing order for a ref_id this call sent, after checking it is the same order. */
  private recovered(order: OrderRequest, existing: Order, duplicate?: TopupApiError): PlacedOrder {
    const zone = (z: string | null | undefined) => (z == null || z.trim() === '' ? null : z);
    const same = existing.product_code === order.product_code && existing.target_id === order.target && zone(existing.zone_id) === zone(order.zone);
    // Another order under this ref_id (an earlier, different use of it): not ours to return.
    if (!same) throw duplicate ?? new TopupApiError('DUPLICATE_REF_ID', `ref_id ${order.ref_id} belongs to a different order`, 409, null);
    return {
      order_id: existing.order_id, order_code: existing.order_code, ref_id: existing.ref_id, product_name: existing.product_name,
      price: existing.price, status: existing.status, message: 'existing order for this ref_id (an earlier attempt created it)', recovered: true,
    };
  }
}
