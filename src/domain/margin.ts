/**
 * Margin rules (issue 27): a tier price from a supplier's cost, as cost plus a percentage
 * (basis points, 1 bp = 0.01 %) and/or a fixed amount, rounded UP to a step, so a price is
 * never below cost + margin. Integer maths only (BigInt for the product, which may pass the
 * safe-integer range before it is checked against the bound).
 */

export type MarginTier = 'gold' | 'platinum' | 'diamond';
export const MARGIN_TIERS: readonly MarginTier[] = ['gold', 'platinum', 'diamond'];

/** One tier's margin: both parts are added (either may be 0, not both). */
export interface TierMargin {
  percentBp: number;
  /** Minor units. */
  fixed: number;
}

export interface MarginRule {
  /** Prices are rounded up to a multiple of this (minor units, at least 1). */
  step: number;
  /** A tier left out is not priced by the rule. */
  tiers: Partial<Record<MarginTier, TierMargin>>;
}

/** A percentage above this (1000 %) is surely a typo. */
export const MAX_PERCENT_BP = 100_000;

export type PriceResult = { ok: true; price: number } | { ok: false; reason: 'overflow' };

/** cost + ceil(cost × bp / 10 000) + fixed: the least price the margin allows, before the step's rounding. */
export function marginFloor(cost: number, margin: TierMargin): bigint {
  const c = BigInt(cost);
  return c + (c * BigInt(margin.percentBp) + 9_999n) / 10_000n + BigInt(margin.fixed);
}

/** The margin floor rounded up to `step`; overflow when above `max`. */
export function marginPrice(cost: number, margin: TierMargin, step: number, max: number): PriceResult {
  const raw = marginFloor(cost, margin);
  const s = BigInt(step);
  const rounded = ((raw + s - 1n) / s) * s;
  if (rounded > BigInt(max)) return { ok: false, reason: 'overflow' };
  return { ok: true, price: Number(rounded) };
}

/** Every tier the rule prices, or the first tier whose price would pass `max`. */
export function rulePrices(cost: number, rule: MarginRule, max: number): { ok: true; prices: Partial<Record<MarginTier, number>> } | { ok: false; tier: MarginTier } {
  const prices: Partial<Record<MarginTier, number>> = {};
  for (const tier of MARGIN_TIERS) {
    const m = rule.tiers[tier];
    if (!m) continue;
    const r = marginPrice(cost, m, rule.step, max);
    if (!r.ok) return { ok: false, tier };
    prices[tier] = r.price;
  }
  return { ok: true, prices };
}

/**
 * What is wrong with a rule (null: nothing). `max` bounds money (the largest price an
 * operator may set): a fixed amount or step above it could never give a price in range.
 */
export function marginRuleProblem(rule: MarginRule, max: number): string | null {
  if (!Number.isSafeInteger(rule.step) || rule.step < 1 || rule.step > max) return `step must be a whole amount of minor units from 1 to ${max}`;
  const tiers = MARGIN_TIERS.filter((t) => rule.tiers[t] !== undefined);
  if (tiers.length === 0) return 'a rule needs a margin for at least one tier (gold, platinum, diamond)';
  for (const t of tiers) {
    const m = rule.tiers[t]!;
    if (!Number.isSafeInteger(m.percentBp) || m.percentBp < 0 || m.percentBp > MAX_PERCENT_BP) return `${t}: percent_bp must be a whole number from 0 to ${MAX_PERCENT_BP} (1 bp = 0.01 %)`;
    if (!Number.isSafeInteger(m.fixed) || m.fixed < 0 || m.fixed > max) return `${t}: fixed must be from 0 to ${max} minor units`;
    if (m.percentBp === 0 && m.fixed === 0) return `${t}: percent_bp and fixed are both 0, which would sell at cost; give a margin or leave the tier out`;
    if (!marginPrice(0, m, rule.step, max).ok) return `${t}: fixed rounded up to the step passes the largest price (${max})`;
  }
  return null;
}

/** The rule that prices a product in a catalog: the catalog's own rule wins over its category's. */
export function applicableRule<R>(rules: { catalog: Map<string, R>; category: Map<string, R> }, catalogId: string | null, categorySlug: string): { rule: R; scope: 'catalog' | 'category' } | null {
  const byCatalog = catalogId === null ? undefined : rules.catalog.get(catalogId);
  if (byCatalog !== undefined) return { rule: byCatalog, scope: 'catalog' };
  const byCategory = rules.category.get(categorySlug);
  return byCategory === undefined ? null : { rule: byCategory, scope: 'category' };
}
