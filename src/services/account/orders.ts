import { assertWithinSearchCap, parseDateRange, parsePage, parseStatusFilter, SEARCH_MATCH_CAP, type Page } from '../../domain/list-query.js';
import type { OrderRecord } from '../../domain/order.js';
import { assertNoControlChars } from '../../domain/order-request.js';
import { AppError } from '../../errors.js';
import type { DashboardReadsRepo, OrderSearch } from '../../store/dashboard-reads-repo.js';
import type { LedgerEntry } from '../../store/ledger-repo.js';
import type { ServiceCore } from '../core.js';
import { parseLedgerTypes, ResellerQueries, type Paged } from '../reseller-queries.js';
import type { AccountPrincipal } from '../sessions.js';

type Query = Record<string, unknown>;

/** Rows of one CSV export at most; past it the export says so and the user narrows the filter. */
export const EXPORT_MAX_ROWS = 10_000;

/**
 * The reseller's orders and wallet in the dashboard: the API v1 reads (same filters, same
 * errors) plus lookup by order id, product and ref_id search, and exports. Another
 * reseller's order answers NOT_FOUND, exactly like an id that does not exist.
 */
export class AccountOrders {
  private readonly queries: ResellerQueries;

  constructor(
    private readonly core: Pick<ServiceCore, 'repos' | 'clock' | 'resendCallback' | 'queries'>,
    private readonly reads: DashboardReadsRepo,
  ) {
    this.queries = core.queries;
  }

  /**
   * API v1's list (exact totals at any depth), or with product_code / ref_id (prefix) the
   * dashboard's search: counted and paged through its first SEARCH_MATCH_CAP matches,
   * `capped` when more matched (as the operator's search).
   */
  async list(who: AccountPrincipal, q: Query): Promise<Paged<OrderRecord> & { capped: boolean }> {
    const search = this.search(who, q);
    if (search.productCode === null && search.refPrefix === null) return { ...(await this.queries.listOrders(who, q)), capped: false };
    const page = parsePage(q);
    assertWithinSearchCap(page, 'status, dates, product_code, ref_id');
    const r = await this.reads.searchOrders(search, page, SEARCH_MATCH_CAP);
    return { items: r.orders, total: r.total, page, capped: r.capped };
  }

  /** The filtered list for CSV, newest first, at most EXPORT_MAX_ROWS. */
  exportOrders(who: AccountPrincipal, q: Query) {
    return this.reads.exportOrders(this.search(who, q), EXPORT_MAX_ROWS);
  }

  private search(who: AccountPrincipal, q: Query): OrderSearch {
    return {
      resellerId: who.resellerId,
      statuses: parseStatusFilter(q.status),
      ...parseDateRange(q, this.core.clock.now()),
      productCode: textFilter(q.product_code, 'product_code'),
      refPrefix: textFilter(q.ref_id, 'ref_id'),
    };
  }

  walletHistory(who: AccountPrincipal, q: Query) {
    return this.queries.walletHistory(who, q);
  }

  /** The filtered ledger for CSV, newest first, at most EXPORT_MAX_ROWS (pages of the API v1 read). */
  async exportWallet(who: AccountPrincipal, q: Query): Promise<{ entries: LedgerEntry[]; truncated: boolean }> {
    parseLedgerTypes(q.type);
    parseDateRange(q, this.core.clock.now());
    const entries: LedgerEntry[] = [];
    const limit = 100;
    for (let page = 1; entries.length < EXPORT_MAX_ROWS; page++) {
      const r = await this.queries.walletHistory(who, { ...q, page: String(page), limit: String(limit) });
      entries.push(...r.items);
      if (r.items.length < limit) return { entries, truncated: false };
      if (entries.length >= EXPORT_MAX_ROWS) return { entries: entries.slice(0, EXPORT_MAX_ROWS), truncated: r.total > EXPORT_MAX_ROWS };
    }
    return { entries, truncated: true };
  }

  async get(who: AccountPrincipal, orderId: string) {
    const order = await this.core.repos.orders.findById(orderId);
    if (!order || order.resellerId !== who.resellerId) throw new AppError('NOT_FOUND', `order not found: no order with id "${orderId}"`);
    const [deliveries, ledger] = await Promise.all([this.core.repos.callbacks.log(order.id), this.core.repos.ledger.forOrder(order.id)]);
    return { order, deliveries, ledger };
  }

  /** Success and failed orders only (VALIDATION_ERROR otherwise, as in API v1). */
  async resendCallback(who: AccountPrincipal, orderId: string, requestId?: string) {
    const { round } = await this.core.resendCallback.execute(orderId, { resellerId: who.resellerId, requestId });
    const order = (await this.core.repos.orders.findById(orderId))!;
    return { order, round };
  }
}

export type { Page };

/** An optional text filter: absent or empty is no filter; at most 100 characters, no control characters. */
function textFilter(raw: unknown, name: string): string | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') throw new AppError('VALIDATION_ERROR', `${name} must be a string`);
  if (raw.length > 100) throw new AppError('VALIDATION_ERROR', `${name} must be at most 100 characters (got ${raw.length})`);
  assertNoControlChars(name, raw);
  return raw;
}
