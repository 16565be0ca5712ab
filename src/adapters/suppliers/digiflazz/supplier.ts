import { customerNumber } from '../../../domain/route-options.js';
import type { Clock } from '../../../services/ports.js';
import type { PriceListItem, SubmitRequest, Supplier, SupplierAnswer, UpstreamSuccess } from '../types.js';
import { interpret, type Outcome } from './interpret.js';
import { describeRc } from './response-codes.js';
import { buyable, readPriceList } from './price-list.js';
import { digiflazzSign, post, type Answer, type DigiflazzCredentials, type DigiflazzProduct } from './protocol.js';

/** What the adapter reports about our deposit (supplier balance flag, issue 27 item 5). */
export interface DepositListener {
  /** The deposit as read, minor units of the platform currency. */
  read(balanceMinor: number): Promise<void>;
  /** An order was refused for an insufficient deposit (or none ever made). */
  short(): Promise<void>;
}

export interface DigiflazzSettings {
  /** Minor units per rupiah: 10^CURRENCY_DECIMALS (the platform's currency must be IDR). */
  minorPerRupiah: number;
  timeoutMs?: number;
  /** The price list is read at most this often (the supplier rate-limits it: rc 83). */
  priceListTtlMs?: number;
  /** Past this age a cached price list that cannot be refreshed is no longer trusted. */
  priceListMaxAgeMs?: number;
}

/** A success as the port reports it: the sn is a voucher's code, and kept as the supplier's serial for every product. */
const said = (o: { sn: string; message: string | null; price?: number }): UpstreamSuccess => ({
  ...(o.sn ? { voucherCode: o.sn, supplierSerial: o.sn } : {}),
  ...(o.message ? { supplierMessage: o.message } : {}),
  ...(o.price !== undefined ? { charged: o.price } : {}),
});

/** Of the last this many transaction calls, more than half without a readable answer: down. */
const ERROR_WINDOW = 20;
const ERROR_MIN_SAMPLES = 10;

/**
 * The Digiflazz buyer API behind the supplier port. The attempt's reference is the ref_id;
 * asking about an order re-sends the same transaction (the supplier answers the existing one);
 * max_price is the route's expected cost (never above the order's price), so a price rise
 * upstream is refused rather than charged. Every answer is read by interpret() and the rc
 * table (response-codes.ts).
 */
export class DigiflazzSupplier implements Supplier {
  private creds: Promise<DigiflazzCredentials> | null = null;
  private prices: { at: number; list: Map<string, DigiflazzProduct> } | null = null;
  private fetching: Promise<Map<string, DigiflazzProduct>> | null = null;
  private readonly recent: boolean[] = [];

  constructor(
    private readonly loadCredentials: () => Promise<DigiflazzCredentials>,
    private readonly clock: Clock,
    private readonly settings: DigiflazzSettings,
    private readonly deposit?: DepositListener,
  ) {}

  private credentials() {
    this.creds ??= this.loadCredentials().catch((e) => {
      this.creds = null;
      throw e;
    });
    return this.creds;
  }

  private async call(path: string, body: Record<string, unknown>): Promise<Answer> {
    const c = await this.credentials();
    return post(c.baseUrl, path, { username: c.username, ...body }, this.settings.timeoutMs ?? 15_000);
  }

  /** max_price in rupiah: the route's cost, capped by the order's price (never sell below cost). */
  private maxPrice(req: SubmitRequest): number {
    const minor = req.cost !== null && req.cost > 0 ? Math.min(req.cost, req.price) : req.price;
    return Math.floor(minor / this.settings.minorPerRupiah);
  }

  private async transaction(req: SubmitRequest): Promise<Outcome> {
    const c = await this.credentials();
    const maxPrice = this.maxPrice(req);
    const answer = await this.call('/transaction', {
      buyer_sku_code: req.sku, customer_no: customerNumber(req.options, req.target, req.zone), ref_id: req.reference,
      sign: digiflazzSign(c, req.reference), max_price: maxPrice, ...(req.options.testing ? { testing: true } : {}),
    });
    let outcome = interpret(answer, maxPrice);
    // A voucher's code is the serial: a success without one is asked about again, never delivered codeless.
    if (outcome.kind === 'success' && req.kind === 'voucher' && !outcome.sn) outcome = { kind: 'unknown', message: 'success without a voucher code (sn)' };
    this.recent.push(answer.kind === 'answer' && answer.data !== null && outcome.kind !== 'unknown');
    if (this.recent.length > ERROR_WINDOW) this.recent.shift();
    if (outcome.kind === 'refused' && outcome.deposit) await this.deposit?.short();
    return outcome;
  }

  /** Placing and asking are one call: the supplier answers the existing transaction under a known ref_id. */
  async submit(req: SubmitRequest): Promise<SupplierAnswer> {
    return answerOf(await this.transaction(req));
  }

  async status(_reference: string, order: SubmitRequest): Promise<SupplierAnswer> {
    return answerOf(await this.transaction(order));
  }

  /** From the cached price list: both product statuses, stock, and the daily cut-off window. */
  async available(skus: readonly string[]): Promise<Map<string, boolean>> {
    const list = await this.cachedPriceList();
    const now = this.clock.now();
    return new Map(skus.map((sku) => {
      const p = list.get(sku);
      return [sku, p !== undefined && buyable(p, now)];
    }));
  }

  /** The price list, read at most once per TTL and by one request at a time. */
  private async cachedPriceList(): Promise<Map<string, DigiflazzProduct>> {
    const now = this.clock.now();
    if (this.prices && now - this.prices.at < (this.settings.priceListTtlMs ?? 5 * 60_000)) return this.prices.list;
    this.fetching ??= this.fetchPriceList(true).finally(() => (this.fetching = null));
    return this.fetching;
  }

  /** For the price-list sync: read afresh (the supplier's rate limit, rc 83, is an error here). */
  async priceList(): Promise<PriceListItem[]> {
    const list = await this.fetchPriceList(false);
    return [...list.values()].map((p) => ({
      sku: p.buyer_sku_code, name: String(p.product_name ?? p.buyer_sku_code), category: String(p.category ?? ''), brand: String(p.brand ?? ''), cost: Math.round(p.price * this.settings.minorPerRupiah),
      buyable: p.buyer_product_status === true && p.seller_product_status === true && (p.unlimited_stock === true || Number(p.stock) > 0),
      cutOff: p.start_cut_off && p.end_cut_off && p.start_cut_off !== p.end_cut_off ? `${p.start_cut_off}-${p.end_cut_off}` : null,
    }));
  }

  private async fetchPriceList(orCached: boolean): Promise<Map<string, DigiflazzProduct>> {
    const c = await this.credentials();
    const answer = await this.call('/price-list', { cmd: 'prepaid', sign: digiflazzSign(c, 'pricelist') });
    const list = answer.kind === 'answer' ? readPriceList(answer.data) : null;
    const now = this.clock.now();
    if (list) {
      this.prices = { at: now, list };
      return list;
    }
    // Asked too often (rc 83) or unreachable: a recent list still answers.
    if (orCached && this.prices && now - this.prices.at < (this.settings.priceListMaxAgeMs ?? 60 * 60_000)) return this.prices.list;
    const why = answer.kind === 'answer' ? `rc ${answer.data?.rc ?? '?'} ${answer.data?.message ?? ''}`.trim() : answer.message;
    throw new Error(`Digiflazz price list could not be read: ${why}`);
  }

  /**
   * The balance call. Throws, naming the cause, when the deposit cannot be read (the
   * account refused: rc 45, 41, ...; or no answer); down when most recent orders got no
   * readable answer. That window is emptied once it has said so: while the breaker is open
   * no orders are sent to refill it, and a stale window would fail every probe.
   */
  async health(): Promise<'up' | 'down' | 'maintenance'> {
    const c = await this.credentials();
    const answer = await this.call('/cek-saldo', { cmd: 'deposit', sign: digiflazzSign(c, 'depo') });
    if (answer.kind !== 'answer') throw new Error(`the balance call did not answer: ${answer.message}`);
    if (typeof answer.data?.deposit !== 'number') throw new Error(`the balance call was refused: ${describeRc(String(answer.data?.rc ?? ''), answer.data?.message)}`);
    await this.deposit?.read(Math.round(answer.data.deposit * this.settings.minorPerRupiah));
    const failures = this.recent.filter((ok) => !ok).length;
    if (this.recent.length < ERROR_MIN_SAMPLES || failures * 2 <= this.recent.length) return 'up';
    this.recent.length = 0;
    return 'down';
  }
}

/** The port's answer for an outcome: which answers are definite is interpret()'s and the rc table's to say. */
function answerOf(outcome: Outcome): SupplierAnswer {
  switch (outcome.kind) {
    case 'success':
      return { kind: 'success', ...said(outcome) };
    case 'pending':
      return { kind: 'pending' };
    case 'unknown':
      return { kind: 'unknown', message: outcome.message };
    case 'not-found':
      return { kind: 'not-found' };
    case 'refused':
      return { kind: 'refused', code: outcome.code, message: outcome.message };
    case 'next-route':
      return { kind: 'failed', otherRoute: true, code: outcome.code, message: outcome.message };
    case 'failed':
      return { kind: 'failed', otherRoute: false, code: outcome.code, message: outcome.message };
  }
}
