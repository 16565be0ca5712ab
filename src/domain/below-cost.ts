import { applicableRule, marginPrice, type MarginRule, type MarginTier } from './margin.js';

/**
 * What a price-list sync does when a route's cost reached (or passed) a price of its
 * product: reprice by the margin rule, or take the route out of service.
 */
export type BelowCostPolicy = 'reprice' | 'disable_route';
export const BELOW_COST_POLICIES: readonly BelowCostPolicy[] = ['reprice', 'disable_route'];

export interface PriceAt { catalogId: string; tier: MarginTier; price: number }

/** The prices a cost reached: never sell at or below cost. */
export const pricesAtOrBelow = (cost: number, prices: readonly PriceAt[]) => prices.filter((p) => cost >= p.price);

export type RepricePlan =
  | { ok: true; changes: (PriceAt & { before: number })[] }
  | { ok: false; reason: 'no_rule' | 'out_of_range'; catalogId: string; tier: MarginTier };

/**
 * New prices for every price the cost reached, each by the rule that applies to its catalog
 * (the catalog's, else the category's) and tier; all or nothing: one price without a rule
 * for its tier, or past the money bound, and none is repriced (the route goes out of service).
 */
export function repricePlan<R extends MarginRule>(
  cost: number, hits: readonly PriceAt[], categorySlug: string, rules: { catalog: Map<string, R>; category: Map<string, R> }, max: number,
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
