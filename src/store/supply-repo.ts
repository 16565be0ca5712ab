import type { Kysely } from 'kysely';
import { AVAILABILITY_FAILED_KEY } from './catalog-repo.js';
import type { DB } from './schema.js';

/** Background supply facts: route availability and whether the last refresh could run. */
export class SupplyRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async enabledSuppliers() {
    return this.db.selectFrom('suppliers').select(['id', 'name', 'adapter']).where('enabled', '=', 1).execute();
  }

  async enabledRoutes() {
    return this.db
      .selectFrom('product_routes as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .select(['r.id', 'r.supplier_sku', 's.id as supplier_id', 's.adapter'])
      .where('r.enabled', '=', 1)
      .where('s.enabled', '=', 1)
      .execute();
  }

  async supplierByName(name: string) {
    return this.db.selectFrom('suppliers').select(['id', 'name', 'adapter']).where('name', '=', name).executeTakeFirst();
  }

  async updateSupplier(id: string, patch: { enabled?: number; status?: 'active' | 'maintenance' }) {
    await this.db.updateTable('suppliers').set(patch).where('id', '=', id).execute();
  }

  async productExists(code: string): Promise<boolean> {
    return (await this.db.selectFrom('products').select('code').where('code', '=', code).executeTakeFirst()) !== undefined;
  }

  async insertSupplier(s: { id: string; name: string; adapter: string; credentialsEnc: string | null }, now: number) {
    await this.db.insertInto('suppliers').values({ id: s.id, name: s.name, adapter: s.adapter, enabled: 1, status: 'active', credentials_enc: s.credentialsEnc, created_at: now }).execute();
  }

  async insertRoute(r: { id: string; productCode: string; supplierId: string; sku: string; cost: number; priority: number }, now: number) {
    await this.db
      .insertInto('product_routes')
      .values({ id: r.id, product_code: r.productCode, supplier_id: r.supplierId, supplier_sku: r.sku, cost: r.cost, priority: r.priority, enabled: 1, created_at: now })
      .execute();
  }

  async setRouteAvailability(routeId: string, available: boolean, now: number) {
    await this.db.updateTable('product_routes').set({ available: available ? 1 : 0, checked_at: now }).where('id', '=', routeId).execute();
  }

  async setAvailabilityCheckFailed(failed: boolean) {
    if (!failed) {
      await this.db.deleteFrom('system_state').where('key', '=', AVAILABILITY_FAILED_KEY).execute();
      return;
    }
    await this.db.insertInto('system_state').values({ key: AVAILABILITY_FAILED_KEY, value: '1' }).onConflict((oc) => oc.column('key').doNothing()).execute();
  }
}
