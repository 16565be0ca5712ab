import { Type } from '@sinclair/typebox';
import { toMajor } from '../../../domain/money.js';
import type { ImportInput, ImportPlan } from '../../../services/import-supplier-skus.js';
import type { MarginRuleInput } from '../../../services/operator/margin-rules.js';
import type { MarginRuleRow } from '../../../store/margin-repo.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Money, Nullable } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;
const Tier = Type.Union([Type.Literal('gold'), Type.Literal('platinum'), Type.Literal('diamond')]);
const Scope = Type.Union([Type.Literal('category'), Type.Literal('catalog')]);
const TierMarginIn = Type.Object({
  percent_bp: Type.Integer({ minimum: 0, maximum: 100_000, description: 'percentage of the cost in basis points (500 = 5 %), rounded up to a minor unit' }),
  fixed: Type.Optional(Money('added to the cost, major units (default 0)')),
}, { ...strict, title: 'MarginTierInput' });
const TiersIn = Type.Object({ gold: Type.Optional(TierMarginIn), platinum: Type.Optional(TierMarginIn), diamond: Type.Optional(TierMarginIn) }, { ...strict, title: 'TierMarginsInput', description: 'a tier left out is not priced by the rule' });
const RuleBody = { step: Money('prices are rounded UP to a multiple of this, major units (e.g. 100 or 500)'), tiers: TiersIn };
const TierMargin = Type.Object({ percent_bp: Type.Integer(), fixed: Money() });
const MarginRule = Type.Object({
  id: Type.String(), scope: Scope, scope_id: Type.String({ description: 'category slug or catalog id' }), step: Money(),
  tiers: Type.Object({ gold: Type.Optional(TierMargin), platinum: Type.Optional(TierMargin), diamond: Type.Optional(TierMargin) }),
  created_at: IsoTime(), updated_at: IsoTime(),
});
const TierPrices = Type.Object({ gold: Nullable(Money()), platinum: Nullable(Money()), diamond: Nullable(Money()) }, { title: 'TierPrices' });
const ImportBody = {
  supplier: Type.String({ minLength: 1, maxLength: 100, description: 'supplier id or name' }),
  skus: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 200, description: "SKUs of the supplier's synced price list (POST /suppliers/{id}/sync first)" }),
  category: Type.String({ minLength: 1, maxLength: 64, description: 'slug: new products go here' }),
  catalog: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'catalog id or name whose tier prices are set; without one, products and routes only' }))),
  customer_no: Type.Optional(Nullable(Type.String({
    minLength: 8, maxLength: 64,
    description: "the routes' customer_no format ({target} and {zone}, e.g. \"{target}|{zone}\"), set on every route imported; without one, a game whose form has one server field gets \"{target}{zone}\" (user id followed directly by zone, as Mobile Legends at Digiflazz), a game with several server fields is refused (VALIDATION_ERROR) until one is given, a game without server fields keeps the default \"{target}\"",
  }))),
};
const ImportPlanSchema = Type.Object({
  supplier_id: Type.String(), supplier_name: Type.String(), category: Type.String(), catalog_id: Nullable(Type.String()),
  preview_token: Type.String({ description: 'send it to POST /imports/apply with the same input' }),
  items: Type.Array(Type.Object({
    sku: Type.String(), sku_name: Nullable(Type.String()), cost: Nullable(Money('as of the last sync')), buyable: Nullable(Type.Boolean()),
    action: Type.Union([Type.Literal('create'), Type.Literal('update')]),
    product: Type.Object({ code: Type.String(), name: Type.String(), category_slug: Type.String() }),
    route: Type.Object({ id: Nullable(Type.String()), sku: Type.String(), cost: Nullable(Money('expected cost after the import (max_price)')), cost_before: Nullable(Money()), enabled: Type.Boolean(),
      customer_no: Nullable(Type.String({ description: 'the route\'s customer_no format after the import (null: the default "{target}")' })), customer_no_before: Nullable(Type.String()),
    }),
    rule: Nullable(Type.Object({ id: Type.String(), scope: Scope })),
    prices: TierPrices, prices_before: TierPrices,
    warnings: Type.Array(Type.String(), { description: 'NO_RULE, NO_CATALOG, AT_OR_BELOW_COST, NOT_BUYABLE (inactive or out of stock at the last sync), OTHER_CATEGORY (an existing product elsewhere: it stays there), ROUTE_OUT_OF_SERVICE (its route is disabled, e.g. by a sync; the import leaves it so: enable it with PATCH /routes/{id})' }),
    error: Nullable(Type.String({ description: 'SKU_NOT_FOUND, PRODUCT_CODE_TAKEN, PRICE_OUT_OF_RANGE: apply refuses until the SKU is left out' })),
  })),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** /admin/v1 margin rules and importing a supplier's SKUs as products. */
export function pricingRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { marginRules, imports, currency } = deps.services;
  const major = (n: number) => toMajor(n, currency.decimals);
  const majorOrNull = (n: number | null) => (n === null ? null : major(n));
  const rule = (r: MarginRuleRow) => {
    const s = marginRules.snapshot(r);
    return { id: r.id, scope: s.scope, scope_id: s.scope_id, step: s.step, tiers: s.tiers, created_at: iso(r.createdAt), updated_at: iso(r.updatedAt) };
  };
  const ruleInput = (b: { step: number; tiers: Record<string, { percent_bp: number; fixed?: number } | undefined> }): MarginRuleInput => ({
    step: b.step,
    tiers: Object.fromEntries(Object.entries(b.tiers).filter(([, m]) => m !== undefined).map(([t, m]) => [t, { percentBp: m!.percent_bp, fixed: m!.fixed }])),
  });
  const prices = (p: ImportPlan['lines'][number]['prices']) => ({ gold: majorOrNull(p.gold), platinum: majorOrNull(p.platinum), diamond: majorOrNull(p.diamond) });
  const plan = (p: ImportPlan) => ({
    supplier_id: p.supplierId, supplier_name: p.supplierName, category: p.category, catalog_id: p.catalogId, preview_token: p.previewToken,
    items: p.lines.map((l) => ({
      sku: l.sku, sku_name: l.skuName, cost: majorOrNull(l.cost), buyable: l.buyable, action: l.action,
      product: { code: l.product.code, name: l.product.name, category_slug: l.product.categorySlug },
      route: { id: l.route.id, sku: l.route.sku, cost: majorOrNull(l.route.cost), cost_before: majorOrNull(l.route.costBefore), enabled: l.route.enabled,
        customer_no: l.route.customerNo, customer_no_before: l.route.customerNoBefore,
      },
      rule: l.rule, prices: prices(l.prices), prices_before: prices(l.pricesBefore), warnings: l.warnings, error: l.error,
    })),
  });
  const importInput = (b: { supplier: string; skus: string[]; category: string; catalog?: string | null; customer_no?: string | null }): ImportInput =>
    ({ supplier: b.supplier, skus: b.skus, category: b.category, catalog: b.catalog ?? null, customerNo: b.customer_no ?? null });

  kit.route({
    method: 'GET', url: '/margin-rules', tag: 'Pricing', summary: 'Margin rules, per category and per catalog',
    description: 'A tier price from a supplier cost: cost + percent_bp of it (rounded up) + fixed, rounded UP to step. A catalog\'s rule wins over the category rule of a product.',
    response: Type.Object({ rules: Type.Array(MarginRule) }),
    handler: async () => ({ data: { rules: (await marginRules.list()).map(rule) } }),
  });

  kit.route({
    method: 'POST', url: '/margin-rules', tag: 'Pricing', summary: 'Add the margin rule of a category or catalog (one each)',
    body: Type.Object({ scope: Scope, scope_id: Type.String({ minLength: 1, maxLength: 100, description: 'category slug, or catalog id or name' }), ...RuleBody }, strict),
    response: MarginRule, errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ body, who }) => ({ data: rule(await marginRules.create(body.scope, body.scope_id, ruleInput(body), who.operatorId)) }),
  });

  kit.route({
    method: 'PUT', url: '/margin-rules/:id', tag: 'Pricing', summary: "Replace a rule's step and tier margins (its scope stays)",
    description: 'Prices already set are not changed: a rule prices imports and the reprice below-cost policy.',
    params: IdParams, body: Type.Object(RuleBody, strict), response: MarginRule, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => ({ data: rule(await marginRules.update(params.id, ruleInput(body), who.operatorId)) }),
  });

  kit.route({
    method: 'DELETE', url: '/margin-rules/:id', tag: 'Pricing', summary: 'Delete a margin rule',
    params: IdParams, response: Type.Object({ deleted: Type.Literal(true) }), errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => {
      await marginRules.delete(params.id, who.operatorId);
      return { data: { deleted: true as const } };
    },
  });

  kit.route({
    method: 'POST', url: '/imports/preview', tag: 'Pricing', summary: "What importing supplier SKUs as products would do (changes nothing)",
    description: 'Per SKU: the product created (code from the SKU) or updated (a SKU already routed at this supplier), its route and expected cost, the tier prices from the applicable margin rule, warnings and blocking errors.',
    body: Type.Object(ImportBody, strict), response: ImportPlanSchema, errors: ['NOT_FOUND'],
    handler: async ({ body }) => ({ data: plan(await imports.preview(importInput(body))) }),
  });

  kit.route({
    method: 'POST', url: '/imports/apply', tag: 'Pricing', summary: 'Import supplier SKUs as products exactly as previewed (idempotent: again updates, never duplicates)',
    description: 'Recomputes the plan and applies it only if it is the one previewed: 409 COST_CHANGED when a SKU\'s cost changed since (a sync ran), 409 PREVIEW_STALE when anything else did; VALIDATION_ERROR while an item has an error. Audited as supplier.import.',
    body: Type.Object({ ...ImportBody, preview_token: Type.String({ minLength: 1, maxLength: 20_000 }) }, strict),
    response: ImportPlanSchema, errors: ['NOT_FOUND', 'COST_CHANGED', 'PREVIEW_STALE'],
    handler: async ({ body, who }) => ({ data: plan(await imports.apply(importInput(body), body.preview_token, who.operatorId)) }),
  });
}
