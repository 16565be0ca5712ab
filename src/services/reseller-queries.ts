import { parseDateRange, parsePage, parseStatusFilter, type Page } from '../domain/list-query.js';
import type { OrderRecord } from '../domain/order.js';
import { assertNoControlChars } from '../domain/order-request.js';
import { AppError } from '../errors.js';
import type { CatalogProduct } from '../store/catalog-repo.js';
import type { CatalogCache, CatalogViewer } from './catalog-cache.js';
import type { LedgerEntry, LedgerRepo } from '../store/ledger-repo.js';
import type { OrderHistoryRepo } from '../store/order-history-repo.js';
import type { OrdersRepo } from '../store/orders-repo.js';
import type { LedgerEntryType } from '../store/schema.js';
import { PUBLIC_LEDGER_TYPES, storeLedgerTypes, type PublicLedgerType } from '../domain/ledger-types.js';
import type { ResellerPrincipal } from './authenticate.js';
import type { Clock } from './ports.js';

type Query = Record<string, unknown>;
/** The order and wallet reads need only who is asking (the dashboard has no API principal). */
type Owner = Pick<ResellerPrincipal, 'resellerId'>;
export interface Paged<T> { items: T[]; total: number; page: Page }

const MAX_SLUG = 100;

/** The read side of the reseller API: catalog, orders and wallet, always scoped to the caller. */
export class ResellerQueries {
  constructor(private readonly deps: { catalog: CatalogCache; orders: OrdersRepo; history: OrderHistoryRepo; ledger: LedgerRepo; clock: Clock }) {}

  listCategories(who: CatalogViewer) {
    return this.deps.catalog.listCategories(who);
  }

  /** `q` (the dashboard's search; API v1's schema does not take it): code or name contains it, any case. */
  async listProducts(who: CatalogViewer, q: Query): Promise<Paged<CatalogProduct>> {
    const page = parsePage(q);
    const slug = typeof q.category_slug === 'string' && q.category_slug !== '' ? q.category_slug : null;
    if (slug !== null && slug.length > MAX_SLUG) throw new AppError('VALIDATION_ERROR', `category_slug must be at most ${MAX_SLUG} characters`);
    if (slug !== null) assertNoControlChars('category_slug', slug);
    const search = typeof q.q === 'string' && q.q.trim() !== '' ? q.q.trim() : null;
    if (search !== null && search.length > MAX_SLUG) throw new AppError('VALIDATION_ERROR', `q must be at most ${MAX_SLUG} characters`);
    if (search !== null) assertNoControlChars('q', search);
    const { products, total } = await this.deps.catalog.listProducts(who, { categorySlug: slug, search, limit: page.limit, offset: page.offset });
    return { items: products, total, page };
  }

  /**
   * listProducts, rendered by `render` (the HTTP layer's presenter and serializer) and
   * kept per (reseller, tier, normalized query) under the catalog version: the same page
   * is the same bytes until the catalog changes. Validation errors are thrown first, as
   * by listProducts.
   */
  async renderedProducts(who: ResellerPrincipal, q: Query, render: (page: Paged<CatalogProduct>) => Buffer): Promise<Buffer> {
    const page = parsePage(q);
    const slug = typeof q.category_slug === 'string' && q.category_slug !== '' ? q.category_slug : null;
    if (slug !== null && slug.length > MAX_SLUG) throw new AppError('VALIDATION_ERROR', `category_slug must be at most ${MAX_SLUG} characters`);
    if (slug !== null) assertNoControlChars('category_slug', slug);
    return this.deps.catalog.rendered(who, `products\u0000${slug ?? ''}\u0000${page.limit}\u0000${page.offset}`, async () => render(await this.listProducts(who, q)));
  }

  async orderStatus(who: ResellerPrincipal, refId: unknown): Promise<OrderRecord> {
    if (typeof refId !== 'string' || refId === '') throw new AppError('REF_ID_REQUIRED', 'ref_id query parameter is required');
    if (refId.length > 100) throw new AppError('VALIDATION_ERROR', `ref_id must be at most 100 characters (got ${refId.length})`);
    assertNoControlChars('ref_id', refId);
    const order = await this.deps.orders.findByRef(who.resellerId, refId);
    if (!order) throw new AppError('PRODUCT_NOT_FOUND', `order not found: no order with ref_id "${refId}"`);
    return order;
  }

  async listOrders(who: Owner, q: Query): Promise<Paged<OrderRecord>> {
    const page = parsePage(q);
    const statuses = parseStatusFilter(q.status);
    const range = parseDateRange(q, this.deps.clock.now());
    const { orders, total } = await this.deps.history.list({ resellerId: who.resellerId, statuses, ...range, limit: page.limit, offset: page.offset });
    return { items: orders, total, page };
  }

  async balance(who: Owner): Promise<number> {
    return (await this.deps.ledger.balance(who.resellerId)) ?? 0;
  }

  async walletHistory(who: Owner, q: Query): Promise<Paged<LedgerEntry>> {
    const page = parsePage(q);
    const range = parseDateRange(q, this.deps.clock.now());
    const types = parseLedgerTypes(q.type);
    const { entries, total } = await this.deps.ledger.list({ resellerId: who.resellerId, types, ...range, limit: page.limit, offset: page.offset });
    return { items: entries, total, page };
  }
}

/**
 * The wallet-history type filter: one published ledger entry type or a comma-separated list
 * of them, as the store types they select.
 */
export function parseLedgerTypes(raw: unknown): LedgerEntryType[] | null {
  if (typeof raw !== 'string' || raw === '') return null;
  const parts = raw.split(',').map((t) => t.trim());
  if (!parts.every((t) => (PUBLIC_LEDGER_TYPES as readonly string[]).includes(t))) {
    throw new AppError('VALIDATION_ERROR', `type must be one of ${PUBLIC_LEDGER_TYPES.join(', ')} (or a comma-separated list of them)`);
  }
  return storeLedgerTypes(parts as PublicLedgerType[]);
}
