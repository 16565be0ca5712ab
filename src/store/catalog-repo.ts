import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { Tier } from './resellers-repo.js';
import { DEFAULT_BREAKER } from '../domain/supplier-breaker.js';
import { breakerAdmits } from './supplier-breaker-repo.js';

/** A supplier failing this many times in a row opens its breaker (by default): the gate closes. */
export const UNREACHABLE_AFTER = DEFAULT_BREAKER.failuresToOpen;
/** system_state key present while the last availability refresh could not run. */
export const AVAILABILITY_FAILED_KEY = 'availability.check_failed';

/** The form shape is a domain rule (src/domain/category-form.ts); the store keeps it as JSON. */
export type { FormField } from '../domain/category-form.js';
import type { FormField } from '../domain/category-form.js';

export interface CatalogProduct {
  code: string;
  name: string;
  categoryName: string;
  categorySlug: string;
  categoryType: 'game' | 'voucher';
  kind: 'instant' | 'voucher';
  limitGated: boolean;
  checkerEnabled: boolean;
  form: FormField[];
  price: number;
  /** Some enabled route leads to an enabled supplier that is not in maintenance. */
  routable: boolean;
}

export interface CatalogCategory {
  slug: string;
  name: string;
  type: 'game' | 'voucher';
  checkerEnabled: boolean;
  form: FormField[];
}

export class CatalogRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Products visible to one reseller: enabled, priced for its tier in at least one catalog
   * assigned to it; the price is the lowest among those catalogs.
   */
  private visible(resellerId: string, tier: Tier) {
    return this.db
      .selectFrom('products as p')
      .innerJoin('categories as c', 'c.slug', 'p.category_slug')
      .innerJoin('catalog_prices as cp', (j) => j.onRef('cp.product_code', '=', 'p.code').on('cp.tier', '=', tier))
      .innerJoin('reseller_catalogs as rc', (j) => j.onRef('rc.catalog_id', '=', 'cp.catalog_id').on('rc.reseller_id', '=', resellerId))
      .where('p.enabled', '=', 1);
  }

  /**
   * Live status: some route to a supplier accepting orders that is not known to be out of
   * stock. When the last availability refresh could not run, availability is ignored
   * (every product with an accepting route is active), as the spec requires.
   */
  private routableExpr() {
    return sql<number>`(case when exists (
      select 1 from product_routes r join suppliers s on s.id = r.supplier_id
      left join supplier_health h on h.supplier_id = s.id
      where r.product_code = p.code and r.enabled = 1 and s.enabled = 1 and s.status = 'active'
        and ${breakerAdmits}
        and (r.available is null or r.available = 1
             or exists (select 1 from system_state st where st.key = ${AVAILABILITY_FAILED_KEY}))
    ) then 1 else 0 end)`;
  }

  /** The supplier gate: an enabled route to a supplier that is accepting orders (stock aside). */
  async hasAcceptingRoute(productCode: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('product_routes as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .leftJoin('supplier_health as h', 'h.supplier_id', 's.id')
      .select('r.id')
      .where('r.product_code', '=', productCode)
      .where('r.enabled', '=', 1)
      .where('s.enabled', '=', 1)
      .where('s.status', '=', 'active')
      .where(breakerAdmits)
      .executeTakeFirst();
    return row !== undefined;
  }

  private selectProduct(q: ReturnType<CatalogRepo['visible']>) {
    return q
      .select((eb) => [
        'p.code',
        'p.name',
        'p.kind',
        'p.limit_gated',
        'c.name as category_name',
        'c.slug as category_slug',
        'c.type as category_type',
        'c.checker_enabled',
        'c.form',
        eb.fn.min('cp.price').as('price'),
        this.routableExpr().as('routable'),
      ])
      .groupBy(['p.code', 'p.name', 'p.kind', 'p.limit_gated', 'c.name', 'c.slug', 'c.type', 'c.checker_enabled', 'c.form', 'c.sort_order', 'p.sort_order']);
  }

  async listProducts(resellerId: string, tier: Tier, opts: { categorySlug: string | null; limit: number; offset: number }) {
    let base = this.visible(resellerId, tier);
    if (opts.categorySlug !== null) base = base.where('p.category_slug', '=', opts.categorySlug);
    const [rows, count] = await Promise.all([
      this.selectProduct(base)
        .orderBy('c.sort_order')
        .orderBy('c.slug')
        .orderBy('p.sort_order')
        .orderBy('p.code')
        .limit(opts.limit)
        .offset(opts.offset)
        .execute(),
      base.select(sql<number>`count(distinct p.code)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { products: rows.map(toProduct), total: Number(count.n) };
  }

  /** Every product visible to the reseller, in display order (what the catalog cache holds). */
  async listAllProducts(resellerId: string, tier: Tier): Promise<CatalogProduct[]> {
    const rows = await this.selectProduct(this.visible(resellerId, tier)).orderBy('c.sort_order').orderBy('c.slug').orderBy('p.sort_order').orderBy('p.code').execute();
    return rows.map(toProduct);
  }

  async findProduct(resellerId: string, tier: Tier, code: string): Promise<CatalogProduct | null> {
    const row = await this.selectProduct(this.visible(resellerId, tier).where('p.code', '=', code)).executeTakeFirst();
    return row ? toProduct(row) : null;
  }

  /** Categories with at least one product visible to the reseller, in display order. */
  async listCategories(resellerId: string, tier: Tier): Promise<CatalogCategory[]> {
    // The outer alias must differ from visible()'s own `c`: with the same name the subquery's
    // condition bound to its inner join and held for every category (issue 28, item 10).
    const rows = await this.db
      .selectFrom('categories as listed')
      .selectAll('listed')
      .where((eb) => eb.exists(this.visible(resellerId, tier).where('p.category_slug', '=', sql.ref<string>('listed.slug')).select('p.code')))
      .orderBy('listed.sort_order')
      .orderBy('listed.slug')
      .execute();
    return rows.map((c) => ({ slug: c.slug, name: c.name, type: c.type, checkerEnabled: c.checker_enabled === 1, form: JSON.parse(c.form) as FormField[] }));
  }
}

function toProduct(r: {
  code: string; name: string; kind: 'instant' | 'voucher'; limit_gated: number; category_name: string; category_slug: string;
  category_type: 'game' | 'voucher'; checker_enabled: number; form: string; price: number | string | bigint; routable: number | string;
}): CatalogProduct {
  return {
    code: r.code,
    name: r.name,
    categoryName: r.category_name,
    categorySlug: r.category_slug,
    categoryType: r.category_type,
    kind: r.kind,
    limitGated: r.limit_gated === 1,
    checkerEnabled: r.checker_enabled === 1,
    form: JSON.parse(r.form) as FormField[],
    price: Number(r.price),
    routable: Number(r.routable) === 1,
  };
}
