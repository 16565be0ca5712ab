import { AppError } from '../../errors.js';
import type { CatalogViewer } from '../catalog-cache.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';

type Query = Record<string, unknown>;

/** Products in one export at most (a catalog is hundreds; this only bounds the answer). */
export const PRICE_LIST_EXPORT_MAX = 10_000;

/**
 * The reseller's price list and categories in the dashboard: API v1's reads (the catalog
 * cache, prices for the account's tier), for whoever the session belongs to.
 */
export class PriceList {
  constructor(private readonly core: Pick<ServiceCore, 'repos' | 'queries'>) {}

  /** The catalog viewer of a session: the account's tier is read fresh (the operator may change it). */
  private async viewer(who: AccountPrincipal): Promise<CatalogViewer> {
    const r = await this.core.repos.resellers.get(who.resellerId);
    if (!r) throw new AppError('UNAUTHENTICATED', 'this account no longer exists');
    return { resellerId: r.id, tier: r.tier };
  }

  async products(who: AccountPrincipal, q: Query) {
    return this.core.queries.listProducts(await this.viewer(who), q);
  }

  async exportProducts(who: AccountPrincipal, q: Query) {
    const r = await this.core.queries.listProducts(await this.viewer(who), { ...q, page: '1', limit: '100' });
    if (r.total <= r.items.length) return r.items;
    // More than a page: read the rest from the same cached view.
    const all = [...r.items];
    for (let page = 2; all.length < Math.min(r.total, PRICE_LIST_EXPORT_MAX); page++) {
      all.push(...(await this.core.queries.listProducts(await this.viewer(who), { ...q, page: String(page), limit: '100' })).items);
    }
    return all.slice(0, PRICE_LIST_EXPORT_MAX);
  }

  async categories(who: AccountPrincipal) {
    return this.core.queries.listCategories(await this.viewer(who));
  }
}
