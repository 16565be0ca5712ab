import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { applicableRule, MARGIN_TIERS, rulePrices, type MarginTier } from '../domain/margin.js';
import { AppError } from '../errors.js';
import { customerNoForForm, mergeRouteOptions, parseRouteOptions, routeOptionsProblem } from '../domain/route-options.js';
import { AuditRepo } from '../store/audit-repo.js';
import { CatalogAdminRepo } from '../store/catalog-admin-repo.js';
import { MarginRepo } from '../store/margin-repo.js';
import type { DB } from '../store/schema.js';
import { optionsJson, SupplyRepo } from '../store/supply-repo.js';
import type { Actor } from './operator/actor.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';

export interface ImportInput {
  /** Supplier id or name. */
  supplier: string;
  skus: string[];
  /** New products go into this category (slug); an imported SKU's product keeps its own. */
  category: string;
  /** Catalog id or name whose prices are set; none: products and routes only. */
  catalog?: string | null;
  /** The routes' customer_no format; none: the one the category's form implies (customerNoForForm). */
  customerNo?: string | null;
}

/** Worth a look, does not stop the import. */
export type ImportWarning = 'NO_RULE' | 'NO_CATALOG' | 'AT_OR_BELOW_COST' | 'NOT_BUYABLE' | 'OTHER_CATEGORY' | 'ROUTE_OUT_OF_SERVICE';
/** Stops the whole import (nothing is changed) until the SKU is left out or the cause fixed. */
export type ImportError = 'SKU_NOT_FOUND' | 'PRODUCT_CODE_TAKEN' | 'PRICE_OUT_OF_RANGE';

type TierPrices = Record<MarginTier, number | null>;

export interface ImportLine {
  sku: string;
  /** From the last sync (null: the SKU is not in it). */
  skuName: string | null;
  cost: number | null;
  buyable: boolean | null;
  action: 'create' | 'update';
  product: { code: string; name: string; categorySlug: string };
  /** The route to this SKU: its id when it exists; its cost becomes the SKU's cost; its customer_no format (null: the default, {target}). */
  route: { id: string | null; sku: string; cost: number | null; costBefore: number | null; enabled: boolean; customerNo: string | null; customerNoBefore: string | null };
  rule: { id: string; scope: 'catalog' | 'category' } | null;
  /** In the catalog after the import (a tier the rule does not price keeps its price), and before it. */
  prices: TierPrices;
  pricesBefore: TierPrices;
  warnings: ImportWarning[];
  error: ImportError | null;
}

export interface ImportPlan {
  supplierId: string;
  supplierName: string;
  category: string;
  catalogId: string | null;
  lines: ImportLine[];
  /** Hand back to apply: it refuses when a cost (COST_CHANGED) or anything else (PREVIEW_STALE) changed. */
  previewToken: string;
}

const MAX_SKUS = 200;
const PRODUCT_CODE_MAX = 64;
const NAME_MAX = 100;
const noPrices = (): TierPrices => ({ gold: null, platinum: null, diamond: null });

/**
 * Imports SKUs of a supplier's synced price list as products (issue 27 item 3): the
 * preview says, per SKU, the product created or updated, its route (SKU, expected cost),
 * the tier prices from the applicable margin rule and what is worth a look; apply does
 * exactly that, or refuses when the plan changed since the preview. A SKU already routed
 * at this supplier updates its product (the first by code) rather than making another.
 */
export class ImportSupplierSkus {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; ids: IdGenerator; currency: CurrencySettings }) {}

  preview(input: ImportInput): Promise<ImportPlan> {
    return this.plan(this.deps.db, input);
  }

  /** Recomputes the plan in the transaction that applies it, and applies it only if it is the one previewed. */
  async apply(input: ImportInput, previewToken: string, actor: Actor): Promise<ImportPlan> {
    const previewed = readToken(previewToken);
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const plan = await this.plan(trx, input);
      const was = (sku: string) => (Object.hasOwn(previewed.costs, sku) ? previewed.costs[sku] : undefined);
      const changed = plan.lines.filter((l) => was(l.sku) !== l.cost).map((l) => `${l.sku} ${was(l.sku) ?? 'none'} → ${l.cost ?? 'none'}`);
      if (changed.length || Object.keys(previewed.costs).length !== plan.lines.length) {
        throw new AppError('COST_CHANGED', `the cost changed since the preview (${changed.join(', ') || 'other SKUs'}); preview again and check the prices`);
      }
      if (plan.previewToken !== previewToken) throw new AppError('PREVIEW_STALE', 'a margin rule, product, route or price changed since the preview; preview again');
      const blocked = plan.lines.filter((l) => l.error !== null);
      if (blocked.length) throw new AppError('VALIDATION_ERROR', `nothing was imported: ${blocked.map((l) => `${l.sku}: ${l.error}`).join(', ')}; leave those SKUs out`);

      const catalog = new CatalogAdminRepo(trx);
      const supply = new SupplyRepo(trx);
      const category = (await catalog.category(plan.category))!;
      for (const l of plan.lines) {
        if (l.action === 'create') {
          await catalog.insertProduct({ code: l.product.code, name: l.product.name, categorySlug: category.slug, kind: category.type === 'voucher' ? 'voucher' : 'instant', limitGated: false, enabled: true, sortOrder: 0 }, now);
          await supply.insertRoute({ id: this.deps.ids.uuid(), productCode: l.product.code, supplierId: plan.supplierId, sku: l.sku, cost: l.cost!, priority: 1, options: l.route.customerNo === null ? {} : { customerNo: l.route.customerNo } }, now);
        } else if (l.route.customerNo === l.route.customerNoBefore) {
          await supply.updateRoute(l.route.id!, { cost: l.cost! });
        } else {
          const [route] = await supply.listRoutes({ routeId: l.route.id! });
          await supply.updateRoute(l.route.id!, { cost: l.cost!, options: optionsJson(mergeRouteOptions(route!.options, { customerNo: l.route.customerNo })) });
        }
        if (plan.catalogId === null) continue;
        for (const tier of MARGIN_TIERS) {
          const price = l.prices[tier];
          if (price !== null && price !== l.pricesBefore[tier]) await catalog.upsertPrice(plan.catalogId, { productCode: l.product.code, tier, price });
        }
      }
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'supplier.import', targetKind: 'supplier', targetId: plan.supplierId, before: null,
        after: {
          category: plan.category, catalog_id: plan.catalogId,
          items: plan.lines.map((l) => ({ sku: l.sku, product_code: l.product.code, action: l.action, cost: l.cost, cost_before: l.route.costBefore, customer_no: l.route.customerNo, customer_no_before: l.route.customerNoBefore, prices: l.prices, prices_before: l.pricesBefore, rule_id: l.rule?.id ?? null })),
        },
      }, now);
      return plan;
    });
  }

  private async plan(db: Kysely<DB>, input: ImportInput): Promise<ImportPlan> {
    const skus = input.skus.map((s) => s.trim());
    if (skus.length === 0 || skus.length > MAX_SKUS) throw new AppError('VALIDATION_ERROR', `skus: 1 to ${MAX_SKUS} supplier SKUs`);
    if (skus.some((s) => s === '' || s.length > 128)) throw new AppError('VALIDATION_ERROR', 'skus: each SKU is 1 to 128 characters');
    if (new Set(skus).size !== skus.length) throw new AppError('VALIDATION_ERROR', 'skus: a SKU appears twice');
    const catalogRepo = new CatalogAdminRepo(db);
    const [supplier] = await new SupplyRepo(db).listSuppliers(input.supplier);
    if (!supplier) throw new AppError('NOT_FOUND', `no supplier with id or name "${input.supplier}"`);
    const category = await catalogRepo.category(input.category);
    if (!category) throw new AppError('NOT_FOUND', `no category with slug "${input.category}"`);
    const format = customerNoFormat(category, input.customerNo ?? null);
    let catalogId: string | null = null;
    if (input.catalog) {
      const k = (await catalogRepo.catalog(input.catalog)) ?? (await catalogRepo.catalogByName(input.catalog));
      if (!k) throw new AppError('NOT_FOUND', `no catalog with id or name "${input.catalog}"`);
      catalogId = k.id;
    }

    const synced = new Map((await db.selectFrom('supplier_skus').selectAll().where('supplier_id', '=', supplier.id).where('sku', 'in', skus).execute()).map((r) => [r.sku, r]));
    const routes = await db.selectFrom('product_routes as r').innerJoin('products as p', 'p.code', 'r.product_code')
      .select(['r.id', 'r.supplier_sku', 'r.cost', 'r.enabled', 'r.options', 'p.code', 'p.name', 'p.category_slug'])
      .where('r.supplier_id', '=', supplier.id).where('r.supplier_sku', 'in', skus).orderBy('p.code').execute();
    const routeOf = new Map<string, (typeof routes)[number]>();
    for (const r of routes) if (!routeOf.has(r.supplier_sku)) routeOf.set(r.supplier_sku, r);
    const newCodes = skus.filter((s) => !routeOf.has(s)).map(productCode);
    const taken = await catalogRepo.existingProductCodes(newCodes);
    const rules = await new MarginRepo(db).byScope();
    const codes = [...new Set([...routeOf.values()].map((r) => r.code))];
    const before = new Map<string, TierPrices>();
    if (catalogId !== null && codes.length) {
      const rows = await db.selectFrom('catalog_prices').select(['product_code', 'tier', 'price']).where('catalog_id', '=', catalogId).where('product_code', 'in', codes).execute();
      for (const r of rows) {
        const p = before.get(r.product_code) ?? noPrices();
        p[r.tier] = Number(r.price);
        before.set(r.product_code, p);
      }
    }

    const claimed = new Set<string>();
    const lines = skus.map((sku): ImportLine => {
      const s = synced.get(sku);
      const existing = routeOf.get(sku);
      const cost = s ? Number(s.cost) : null;
      const code = existing?.code ?? productCode(sku);
      const product = existing
        ? { code: existing.code, name: existing.name, categorySlug: existing.category_slug }
        : { code, name: (s?.name.trim() || sku).slice(0, NAME_MAX), categorySlug: category.slug };
      const warnings: ImportWarning[] = [];
      let error: ImportError | null = null;
      if (!s) error = 'SKU_NOT_FOUND';
      else if (!existing && (taken.has(code) || claimed.has(code) || code === '')) error = 'PRODUCT_CODE_TAKEN';
      claimed.add(code);
      if (s && Number(s.buyable) !== 1) warnings.push('NOT_BUYABLE');
      if (existing && existing.category_slug !== category.slug) warnings.push('OTHER_CATEGORY');
      const pricesBefore = before.get(product.code) ?? noPrices();
      const prices: TierPrices = { ...pricesBefore };
      const found = applicableRule(rules, catalogId, product.categorySlug);
      if (catalogId === null) warnings.push('NO_CATALOG');
      if (!found) warnings.push('NO_RULE');
      else if (cost !== null && catalogId !== null) {
        const r = rulePrices(cost, found.rule, this.deps.currency.maxAmount);
        if (!r.ok) error ??= 'PRICE_OUT_OF_RANGE';
        else for (const t of MARGIN_TIERS) if (r.prices[t] !== undefined) prices[t] = r.prices[t]!;
      }
      if (cost !== null && MARGIN_TIERS.some((t) => prices[t] !== null && prices[t]! <= cost)) warnings.push('AT_OR_BELOW_COST');
      // The import leaves a route's service state alone: the operator enables it (PATCH /routes/{id}).
      if (existing && Number(existing.enabled) !== 1) warnings.push('ROUTE_OUT_OF_SERVICE');
      // A format given is set on every route; a derived one on new routes, and on a route of
      // this game whose format leaves the zone out (it would send orders without it).
      const formatBefore = existing ? (parseRouteOptions(existing.options).customerNo ?? null) : null;
      const leavesZoneOut = existing?.category_slug === category.slug && format.value !== null && !(formatBefore ?? '').includes('{zone}');
      const customerNo = !existing || format.given !== null || leavesZoneOut ? format.value : formatBefore;
      return {
        sku, skuName: s?.name ?? null, cost, buyable: s ? Number(s.buyable) === 1 : null, action: existing ? 'update' : 'create', product,
        route: { id: existing?.id ?? null, sku, cost, costBefore: existing ? Number(existing.cost) : null, enabled: existing ? Number(existing.enabled) === 1 : true, customerNo, customerNoBefore: formatBefore },
        rule: found ? { id: found.rule.id, scope: found.scope } : null, prices, pricesBefore, warnings, error,
      };
    });
    const plan = { supplierId: supplier.id, supplierName: supplier.name, category: category.slug, catalogId, lines };
    return { ...plan, previewToken: token(plan) };
  }
}

/**
 * The customer_no format for the import's routes: the one given (checked, and with {zone}
 * when the game's form has server fields), else the one the form implies; refused, saying
 * what to send, when the form has several server fields and none is given.
 */
function customerNoFormat(category: { slug: string; name: string; form: readonly { name: string; role: string }[] }, given: string | null): { given: string | null; value: string | null } {
  const need = customerNoForForm(category.form);
  const servers = category.form.filter((f) => f.role === 'server').map((f) => f.name);
  if (given !== null) {
    const problem = routeOptionsProblem({ customerNo: given });
    if (problem) throw new AppError('VALIDATION_ERROR', problem);
    if (need.zone && !given.includes('{zone}')) {
      throw new AppError('VALIDATION_ERROR', `customer_no must contain {zone}: ${category.name} orders carry a zone (${servers.join(', ')}), which the supplier needs`);
    }
    return { given, value: given };
  }
  if (!need.zone) return { given: null, value: null };
  if (need.derived === null) {
    throw new AppError('VALIDATION_ERROR', `${category.name} has ${servers.length} server fields (${servers.join(', ')}), sent as one zone joined with "|": send customer_no, how the supplier's customer number is formed from {target} and {zone} for these SKUs (e.g. "{target}|{zone}")`);
  }
  return { given: null, value: need.derived };
}

/** A new product's code from the SKU: the characters a product code allows, the rest as dashes. */
export function productCode(sku: string): string {
  return sku.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[._-]+/, '').slice(0, PRODUCT_CODE_MAX);
}

/**
 * The previewed costs (readable, to say which changed) and a digest of the whole plan
 * (rules' margins included, through the prices), so apply can tell a changed cost from any
 * other change. Not a secret: it only spares the operator a surprise.
 */
function token(plan: Omit<ImportPlan, 'previewToken'>): string {
  const costs = Object.fromEntries(plan.lines.map((l) => [l.sku, l.cost]));
  const digest = createHash('sha256').update(JSON.stringify(plan)).digest('base64url').slice(0, 32);
  return `${Buffer.from(JSON.stringify(costs)).toString('base64url')}.${digest}`;
}

function readToken(t: string): { costs: Record<string, number | null> } {
  const bad = () => new AppError('VALIDATION_ERROR', 'preview_token is not one a preview gave; send the preview_token of POST /imports/preview with the same input');
  const [costs, digest, ...rest] = t.split('.');
  if (!costs || !digest || rest.length || t.length > 20_000) throw bad();
  try {
    const parsed: unknown = JSON.parse(Buffer.from(costs, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
    for (const v of Object.values(parsed)) if (v !== null && !Number.isSafeInteger(v)) throw bad();
    return { costs: parsed as Record<string, number | null> };
  } catch {
    throw bad();
  }
}
