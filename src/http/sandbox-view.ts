import type { SandboxSwitches } from '../adapters/suppliers/sandbox.js';

/**
 * The sandbox switches as the operator API names them (GET /admin/v1/sandbox); the CLI's
 * `topup sandbox` prints the same. No schema library here: the CLI loads it.
 */
export function sandboxView(s: SandboxSwitches, products: { productCode: string; sku: string; outOfStock: boolean; availabilityBroken: boolean }[]) {
  return {
    mode: s.mode, out_of_stock: s.outOfStock, availability: s.availabilityBroken ? 'broken' as const : 'ok' as const, broken_availability: s.brokenAvailability,
    products: products.map((p) => ({
      product_code: p.productCode, sku: p.sku, out_of_stock: p.outOfStock, availability_check: p.availabilityBroken ? 'broken' as const : 'ok' as const,
    })),
  };
}
