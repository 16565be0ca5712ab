import type { ImportPlan } from '../services/import-supplier-skus.js';
import { CLI_ACTOR } from '../services/operator/actor.js';
import { output, parseArgs, withPlatform, type CommandModule } from './support.js';

/**
 * Imports supplier SKUs as products: a preview by default (nothing changes); with --apply
 * the plan just previewed is applied (refused if a sync changed a cost in between).
 */
async function supplierImport(args: string[]) {
  const { positional: [supplier], flags, json } = parseArgs<[string]>('supplier-import', args);
  const apply = flags.apply === 'true';
  const input = { supplier, skus: flags.sku!.split(',').map((s) => s.trim()).filter(Boolean), category: flags.category!, catalog: flags.catalog ?? null, customerNo: flags['customer-no'] ?? null };
  await withPlatform(async (p) => {
    const preview = await p.operator.imports.preview(input);
    const plan = apply ? await p.operator.imports.apply(input, preview.previewToken, CLI_ACTOR) : preview;
    output(json, { applied: apply, ...plan }, `${describe(plan)}\n${apply ? 'applied' : 'preview only: nothing changed (add --apply to import)'}`);
  });
}

function describe(plan: ImportPlan): string {
  const tiers = (p: ImportPlan['lines'][number]['prices']) => `gold ${p.gold ?? '-'}, platinum ${p.platinum ?? '-'}, diamond ${p.diamond ?? '-'}`;
  return plan.lines.map((l) => [
    `${l.sku}: ${l.action} product ${l.product.code} "${l.product.name}" (${l.product.categorySlug}); route cost ${l.cost ?? '-'}${l.route.costBefore !== null ? ` (was ${l.route.costBefore})` : ''}`,
    `  prices: ${tiers(l.prices)}${l.rule ? ` by the ${l.rule.scope} rule` : ''}`,
    ...(l.route.customerNo !== l.route.customerNoBefore || (l.action === 'create' && l.route.customerNo !== null) ? [`  customer_no: ${l.route.customerNo ?? '{target}'}`] : []),
    ...(l.warnings.length ? [`  warnings: ${l.warnings.join(', ')}`] : []),
    ...(l.error ? [`  error: ${l.error}`] : []),
  ].join('\n')).join('\n');
}

/** What a price-list sync does with a route whose cost reached a price of its product. */
async function supplierBelowCost(args: string[]) {
  const { positional: [supplier, policy], json } = parseArgs<[string, string]>('supplier-below-cost', args);
  await withPlatform(async (p) => {
    const s = await p.operator.supply.setBelowCostPolicy(supplier, policy, CLI_ACTOR);
    output(json, { supplier_id: s.id, name: s.name, below_cost_policy: s.belowCostPolicy }, `supplier ${s.name}: below-cost policy ${s.belowCostPolicy}`);
  });
}

export const pricingCommands: CommandModule = {
  'supplier-import': supplierImport,
  'supplier-below-cost': supplierBelowCost,
};
