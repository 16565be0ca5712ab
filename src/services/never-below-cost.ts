import type { Kysely } from 'kysely';
import { pricesReached, repricePlan, type BelowCostPolicy, type PriceAt } from '../domain/below-cost.js';
import { AttentionRepo } from '../store/attention-repo.js';
import { AuditRepo } from '../store/audit-repo.js';
import { CatalogAdminRepo } from '../store/catalog-admin-repo.js';
import type { MarginRepo } from '../store/margin-repo.js';
import type { DB } from '../store/schema.js';
import { SupplyRepo } from '../store/supply-repo.js';
import type { Actor } from './operator/actor.js';

export interface BelowCostEntry {
  routeId: string;
  productCode: string;
  sku: string;
  cost: number;
  lowestPrice: number;
  /** `cost`: a price is at or below the cost; `margin`: the cost rose past a margin rule's minimum for a price. */
  reached: 'cost' | 'margin';
  /** What was done: repriced by the margin rules, or the route taken out of service. */
  action: 'repriced' | 'route_disabled';
  /** Why a `reprice` supplier's route was taken out of service instead. */
  reason: 'policy' | 'no_rule' | 'out_of_range';
  /** Repriced: each price the cost reached, before and after (minor units). */
  prices: (PriceAt & { before: number })[];
}

type Rules = Awaited<ReturnType<MarginRepo['byScope']>>;

/**
 * Never sell at or below cost, nor below the margin rule once the cost rose, for one route
 * whose SKU's synced cost reached a price of its product (pricesReached), inside the sync's
 * transaction. As the supplier's policy says: reprice every such price by its margin rule,
 * or, by policy or when a price has no rule (or would pass the money bound), take the route
 * out of service. Either way an audit line and an attention item for the operator. The
 * route's cost itself follows the supplier in the sync, whatever is done here.
 */
export async function actOnBelowCost(
  trx: Kysely<DB>,
  ctx: { supplierName: string; policy: BelowCostPolicy; rules: Rules; maxPrice: number; actor: Actor; now: number; newId: () => string },
  route: { id: string; productCode: string; categorySlug: string; sku: string; cost: number },
  cost: number,
  prices: readonly PriceAt[],
): Promise<BelowCostEntry | null> {
  const hits = pricesReached(cost, prices, cost > route.cost, route.categorySlug, ctx.rules);
  if (hits.length === 0) return null;
  const lowestPrice = Math.min(...hits.map((h) => h.price));
  const reached: BelowCostEntry['reached'] = hits.some((h) => cost >= h.price) ? 'cost' : 'margin';
  const base = { routeId: route.id, productCode: route.productCode, sku: route.sku, cost, lowestPrice, reached };
  const audit = (action: string, before: unknown, after: unknown) => AuditRepo.record(trx, { operatorId: ctx.actor, action, targetKind: 'route', targetId: route.id, before, after }, ctx.now);
  const attention = (summary: string, details: unknown) =>
    new AttentionRepo(trx).add({ id: ctx.newId(), kind: 'below_cost', targetKind: 'route', targetId: route.id, summary, details, createdAt: ctx.now });
  const which = hits.length === 1 ? 'a price' : `${hits.length} prices`;
  const head = `${route.productCode}: ${ctx.supplierName} SKU ${route.sku} now costs ${cost} (was ${route.cost}), ${reached === 'cost' ? `at or above ${which} of the product` : `leaving ${which} of the product below the margin rule's minimum`} (lowest ${lowestPrice})`;

  let reason: BelowCostEntry['reason'] = 'policy';
  if (ctx.policy === 'reprice') {
    const plan = repricePlan(cost, hits, route.categorySlug, ctx.rules, ctx.maxPrice);
    if (plan.ok) {
      const catalog = new CatalogAdminRepo(trx);
      for (const c of plan.changes) await catalog.upsertPrice(c.catalogId, { productCode: route.productCode, tier: c.tier, price: c.price });
      const entry: BelowCostEntry = { ...base, action: 'repriced', reason: 'policy', prices: plan.changes };
      const changes = plan.changes.map((c) => ({ catalog_id: c.catalogId, tier: c.tier, before: c.before, after: c.price }));
      await audit('route.repriced', { cost: route.cost, prices: changes.map((c) => ({ catalog_id: c.catalog_id, tier: c.tier, price: c.before })) }, { cost, prices: changes.map((c) => ({ catalog_id: c.catalog_id, tier: c.tier, price: c.after })) });
      await attention(`${head}; repriced by the margin rules: ${plan.changes.map((c) => `${c.tier} ${c.before} → ${c.price}`).join(', ')}`, { action: 'repriced', reached, cost, cost_before: route.cost, product_code: route.productCode, sku: route.sku, prices: changes });
      return entry;
    }
    reason = plan.reason;
  }
  await new SupplyRepo(trx).updateRoute(route.id, { enabled: 0 });
  await audit('route.below_cost', { enabled: true, cost: route.cost }, { enabled: false, cost, lowest_price: lowestPrice, reason, reached });
  const why = reason === 'policy' ? '' : reason === 'no_rule' ? ' (no margin rule prices every tier it reached)' : ' (the margin rule would pass the largest price)';
  await attention(`${head}; route taken out of service${why}`, { action: 'route_disabled', reason, reached, cost, cost_before: route.cost, lowest_price: lowestPrice, product_code: route.productCode, sku: route.sku });
  return { ...base, action: 'route_disabled', reason, prices: [] };
}
