import { marginRuleProblem, MARGIN_TIERS, type MarginRule, type MarginTier, type TierMargin } from '../../domain/margin.js';
import { toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AuditRepo, type AuditEntry } from '../../store/audit-repo.js';
import { CatalogAdminRepo } from '../../store/catalog-admin-repo.js';
import { MarginRepo, type MarginRuleRow, type MarginScope } from '../../store/margin-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';
import { minorUnits } from './money-input.js';

/** A rule as typed: amounts in major units (exact), percentages in basis points. */
export interface MarginRuleInput {
  step: number | string;
  tiers: Partial<Record<MarginTier, { percentBp: number; fixed?: number | string }>>;
}

/**
 * Margin rules, one per category or per catalog (a catalog's rule wins over its products'
 * category rule): what imports and the "reprice" below-cost policy price tiers with. Every
 * change commits with its audit line.
 */
export class MarginRules {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'currency'>) {}

  private change<T>(actor: Actor, fn: (repo: MarginRepo, trx: CatalogAdminRepo, audit: (e: Omit<AuditEntry, 'operatorId'>) => Promise<void>) => Promise<T>): Promise<T> {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute((trx) => fn(new MarginRepo(trx), new CatalogAdminRepo(trx), (e) => AuditRepo.record(trx, { ...e, operatorId: actor }, now)));
  }

  list(): Promise<MarginRuleRow[]> {
    return new MarginRepo(this.core.db).list();
  }

  /** Minor units, checked against the money bound; VALIDATION_ERROR saying what to fix. */
  parse(input: MarginRuleInput): MarginRule {
    const tiers: Partial<Record<MarginTier, TierMargin>> = {};
    for (const [tier, m] of Object.entries(input.tiers ?? {})) {
      if (!MARGIN_TIERS.includes(tier as MarginTier)) throw new AppError('VALIDATION_ERROR', `tiers: unknown tier "${tier}"; use gold, platinum, diamond`);
      if (m === undefined || m === null) continue;
      tiers[tier as MarginTier] = { percentBp: m.percentBp, fixed: m.fixed === undefined ? 0 : minorUnits(m.fixed, this.core.currency, `${tier}: fixed`) };
    }
    const rule = { step: minorUnits(input.step, this.core.currency, 'step'), tiers };
    const problem = marginRuleProblem(rule, this.core.currency.maxAmount);
    if (problem) throw new AppError('VALIDATION_ERROR', problem);
    return rule;
  }

  async create(scopeKind: MarginScope, scopeIdOrName: string, input: MarginRuleInput, actor: Actor): Promise<MarginRuleRow> {
    const rule = this.parse(input);
    return this.change(actor, async (repo, catalog, audit) => {
      const scopeId = await scopeOf(catalog, scopeKind, scopeIdOrName);
      if ((await repo.list({ scopeKind, scopeId })).length) throw new AppError('CONFLICT', `${scopeKind} "${scopeIdOrName}" already has a margin rule; change it with PUT /margin-rules/{id}`);
      const id = this.core.ids.uuid();
      await repo.insert({ id, scopeKind, scopeId, ...rule }, this.core.clock.now());
      const row = (await repo.byId(id))!;
      await audit({ action: 'margin_rule.create', targetKind: 'margin_rule', targetId: id, before: null, after: this.snapshot(row) });
      return row;
    });
  }

  /** Replaces the step and every tier's margin (the scope stays). */
  async update(id: string, input: MarginRuleInput, actor: Actor): Promise<MarginRuleRow> {
    const rule = this.parse(input);
    return this.change(actor, async (repo, _c, audit) => {
      const before = await repo.byId(id);
      if (!before) throw new AppError('NOT_FOUND', `no margin rule with id "${id}"`);
      await repo.update(id, rule, this.core.clock.now());
      const after = (await repo.byId(id))!;
      await audit({ action: 'margin_rule.update', targetKind: 'margin_rule', targetId: id, before: this.snapshot(before), after: this.snapshot(after) });
      return after;
    });
  }

  async delete(id: string, actor: Actor): Promise<void> {
    await this.change(actor, async (repo, _c, audit) => {
      const before = await repo.byId(id);
      if (!before) throw new AppError('NOT_FOUND', `no margin rule with id "${id}"`);
      await repo.delete(id);
      await audit({ action: 'margin_rule.delete', targetKind: 'margin_rule', targetId: id, before: this.snapshot(before), after: null });
    });
  }

  /** As the audit log and the API show a rule: amounts in major units. */
  snapshot(r: MarginRuleRow) {
    const d = this.core.currency.decimals;
    const tiers: Partial<Record<MarginTier, { percent_bp: number; fixed: number }>> = {};
    for (const t of MARGIN_TIERS) if (r.tiers[t]) tiers[t] = { percent_bp: r.tiers[t]!.percentBp, fixed: toMajor(r.tiers[t]!.fixed, d) };
    return { scope: r.scopeKind, scope_id: r.scopeId, step: toMajor(r.step, d), tiers };
  }
}

/** A category by slug, or a catalog by id or (unique) name: the rule is stored by slug or catalog id. */
async function scopeOf(catalog: CatalogAdminRepo, kind: MarginScope, idOrName: string): Promise<string> {
  if (kind === 'category') {
    if (!(await catalog.category(idOrName))) throw new AppError('NOT_FOUND', `no category with slug "${idOrName}"`);
    return idOrName;
  }
  const k = (await catalog.catalog(idOrName)) ?? (await catalog.catalogByName(idOrName));
  if (!k) throw new AppError('NOT_FOUND', `no catalog with id or name "${idOrName}"`);
  return k.id;
}
