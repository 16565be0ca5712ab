import type { Kysely } from 'kysely';
import type { FormField } from '../domain/category-form.js';
import type { Tier } from './resellers-repo.js';
import type { CategoriesTable, DB, ProductsTable } from './schema.js';

export interface CategoryRow {
  slug: string;
  name: string;
  type: 'game' | 'voucher';
  form: FormField[];
  checkerEnabled: boolean;
  sortOrder: number;
  productCount: number;
}

export interface ProductRow {
  code: string;
  name: string;
  categorySlug: string;
  categoryName: string;
  kind: 'instant' | 'voucher';
  limitGated: boolean;
  enabled: boolean;
  sortOrder: number;
  routeCount: number;
}

export interface PriceRow {
  productCode: string;
  tier: Tier;
  price: number;
}

/**
 * The operator's view of the catalog: every category, product (disabled ones too) and
 * catalog, unlike CatalogRepo which answers what one reseller may buy. Built on a
 * connection or a transaction, so a change and its audit line can commit together.
 */
export class CatalogAdminRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async listCategories(slug?: string): Promise<CategoryRow[]> {
    let q = this.db
      .selectFrom('categories as c')
      .selectAll('c')
      .select((eb) => eb.selectFrom('products as p').whereRef('p.category_slug', '=', 'c.slug').select(eb.fn.countAll<number>().as('n')).as('product_count'));
    if (slug !== undefined) q = q.where('c.slug', '=', slug);
    return (await q.orderBy('c.sort_order').orderBy('c.slug').execute()).map(toCategory);
  }

  async category(slug: string): Promise<CategoryRow | null> {
    return (await this.listCategories(slug))[0] ?? null;
  }

  async insertCategory(c: Omit<CategoryRow, 'productCount'>, now: number) {
    await this.db.insertInto('categories')
      .values({ slug: c.slug, name: c.name, type: c.type, form: JSON.stringify(c.form), checker_enabled: c.checkerEnabled ? 1 : 0, sort_order: c.sortOrder, created_at: now })
      .execute();
  }

  async updateCategory(slug: string, c: Pick<CategoryRow, 'name' | 'form' | 'checkerEnabled' | 'sortOrder'>) {
    const set: Partial<CategoriesTable> = { name: c.name, form: JSON.stringify(c.form), checker_enabled: c.checkerEnabled ? 1 : 0, sort_order: c.sortOrder };
    await this.db.updateTable('categories').set(set).where('slug', '=', slug).execute();
  }

  private products() {
    return this.db
      .selectFrom('products as p')
      .innerJoin('categories as c', 'c.slug', 'p.category_slug')
      .select(['p.code', 'p.name', 'p.category_slug', 'c.name as category_name', 'p.kind', 'p.limit_gated', 'p.enabled', 'p.sort_order'])
      .select((eb) => eb.selectFrom('product_routes as r').whereRef('r.product_code', '=', 'p.code').select(eb.fn.countAll<number>().as('n')).as('route_count'));
  }

  async listProducts(categorySlug?: string): Promise<ProductRow[]> {
    let q = this.products();
    if (categorySlug) q = q.where('p.category_slug', '=', categorySlug);
    return (await q.orderBy('c.sort_order').orderBy('c.slug').orderBy('p.sort_order').orderBy('p.code').execute()).map(toProduct);
  }

  async product(code: string): Promise<ProductRow | null> {
    const row = await this.products().where('p.code', '=', code).executeTakeFirst();
    return row ? toProduct(row) : null;
  }

  async insertProduct(p: Omit<ProductRow, 'categoryName' | 'routeCount'>, now: number) {
    await this.db.insertInto('products')
      .values({ code: p.code, name: p.name, category_slug: p.categorySlug, kind: p.kind, limit_gated: p.limitGated ? 1 : 0, enabled: p.enabled ? 1 : 0, sort_order: p.sortOrder, created_at: now })
      .execute();
  }

  async updateProduct(code: string, p: Pick<ProductRow, 'name' | 'kind' | 'limitGated' | 'enabled' | 'sortOrder'>) {
    const set: Partial<ProductsTable> = { name: p.name, kind: p.kind, limit_gated: p.limitGated ? 1 : 0, enabled: p.enabled ? 1 : 0, sort_order: p.sortOrder };
    await this.db.updateTable('products').set(set).where('code', '=', code).execute();
  }

  private catalogs() {
    return this.db
      .selectFrom('catalogs as k')
      .select(['k.id', 'k.name', 'k.created_at'])
      .select((eb) => eb.selectFrom('catalog_prices as cp').whereRef('cp.catalog_id', '=', 'k.id').select(eb.fn.countAll<number>().as('n')).as('price_count'))
      .select((eb) => eb.selectFrom('reseller_catalogs as rc').whereRef('rc.catalog_id', '=', 'k.id').select(eb.fn.countAll<number>().as('n')).as('reseller_count'));
  }

  async listCatalogs() {
    return (await this.catalogs().orderBy('k.name').execute()).map(toCatalog);
  }

  async catalog(id: string) {
    const row = await this.catalogs().where('k.id', '=', id).executeTakeFirst();
    return row ? toCatalog(row) : null;
  }

  async catalogByName(name: string) {
    const row = await this.catalogs().where('k.name', '=', name).executeTakeFirst();
    return row ? toCatalog(row) : null;
  }

  async insertCatalog(id: string, name: string, now: number) {
    await this.db.insertInto('catalogs').values({ id, name, created_at: now }).execute();
  }

  async prices(catalogId: string): Promise<PriceRow[]> {
    const rows = await this.db.selectFrom('catalog_prices').select(['product_code', 'tier', 'price']).where('catalog_id', '=', catalogId)
      .orderBy('product_code').orderBy('tier').execute();
    return rows.map((r) => ({ productCode: r.product_code, tier: r.tier, price: Number(r.price) }));
  }

  async price(catalogId: string, productCode: string, tier: Tier): Promise<number | null> {
    const row = await this.db.selectFrom('catalog_prices').select('price')
      .where('catalog_id', '=', catalogId).where('product_code', '=', productCode).where('tier', '=', tier).executeTakeFirst();
    return row ? Number(row.price) : null;
  }

  async upsertPrice(catalogId: string, p: PriceRow) {
    await this.db.insertInto('catalog_prices').values({ catalog_id: catalogId, product_code: p.productCode, tier: p.tier, price: p.price })
      .onConflict((oc) => oc.columns(['catalog_id', 'product_code', 'tier']).doUpdateSet({ price: p.price }))
      .execute();
  }

  async deletePrice(catalogId: string, productCode: string, tier: Tier) {
    await this.db.deleteFrom('catalog_prices').where('catalog_id', '=', catalogId).where('product_code', '=', productCode).where('tier', '=', tier).execute();
  }

  async existingProductCodes(codes: readonly string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await this.db.selectFrom('products').select('code').where('code', 'in', [...codes]).execute();
    return new Set(rows.map((r) => r.code));
  }

  async resellerCatalogIds(resellerId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('reseller_catalogs').select('catalog_id').where('reseller_id', '=', resellerId).orderBy('catalog_id').execute();
    return rows.map((r) => r.catalog_id);
  }

  async assign(resellerId: string, catalogId: string) {
    await this.db.insertInto('reseller_catalogs').values({ reseller_id: resellerId, catalog_id: catalogId }).onConflict((oc) => oc.doNothing()).execute();
  }

  async unassign(resellerId: string, catalogId: string) {
    await this.db.deleteFrom('reseller_catalogs').where('reseller_id', '=', resellerId).where('catalog_id', '=', catalogId).execute();
  }

  async resellerByIdOrEmail(idOrEmail: string) {
    return this.db.selectFrom('resellers').select(['id', 'email'])
      .where((eb) => eb.or([eb('id', '=', idOrEmail), eb('email', '=', idOrEmail.trim().toLowerCase())]))
      .executeTakeFirst();
  }
}

function toCategory(r: { slug: string; name: string; type: 'game' | 'voucher'; form: string; checker_enabled: number; sort_order: number; product_count: unknown }): CategoryRow {
  return {
    slug: r.slug, name: r.name, type: r.type, form: JSON.parse(r.form) as FormField[], checkerEnabled: Number(r.checker_enabled) === 1,
    sortOrder: Number(r.sort_order), productCount: Number(r.product_count ?? 0),
  };
}

function toProduct(r: { code: string; name: string; category_slug: string; category_name: string; kind: 'instant' | 'voucher'; limit_gated: number; enabled: number; sort_order: number; route_count: unknown }): ProductRow {
  return {
    code: r.code, name: r.name, categorySlug: r.category_slug, categoryName: r.category_name, kind: r.kind, limitGated: Number(r.limit_gated) === 1,
    enabled: Number(r.enabled) === 1, sortOrder: Number(r.sort_order), routeCount: Number(r.route_count ?? 0),
  };
}

function toCatalog(r: { id: string; name: string; created_at: number; price_count: unknown; reseller_count: unknown }) {
  return { id: r.id, name: r.name, createdAt: Number(r.created_at), priceCount: Number(r.price_count ?? 0), resellerCount: Number(r.reseller_count ?? 0) };
}
