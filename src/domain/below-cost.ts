import { applicableRule, marginFloor, marginPrice, type MarginRule, type MarginTier } from './margin.js';

/**
 * What a price-list sync does when a route's cost reached a price of its product (at or
 * above it, or past the margin rule's minimum): reprice by the margin rule, or take the
 * route out of service.
 */
export type BelowCostPolicy = 'reprice' | 'disable_route';
export const BELOW_COST_POLICIES: readonly BelowCostPolicy[] = ['reprice', 'disable_route'];

export interface PriceAt { catalogId: string; tier: MarginTier; price: number }

type Rules<R> = { catalog: Map<string, R>; category: Map<string, R> };

/**
 * The prices a synced cost reached: every price at or below it (never sell at cost), and,
 * when the cost rose, every price below the minimum of the margin rule that prices it
 * (cost + the tier's margin, before the step's rounding). A price the operator set below
 * the rule is left alone while the cost stands still.
 */
export function pricesReached<R extends MarginRule>(cost: number, prices: readonly PriceAt[], rose: boolean, categorySlug: string, rules: Rules<R>): PriceAt[] {
  return prices.filter((p) => {
    if (cost >= p.price) return true;
    const margin = rose ? applicableRule(rules, p.catalogId, categorySlug)?.rule.tiers[p.tier] : undefined;
    return margin !== undefined && BigInt(p.price) < marginFloor(cost, margin);
  });
}

export type RepricePlan =
  | { ok: true; changes: (PriceAt & { before: number })[] }
  | { ok: false; reason: 'no_rule' | 'out_of_range'; catalogId: string; tier: MarginTier };

/**
 * New prices for every price the cost reached, each by the rule that applies to its catalog
 * (the catalog's, else the category's) and tier; all or nothing: one price without a rule
 * for its tier, or past the money bound, and none is repriced (the route goes out of service).
 */
export function repricePlan<R extends MarginRule>(
  cost: number, hits: readonly PriceAt[], categorySlug: string, rules: Rules<R>, max: number,
): RepricePlan {
  const changes: (PriceAt & { before: number })[] = [];
  for (const h of hits) {
    const found = applicableRule(rules, h.catalogId, categorySlug);
    const margin = found?.rule.tiers[h.tier];
    if (!found || !margin) return { ok: false, reason: 'no_rule', catalogId: h.catalogId, tier: h.tier };
    const r = marginPrice(cost, margin, found.rule.step, max);
    if (!r.ok) return { ok: false, reason: 'out_of_range', catalogId: h.catalogId, tier: h.tier };
    changes.push({ catalogId: h.catalogId, tier: h.tier, price: r.price, before: h.price });
  }
  return { ok: true, changes };
}
