import type { CacheVersions } from '../store/cache-versions.js';
import type { CatalogCache } from './catalog-cache.js';

/**
 * The supplier gate at order time: some enabled route must lead to a supplier that is
 * accepting orders (enabled, not in maintenance, its circuit breaker not open).
 */
export class SupplierGate {
  constructor(private readonly catalog: CatalogCache) {}

  accepting(productCode: string, versions?: CacheVersions): Promise<boolean> {
    return this.catalog.hasAcceptingRoute(productCode, versions);
  }
}
