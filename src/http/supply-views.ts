import type { SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import { toMajor } from '../domain/money.js';
import type { SyncReport } from '../services/sync-supplier-prices.js';

/** Supply results as the operator API names them; the CLI's --json prints the same. No schema library here: the CLI loads this. */

/** GET /admin/v1/sandbox, `topup sandbox`. */
export function sandboxView(s: SandboxSwitches, products: { productCode: string; sku: string; outOfStock: boolean; availabilityBroken: boolean }[]) {
  return {
    mode: s.mode, out_of_stock: s.outOfStock, availability: s.availabilityBroken ? 'broken' as const : 'ok' as const, broken_availability: s.brokenAvailability,
    products: products.map((p) => ({
      product_code: p.productCode, sku: p.sku, out_of_stock: p.outOfStock, availability_check: p.availabilityBroken ? 'broken' as const : 'ok' as const,
    })),
  };
}

/** POST /admin/v1/suppliers/:id/sync, `topup supplier-sync`. */
export function priceSyncView(r: SyncReport, decimals: number) {
  return {
    supplier_id: r.supplierId, synced_at: new Date(r.syncedAt).toISOString(), skus: r.skus, added: r.added, removed: r.removed,
    changed: r.changed.map((c) => (c.field === 'cost' ? { ...c, before: toMajor(Number(c.before), decimals), after: toMajor(Number(c.after), decimals) } : c)),
    cost_followed: r.costFollowed.map((c) => ({ route_id: c.routeId, product_code: c.productCode, sku: c.sku, before: toMajor(c.before, decimals), after: toMajor(c.after, decimals) })),
    below_cost: r.belowCost.map((b) => ({
      route_id: b.routeId, product_code: b.productCode, sku: b.sku, cost: toMajor(b.cost, decimals), lowest_price: toMajor(b.lowestPrice, decimals), reached: b.reached, action: b.action, reason: b.reason,
      prices: b.prices.map((p) => ({ catalog_id: p.catalogId, tier: p.tier, before: toMajor(p.before, decimals), after: toMajor(p.price, decimals) })),
    })),
  };
}
