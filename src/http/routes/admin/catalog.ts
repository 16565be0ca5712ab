import { Type } from '@sinclair/typebox';
import type { CategoryRow, ProductRow } from '../../../store/catalog-admin-repo.js';
import type { OperatorServices } from '../../../services/operator/index.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Money, Nullable } from '../../schemas.js';

const strict = { additionalProperties: false } as const;
const Tier = Type.Union([Type.Literal('gold'), Type.Literal('platinum'), Type.Literal('diamond')]);
const CategoryType = Type.Union([Type.Literal('game'), Type.Literal('voucher')]);
const ProductKind = Type.Union([Type.Literal('instant'), Type.Literal('voucher')]);

const FormField = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40, description: 'key of the value in POST /validation fields; lowercase, digits, _' }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
  role: Type.Union([Type.Literal('account_id'), Type.Literal('server'), Type.Literal('other')], { description: 'a game has exactly one account_id field; server fields make up the order zone' }),
  type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('select')]),
  required: Type.Optional(Type.Boolean({ description: 'default true' })),
  placeholder: Type.Optional(Type.String({ maxLength: 100 })),
  options: Type.Optional(Type.Array(Type.Object({ value: Type.String({ minLength: 1, maxLength: 100 }), label: Type.String({ minLength: 1, maxLength: 100 }) }, strict), { maxItems: 500, description: 'select fields only; values unique' })),
}, strict);
const Form = Type.Array(FormField, { maxItems: 20, description: 'in display order; [] for vouchers' });

const Category = Type.Object({
  slug: Type.String(), name: Type.String(), type: CategoryType, form: Form, checker_enabled: Type.Boolean(), sort_order: Type.Integer(),
  product_count: Type.Integer(),
});
const Product = Type.Object({
  code: Type.String(), name: Type.String(), category_slug: Type.String(), category_name: Type.String(), kind: ProductKind,
  limit_gated: Type.Boolean({ description: 'weekly pass and similar: the ID check judges purchase limits' }),
  enabled: Type.Boolean({ description: 'false: hidden from GET /api/v1/products, PRODUCT_NOT_FOUND on POST /order' }),
  sort_order: Type.Integer(), route_count: Type.Integer(),
});
const Catalog = Type.Object({ id: Type.String(), name: Type.String(), created_at: IsoTime(), price_count: Type.Integer(), reseller_count: Type.Integer() });
const Price = Type.Object({ product_code: Type.String(), tier: Tier, price: Money() });
const CatalogWithPrices = Type.Object({ ...Catalog.properties, prices: Type.Array(Price) });

const SortOrder = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'lower first' });
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) }, strict);
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, strict);
const CatalogParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, strict);
const AssignParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 254, description: 'reseller id or email' }), catalogId: Type.String({ minLength: 1, maxLength: 100 }) }, strict);
const PriceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), code: Type.String({ minLength: 1, maxLength: 64 }), tier: Tier }, strict);

const category = (c: CategoryRow) => ({
  slug: c.slug, name: c.name, type: c.type, form: c.form, checker_enabled: c.checkerEnabled, sort_order: c.sortOrder, product_count: c.productCount,
});
const product = (p: ProductRow) => ({
  code: p.code, name: p.name, category_slug: p.categorySlug, category_name: p.categoryName, kind: p.kind, limit_gated: p.limitGated,
  enabled: p.enabled, sort_order: p.sortOrder, route_count: p.routeCount,
});
type CatalogView = { id: string; name: string; createdAt: number; priceCount: number; resellerCount: number };
const catalog = (k: CatalogView) => ({ id: k.id, name: k.name, created_at: new Date(k.createdAt).toISOString(), price_count: k.priceCount, reseller_count: k.resellerCount });
const withPrices = (k: CatalogView & { prices: { productCode: string; tier: string; price: number }[] }) => ({
  ...catalog(k), prices: k.prices.map((p) => ({ product_code: p.productCode, tier: p.tier, price: p.price })),
});

const CACHE_NOTE = 'Takes effect on the next API v1 request; reseller clients may keep showing a cached list for up to 60 s (Cache-Control max-age=60), while POST /order always checks the current state.';

/** /admin/v1 categories, products, catalogs with per-tier prices, and catalog assignment. */
export function catalogRoutes(kit: JsonApiKit<'admin'>, services: OperatorServices) {
  const svc = services.catalog;

  kit.route({
    method: 'GET', url: '/categories', tag: 'Catalog', summary: 'All categories with their order forms',
    response: Type.Object({ categories: Type.Array(Category) }),
    handler: async () => ({ data: { categories: (await svc.listCategories()).map(category) } }),
  });

  kit.route({
    method: 'POST', url: '/categories', tag: 'Catalog', summary: 'Add a category (game with an order form, or voucher)',
    description: 'A game form needs exactly one account_id field, unique field names, and options (unique values) on select fields; a voucher has no form and no checker.',
    body: Type.Object({
      slug: Type.String({ minLength: 1, maxLength: 64, description: 'stable key [a-z0-9-]; never changes' }),
      name: Type.String({ minLength: 1, maxLength: 100 }), type: CategoryType, form: Type.Optional(Form),
      checker_enabled: Type.Optional(Type.Boolean({ description: 'account ID checker (POST /validation, pre-order check); default false' })),
      sort_order: Type.Optional(SortOrder),
    }, strict),
    response: Category, errors: ['CONFLICT'],
    handler: async ({ body, who }) => ({
      data: category(await svc.createCategory({ slug: body.slug, name: body.name, type: body.type, form: body.form, checkerEnabled: body.checker_enabled, sortOrder: body.sort_order }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'PATCH', url: '/categories/:slug', tag: 'Catalog', summary: 'Rename, replace the form, switch the checker or reorder a category (the slug stays)',
    description: CACHE_NOTE,
    params: SlugParams,
    body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), form: Type.Optional(Form), checker_enabled: Type.Optional(Type.Boolean()), sort_order: Type.Optional(SortOrder) }, strict),
    response: Category, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => ({
      data: category(await svc.updateCategory(params.slug, { name: body.name, form: body.form, checkerEnabled: body.checker_enabled, sortOrder: body.sort_order }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'GET', url: '/products', tag: 'Catalog', summary: 'All products, disabled ones too, with their category and number of routes',
    query: Type.Object({ category_slug: Type.Optional(Type.String({ maxLength: 64 })) }, strict),
    response: Type.Object({ products: Type.Array(Product) }),
    handler: async ({ query }) => ({ data: { products: (await svc.listProducts(query.category_slug)).map(product) } }),
  });

  kit.route({
    method: 'POST', url: '/products', tag: 'Catalog', summary: 'Add a product to a category (enabled unless enabled: false)',
    description: 'Resellers see it once a catalog assigned to them prices it for their tier and a route leads to a supplier.',
    body: Type.Object({
      code: Type.String({ minLength: 1, maxLength: 64 }), name: Type.String({ minLength: 1, maxLength: 100 }), category_slug: Type.String({ minLength: 1, maxLength: 64 }),
      kind: Type.Optional(ProductKind), limit_gated: Type.Optional(Type.Boolean()), enabled: Type.Optional(Type.Boolean()), sort_order: Type.Optional(SortOrder),
    }, strict),
    response: Product, errors: ['CONFLICT', 'NOT_FOUND'],
    handler: async ({ body, who }) => ({
      data: product(await svc.createProduct({
        code: body.code, name: body.name, categorySlug: body.category_slug, kind: body.kind, limitGated: body.limit_gated, enabled: body.enabled, sortOrder: body.sort_order,
      }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'PATCH', url: '/products/:code', tag: 'Catalog', summary: 'Rename, enable or disable, change kind, limit gate or order of a product',
    description: `A disabled product answers PRODUCT_NOT_FOUND on POST /api/v1/order at once. ${CACHE_NOTE}`,
    params: CodeParams,
    body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), enabled: Type.Optional(Type.Boolean()), kind: Type.Optional(ProductKind), limit_gated: Type.Optional(Type.Boolean()), sort_order: Type.Optional(SortOrder) }, strict),
    response: Product, errors: ['PRODUCT_NOT_FOUND'],
    handler: async ({ params, body, who }) => ({
      data: product(await svc.updateProduct(params.code, { name: body.name, enabled: body.enabled, kind: body.kind, limitGated: body.limit_gated, sortOrder: body.sort_order }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'GET', url: '/catalogs', tag: 'Catalog', summary: 'All catalogs with their number of prices and resellers',
    response: Type.Object({ catalogs: Type.Array(Catalog) }),
    handler: async () => ({ data: { catalogs: (await svc.listCatalogs()).map(catalog) } }),
  });

  kit.route({
    method: 'POST', url: '/catalogs', tag: 'Catalog', summary: 'Add an (empty) catalog',
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, strict),
    response: Catalog, errors: ['CONFLICT'],
    handler: async ({ body, who }) => ({ data: catalog(await svc.createCatalog(body.name, who.operatorId)) }),
  });

  kit.route({
    method: 'GET', url: '/catalogs/:id', tag: 'Catalog', summary: 'A catalog with its prices (major units) per product and tier',
    params: CatalogParams, response: CatalogWithPrices, errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: withPrices(await svc.viewCatalog(params.id)) }),
  });

  kit.route({
    method: 'PUT', url: '/catalogs/:id/prices', tag: 'Catalog', summary: 'Set or remove prices in bulk (all or nothing)',
    description: `Each line sets the price of a product for a tier in major units (exact: more decimals than the currency has is refused); price null removes it. One bad line changes nothing. ${CACHE_NOTE} A reseller sending the old price gets PRICE_NOT_MATCH, never a surprise charge.`,
    params: CatalogParams,
    body: Type.Object({
      prices: Type.Array(Type.Object({ product_code: Type.String({ minLength: 1, maxLength: 64 }), tier: Tier, price: Nullable(Money('price in major units; null removes it')) }, strict), { minItems: 1, maxItems: 1000 }),
    }, strict),
    response: CatalogWithPrices, errors: ['NOT_FOUND', 'PRODUCT_NOT_FOUND'],
    handler: async ({ params, body, who }) => ({
      data: withPrices(await svc.setPrices(params.id, body.prices.map((p) => ({ productCode: p.product_code, tier: p.tier, price: p.price })), who.operatorId)),
    }),
  });

  kit.route({
    method: 'DELETE', url: '/catalogs/:id/prices/:code/:tier', tag: 'Catalog', summary: "Remove one product's price for one tier",
    params: PriceParams, response: CatalogWithPrices, errors: ['NOT_FOUND', 'PRODUCT_NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: withPrices(await svc.setPrices(params.id, [{ productCode: params.code, tier: params.tier, price: null }], who.operatorId)) }),
  });

  const Assignment = Type.Object({ reseller_id: Type.String(), catalog_ids: Type.Array(Type.String()) });
  kit.route({
    method: 'POST', url: '/resellers/:id/catalogs/:catalogId', tag: 'Catalog', summary: 'Assign a catalog to a reseller (idempotent)',
    description: 'A reseller sees every product priced for its tier in its catalogs, at the lowest of those prices.',
    params: AssignParams, response: Assignment, errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => {
      const r = await svc.assign(params.catalogId, params.id, who.operatorId);
      return { data: { reseller_id: r.resellerId, catalog_ids: r.catalogIds } };
    },
  });

  kit.route({
    method: 'DELETE', url: '/resellers/:id/catalogs/:catalogId', tag: 'Catalog', summary: 'Unassign a catalog from a reseller (idempotent)',
    params: AssignParams, response: Assignment, errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => {
      const r = await svc.unassign(params.catalogId, params.id, who.operatorId);
      return { data: { reseller_id: r.resellerId, catalog_ids: r.catalogIds } };
    },
  });
}
