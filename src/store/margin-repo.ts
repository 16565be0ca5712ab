import type { Kysely } from 'kysely';
import { MARGIN_TIERS, type MarginRule, type MarginTier, type TierMargin } from '../domain/margin.js';
import type { DB } from './schema.js';

export type MarginScope = 'category' | 'catalog';

export interface MarginRuleRow extends MarginRule {
  id: string;
  scopeKind: MarginScope;
  scopeId: string;
  createdAt: number;
  updatedAt: number;
}

/** Margin rules (migration 020). Built on a connection or a transaction. */
export class MarginRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async list(filter: { id?: string; scopeKind?: MarginScope; scopeId?: string } = {}): Promise<MarginRuleRow[]> {
    let q = this.db.selectFrom('margin_rules').selectAll();
    if (filter.id !== undefined) q = q.where('id', '=', filter.id);
    if (filter.scopeKind !== undefined) q = q.where('scope_kind', '=', filter.scopeKind);
    if (filter.scopeId !== undefined) q = q.where('scope_id', '=', filter.scopeId);
    return (await q.orderBy('scope_kind').orderBy('scope_id').execute()).map(toRule);
  }

  async byId(id: string): Promise<MarginRuleRow | null> {
    return (await this.list({ id }))[0] ?? null;
  }

  async insert(r: Omit<MarginRuleRow, 'createdAt' | 'updatedAt'>, now: number) {
    await this.db.insertInto('margin_rules')
      .values({ id: r.id, scope_kind: r.scopeKind, scope_id: r.scopeId, step: r.step, tiers: tiersJson(r.tiers), created_at: now, updated_at: now })
      .execute();
  }

  async update(id: string, r: MarginRule, now: number) {
    await this.db.updateTable('margin_rules').set({ step: r.step, tiers: tiersJson(r.tiers), updated_at: now }).where('id', '=', id).execute();
  }

  async delete(id: string) {
    await this.db.deleteFrom('margin_rules').where('id', '=', id).execute();
  }

  /** Every rule, by scope: what applicableRule() picks from (a handful of rows). */
  async byScope(): Promise<{ catalog: Map<string, MarginRuleRow>; category: Map<string, MarginRuleRow> }> {
    const all = await this.list();
    return {
      catalog: new Map(all.filter((r) => r.scopeKind === 'catalog').map((r) => [r.scopeId, r])),
      category: new Map(all.filter((r) => r.scopeKind === 'category').map((r) => [r.scopeId, r])),
    };
  }
}

/** Stored with the API's names (percent_bp, fixed), only the tiers the rule prices. */
function tiersJson(tiers: MarginRule['tiers']): string {
  const out: Record<string, { percent_bp: number; fixed: number }> = {};
  for (const t of MARGIN_TIERS) if (tiers[t]) out[t] = { percent_bp: tiers[t]!.percentBp, fixed: tiers[t]!.fixed };
  return JSON.stringify(out);
}

function toRule(r: { id: string; scope_kind: MarginScope; scope_id: string; step: number; tiers: string; created_at: number; updated_at: number }): MarginRuleRow {
  const raw = JSON.parse(r.tiers) as Record<string, { percent_bp: number; fixed: number }>;
  const tiers: Partial<Record<MarginTier, TierMargin>> = {};
  for (const t of MARGIN_TIERS) if (raw[t]) tiers[t] = { percentBp: Number(raw[t]!.percent_bp), fixed: Number(raw[t]!.fixed) };
  return { id: r.id, scopeKind: r.scope_kind, scopeId: r.scope_id, step: Number(r.step), tiers, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at) };
}
