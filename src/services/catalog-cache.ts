import type { CacheVersions, VersionWatch } from '../store/cache-versions.js';
import type { CatalogCategory, CatalogProduct, CatalogRepo } from '../store/catalog-repo.js';
import type { Tier } from '../store/resellers-repo.js';

/** Who is looking: the catalog depends on the reseller (its catalogs) and its tier (prices). */
export interface CatalogViewer {
  resellerId: string;
  tier: Tier;
  /** Versions read at the start of the request; read afresh when absent. */
  versions?: CacheVersions;
}

interface View {
  products: CatalogProduct[];
  byCode: Map<string, CatalogProduct>;
}

/** Bounds each map; past it the map starts over. */
const MAX_ENTRIES = 10_000;
/** Rendered pages are ~15 KB each (50 products): a tighter bound keeps the cache ~15 MB. */
const MAX_RENDERED = 1_000;

/**
 * The catalog as each (reseller, tier) sees it, and the supplier gate per product, held in
 * process memory. The products query (joins, min price across catalogs, a per-row
 * route/health/availability subquery) and its count were nearly all of GET /products and
 * a large part of POST /order.
 *
 * Correctness: entries belong to one 'catalog' cache version. Triggers (migration 006) bump
 * it in the same transaction as any change to products, categories, prices, catalogs and
 * their assignment, suppliers, routes (enabled, availability), supplier health (failure
 * count) and system_state; each request reads the current version before it looks here
 * (Authenticator, VersionWatch), so a price, status or assignment change is visible to the
 * next request in every process. Tier changes bump 'auth', giving the principal its new tier.
 */
export class CatalogCache {
  private version = -1;
  private views = new Map<string, Promise<View>>();
  private categories = new Map<string, Promise<CatalogCategory[]>>();
  private gate = new Map<string, Promise<boolean>>();
  private pages = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly repo: CatalogRepo,
    private readonly watch: VersionWatch,
  ) {}

  /**
   * The map to use for this request's version, or null to bypass the cache (a request
   * that read an older version than the cache holds must not be served newer data it
   * could not have seen, nor fill the cache with older data).
   */
  private async maps(v: CacheVersions | undefined) {
    const at = (v ?? (await this.watch.current())).catalog;
    if (at > this.version) {
      this.version = at;
      this.views = new Map();
      this.categories = new Map();
      this.gate = new Map();
      this.pages = new Map();
    }
    return at === this.version ? this : null;
  }

  private static memo<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>, max = MAX_ENTRIES): Promise<T> {
    let p = map.get(key);
    if (!p) {
      if (map.size >= max) map.clear();
      p = load();
      map.set(key, p);
      // A failed load is not remembered.
      p.catch(() => {
        if (map.get(key) === p) map.delete(key);
      });
    }
    return p;
  }

  private async view(who: CatalogViewer): Promise<View> {
    const load = async () => {
      const products = await this.repo.listAllProducts(who.resellerId, who.tier);
      return { products, byCode: new Map(products.map((p) => [p.code, p])) };
    };
    const m = await this.maps(who.versions);
    return m ? CatalogCache.memo(m.views, `${who.resellerId}\u0000${who.tier}`, load) : load();
  }

  async listProducts(who: CatalogViewer, opts: { categorySlug: string | null; search?: string | null; limit: number; offset: number }) {
    const { products } = await this.view(who);
    let matching = opts.categorySlug === null ? products : products.filter((p) => p.categorySlug === opts.categorySlug);
    if (opts.search) {
      const needle = opts.search.toLowerCase();
      matching = matching.filter((p) => p.code.toLowerCase().includes(needle) || p.name.toLowerCase().includes(needle));
    }
    return { products: matching.slice(opts.offset, opts.offset + opts.limit), total: matching.length };
  }

  async findProduct(who: CatalogViewer, code: string): Promise<CatalogProduct | null> {
    return (await this.view(who)).byCode.get(code) ?? null;
  }

  async listCategories(who: CatalogViewer): Promise<CatalogCategory[]> {
    const load = () => this.repo.listCategories(who.resellerId, who.tier);
    const m = await this.maps(who.versions);
    return m ? CatalogCache.memo(m.categories, `${who.resellerId}\u0000${who.tier}`, load) : load();
  }

  /**
   * A rendering of catalog data (e.g. the serialized bytes of a GET /products page) that
   * depends only on what this viewer's catalog view holds and on `key` (the normalized
   * query): kept under the same version as the view, so it is dropped with it. Serializing
   * 50 products was most of a cached GET /products; bytes rather than text, so that
   * sending them encodes nothing either.
   */
  async rendered(who: CatalogViewer, key: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const m = await this.maps(who.versions);
    return m ? CatalogCache.memo(m.pages, `${who.resellerId}\u0000${who.tier}\u0000${key}`, render, MAX_RENDERED) : render();
  }

  /** The supplier gate's question (CatalogRepo.hasAcceptingRoute), cached per product. */
  async hasAcceptingRoute(productCode: string, versions?: CacheVersions): Promise<boolean> {
    const load = () => this.repo.hasAcceptingRoute(productCode);
    const m = await this.maps(versions);
    return m ? CatalogCache.memo(m.gate, productCode, load) : load();
  }
}
