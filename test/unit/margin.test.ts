import { describe, expect, it } from 'vitest';
import { applicableRule, marginPrice, marginRuleProblem, rulePrices, MAX_PERCENT_BP } from '../../src/domain/margin.js';
import { MAX_EXACT_MINOR } from '../../src/domain/money.js';
import { pricesReached, repricePlan } from '../../src/domain/below-cost.js';

const MAX = 100_000_000_000;

describe('margin rules: price from cost', () => {
  it('adds the percentage (rounded up to a minor unit) and the fixed amount', () => {
    expect(marginPrice(10_000, { percentBp: 500, fixed: 0 }, 1, MAX)).toEqual({ ok: true, price: 10_500 });
    expect(marginPrice(10_000, { percentBp: 0, fixed: 750 }, 1, MAX)).toEqual({ ok: true, price: 10_750 });
    expect(marginPrice(10_000, { percentBp: 250, fixed: 100 }, 1, MAX)).toEqual({ ok: true, price: 10_350 });
    // 1 bp of 18 001 is 1.8001: rounded up, never down.
    expect(marginPrice(18_001, { percentBp: 1, fixed: 0 }, 1, MAX)).toEqual({ ok: true, price: 18_003 });
  });

  it('rounds up to the step, so the price is never below cost + margin', () => {
    expect(marginPrice(18_000, { percentBp: 300, fixed: 0 }, 500, MAX)).toEqual({ ok: true, price: 19_000 });
    expect(marginPrice(18_040, { percentBp: 0, fixed: 10 }, 50, MAX)).toEqual({ ok: true, price: 18_050 });
    expect(marginPrice(18_041, { percentBp: 0, fixed: 10 }, 50, MAX)).toEqual({ ok: true, price: 18_100 });
    for (const cost of [1, 99, 1_234, 98_765, 12_345_678]) {
      for (const step of [1, 7, 100, 1000]) {
        const m = { percentBp: 123, fixed: 45 };
        const r = marginPrice(cost, m, step, MAX);
        if (!r.ok) throw new Error('overflow');
        const floor = cost + Math.ceil((cost * 123) / 10_000) + 45;
        expect(r.price).toBeGreaterThanOrEqual(floor);
        expect(r.price - floor).toBeLessThan(step);
        expect(r.price % step).toBe(0);
      }
    }
  });

  it('zero cost is priced by the margin alone', () => {
    expect(marginPrice(0, { percentBp: 1000, fixed: 300 }, 1, MAX)).toEqual({ ok: true, price: 300 });
  });

  it('stays in the bounded money range: a price above the bound is an overflow, exactly at it is fine', () => {
    expect(marginPrice(MAX - 100, { percentBp: 0, fixed: 100 }, 1, MAX)).toEqual({ ok: true, price: MAX });
    expect(marginPrice(MAX - 100, { percentBp: 0, fixed: 101 }, 1, MAX)).toEqual({ ok: false, reason: 'overflow' });
    expect(marginPrice(MAX - 100, { percentBp: 0, fixed: 100 }, 7, MAX)).toEqual({ ok: false, reason: 'overflow' });
    // Past the safe-integer range in between: still exact, still refused.
    expect(marginPrice(MAX_EXACT_MINOR, { percentBp: MAX_PERCENT_BP, fixed: MAX_EXACT_MINOR }, 1, MAX_EXACT_MINOR)).toEqual({ ok: false, reason: 'overflow' });
  });

  it('prices only the tiers the rule has; the first tier that overflows is named', () => {
    const rule = { step: 100, tiers: { gold: { percentBp: 1000, fixed: 0 }, diamond: { percentBp: 500, fixed: 0 } } };
    expect(rulePrices(10_000, rule, MAX)).toEqual({ ok: true, prices: { gold: 11_000, diamond: 10_500 } });
    expect(rulePrices(MAX - 10, rule, MAX)).toEqual({ ok: false, tier: 'gold' });
  });
});

describe('margin rules: validation', () => {
  const ok = { step: 100, tiers: { gold: { percentBp: 500, fixed: 0 } } };
  it('accepts a sensible rule', () => {
    expect(marginRuleProblem(ok, MAX)).toBeNull();
  });
  it('refuses an empty rule, a zero margin, bad steps, percentages and amounts out of range', () => {
    expect(marginRuleProblem({ step: 100, tiers: {} }, MAX)).toMatch(/at least one tier/);
    expect(marginRuleProblem({ step: 100, tiers: { gold: { percentBp: 0, fixed: 0 } } }, MAX)).toMatch(/both 0/);
    expect(marginRuleProblem({ ...ok, step: 0 }, MAX)).toMatch(/step/);
    expect(marginRuleProblem({ ...ok, step: 1.5 }, MAX)).toMatch(/step/);
    expect(marginRuleProblem({ ...ok, step: MAX + 1 }, MAX)).toMatch(/step/);
    expect(marginRuleProblem({ step: 1, tiers: { gold: { percentBp: -1, fixed: 0 } } }, MAX)).toMatch(/percent_bp/);
    expect(marginRuleProblem({ step: 1, tiers: { gold: { percentBp: MAX_PERCENT_BP + 1, fixed: 0 } } }, MAX)).toMatch(/percent_bp/);
    expect(marginRuleProblem({ step: 1, tiers: { gold: { percentBp: 0, fixed: MAX + 1 } } }, MAX)).toMatch(/fixed/);
    // The fixed amount fits, but rounded up to the step it would not.
    expect(marginRuleProblem({ step: 7, tiers: { gold: { percentBp: 0, fixed: MAX } } }, MAX)).toMatch(/largest price/);
  });
});

describe('margin rules: which rule applies', () => {
  const rules = { catalog: new Map([['cat-1', 'catalog rule']]), category: new Map([['free-fire', 'category rule']]) };
  it('the catalog rule wins over the category rule; without either there is none', () => {
    expect(applicableRule(rules, 'cat-1', 'free-fire')).toEqual({ rule: 'catalog rule', scope: 'catalog' });
    expect(applicableRule(rules, 'cat-2', 'free-fire')).toEqual({ rule: 'category rule', scope: 'category' });
    expect(applicableRule(rules, null, 'free-fire')).toEqual({ rule: 'category rule', scope: 'category' });
    expect(applicableRule(rules, 'cat-2', 'valorant')).toBeNull();
  });
});

describe('never below cost: repricing the prices a cost reached', () => {
  const rule = (tiers: Record<string, { percentBp: number; fixed: number }>) => ({ step: 500, tiers });
  const rules = {
    catalog: new Map([['cat-1', rule({ gold: { percentBp: 2000, fixed: 0 }, diamond: { percentBp: 1000, fixed: 0 } })]]),
    category: new Map([['free-fire', rule({ gold: { percentBp: 500, fixed: 0 } })]]),
  };
  const prices = [
    { catalogId: 'cat-1', tier: 'gold' as const, price: 24_000 },
    { catalogId: 'cat-1', tier: 'diamond' as const, price: 22_000 },
    { catalogId: 'cat-2', tier: 'gold' as const, price: 23_000 },
    { catalogId: 'cat-2', tier: 'diamond' as const, price: 21_000 },
  ];
  const atOrBelow = (cost: number) => pricesReached(cost, prices, false, 'free-fire', rules);
  it('finds the prices at or below the cost (at cost counts)', () => {
    expect(atOrBelow(22_000).map((p) => `${p.catalogId}/${p.tier}`)).toEqual(['cat-1/diamond', 'cat-2/diamond']);
    expect(atOrBelow(20_999)).toEqual([]);
  });
  it('when the cost rose, also the prices below their rule\'s minimum (cost + margin, before rounding)', () => {
    // 20 000: cat-1 gold needs 24 000 (20 %), diamond 22 000 (10 %); cat-2 gold (category rule, 5 %) 21 000; cat-2 diamond has no rule.
    expect(pricesReached(20_000, prices, true, 'free-fire', rules)).toEqual([]);
    const at = (cost: number) => pricesReached(cost, prices, true, 'free-fire', rules).map((p) => `${p.catalogId}/${p.tier}`);
    expect(at(20_001)).toEqual(['cat-1/gold', 'cat-1/diamond']);
    expect(at(21_904)).toEqual(['cat-1/gold', 'cat-1/diamond', 'cat-2/diamond']);
    expect(at(21_905)).toEqual(['cat-1/gold', 'cat-1/diamond', 'cat-2/gold', 'cat-2/diamond']);
    // Without a rule for its category, only at or below cost counts.
    expect(pricesReached(20_001, prices, true, 'valorant', { catalog: new Map(), category: new Map() })).toEqual([]);
  });
  it('reprices each by its catalog rule, else its category rule', () => {
    const hits = atOrBelow(23_000).filter((p) => p.tier === 'gold' || p.catalogId === 'cat-1');
    expect(repricePlan(23_000, hits, 'free-fire', rules, 1e12)).toEqual({
      ok: true,
      changes: [{ catalogId: 'cat-1', tier: 'diamond', price: 25_500, before: 22_000 }, { catalogId: 'cat-2', tier: 'gold', price: 24_500, before: 23_000 }],
    });
  });
  it('all or nothing: a price without a rule for its tier, or past the bound, reprices none', () => {
    expect(repricePlan(22_000, atOrBelow(22_000), 'free-fire', rules, 1e12)).toEqual({ ok: false, reason: 'no_rule', catalogId: 'cat-2', tier: 'diamond' });
    expect(repricePlan(22_000, atOrBelow(22_000), 'valorant', rules, 1e12)).toMatchObject({ ok: false, reason: 'no_rule' });
    expect(repricePlan(22_000, [prices[1]!], 'free-fire', rules, 24_000)).toEqual({ ok: false, reason: 'out_of_range', catalogId: 'cat-1', tier: 'diamond' });
  });
});
