import type { CatalogRepo } from '../store/catalog-repo.js';

/**
 * The supplier gate at order time: some enabled route must lead to a supplier that is
 * accepting orders (enabled, not in maintenance, not failing several times in a row).
 */
export class SupplierGate {
  constructor(private readonly catalog: CatalogRepo) {}

  accepting(productCode: string): Promise<boolean> {
    return this.catalog.hasAcceptingRoute(productCode);
  }
}
