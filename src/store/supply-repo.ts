import type { BreakerState } from '../domain/supplier-breaker.js';
import type { Kysely } from 'kysely';
import { AVAILABILITY_FAILED_KEY } from './catalog-repo.js';
import type { DB } from './schema.js';
import { parseRouteOptions, type RouteOptions } from '../domain/route-options.js';

export interface LastRefresh {
  startedAt: number;
  finishedAt: number;
  availabilityCheckFailed: boolean;
}

/** Background supply facts: route availability and whether the last refresh could run. */
export class SupplyRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async enabledSuppliers() {
    return this.db.selectFrom('suppliers').select(['id', 'name', 'adapter']).where('enabled', '=', 1).orderBy('name').execute();
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

  async insertRoute(r: { id: string; productCode: string; supplierId: string; sku: string; cost: number; priority: number; enabled?: boolean; options?: RouteOptions }, now: number) {
    await this.db
      .insertInto('product_routes')
      .values({ id: r.id, product_code: r.productCode, supplier_id: r.supplierId, supplier_sku: r.sku, cost: r.cost, priority: r.priority, enabled: r.enabled === false ? 0 : 1, created_at: now, options: optionsJson(r.options) })
      .execute();
  }

  /** The deposit as read: flagged (once, keeping the first time) below the threshold, unflagged at or above it. */
  async recordBalance(supplierId: string, balance: number, now: number) {
    await this.db
      .updateTable('suppliers')
      .set((eb) => ({
        balance, balance_checked_at: now,
        balance_flagged_at: eb.case().when(eb.and([eb('balance_threshold', 'is not', null), eb('balance_threshold', '>', balance)])).then(eb.fn.coalesce('balance_flagged_at', eb.val(now))).else(null).end(),
      }))
      .where('id', '=', supplierId)
      .execute();
  }

  /** An order was refused for a short deposit: flagged until a read deposit is at or above the threshold. */
  async flagBalance(supplierId: string, now: number) {
    await this.db.updateTable('suppliers').set((eb) => ({ balance_flagged_at: eb.fn.coalesce('balance_flagged_at', eb.val(now)) })).where('id', '=', supplierId).execute();
  }

  /** The price list as last synced, by SKU (a supplier's list: hundreds to a few thousand rows). */
  async syncedSkus(supplierId: string) {
    const rows = await this.db.selectFrom('supplier_skus').selectAll().where('supplier_id', '=', supplierId).orderBy('sku').execute();
    return rows.map((r) => ({ sku: r.sku, name: r.name, category: r.category, brand: r.brand, cost: Number(r.cost), buyable: Number(r.buyable) === 1, cutOff: r.cut_off, syncedAt: Number(r.synced_at) }));
  }

  async setBelowCostPolicy(supplierId: string, policy: 'reprice' | 'disable_route') {
    await this.db.updateTable('suppliers').set({ below_cost_policy: policy }).where('id', '=', supplierId).execute();
  }

  async setBalanceThreshold(supplierId: string, threshold: number | null) {
    await this.db.updateTable('suppliers').set({ balance_threshold: threshold }).where('id', '=', supplierId).execute();
  }

  /** null: the check ran but could not tell for this route (it counts as available, spec status rule 2). */
  async setRouteAvailability(routeId: string, available: boolean | null, now: number) {
    await this.db.updateTable('product_routes').set({ available: available === null ? null : available ? 1 : 0, checked_at: now }).where('id', '=', routeId).execute();
  }

  /** Kept in a table of its own (migration 016): a system_state write would invalidate the catalog cache. */
  async setLastRefresh(r: LastRefresh) {
    const values = { started_at: r.startedAt, finished_at: r.finishedAt, availability_check_failed: r.availabilityCheckFailed ? 1 : 0 };
    await this.db.insertInto('supply_refresh').values({ name: 'last', ...values }).onConflict((oc) => oc.column('name').doUpdateSet(values)).execute();
  }

  /** null until the first refresh of this store. */
  async lastRefresh(): Promise<LastRefresh | null> {
    const row = await this.db.selectFrom('supply_refresh').selectAll().where('name', '=', 'last').executeTakeFirst();
    return row ? { startedAt: Number(row.started_at), finishedAt: Number(row.finished_at), availabilityCheckFailed: Number(row.availability_check_failed) === 1 } : null;
  }

  async setAvailabilityCheckFailed(failed: boolean) {
    if (!failed) {
      await this.db.deleteFrom('system_state').where('key', '=', AVAILABILITY_FAILED_KEY).execute();
      return;
    }
    await this.db.insertInto('system_state').values({ key: AVAILABILITY_FAILED_KEY, value: '1' }).onConflict((oc) => oc.column('key').doNothing()).execute();
  }

  /** Every supplier with its health, for the operator; never the sealed credentials. */
  async listSuppliers(idOrName?: string) {
    let q = this.db
      .selectFrom('suppliers as s')
      .leftJoin('supplier_health as h', 'h.supplier_id', 's.id')
      .select(['s.id', 's.name', 's.adapter', 's.enabled', 's.status', 's.created_at', 'h.consecutive_failures', 'h.last_error', 'h.updated_at as health_updated_at'])
      .select(['h.breaker', 'h.breaker_reason', 'h.breaker_since', 'h.breaker_retry_at', 'h.probe_orders', 'h.probe_answers'])
      .select(['s.balance', 's.balance_checked_at', 's.balance_threshold', 's.balance_flagged_at', 's.below_cost_policy'])
      .select((eb) => eb.selectFrom('product_routes as r').whereRef('r.supplier_id', '=', 's.id').select(eb.fn.countAll<number>().as('n')).as('route_count'));
    if (idOrName !== undefined) q = q.where((eb) => eb.or([eb('s.id', '=', idOrName), eb('s.name', '=', idOrName)]));
    const rows = await q.orderBy('s.name').execute();
    return rows.map((r) => ({
      id: r.id, name: r.name, adapter: r.adapter, enabled: Number(r.enabled) === 1, status: r.status, createdAt: Number(r.created_at),
      consecutiveFailures: Number(r.consecutive_failures ?? 0), lastError: r.last_error ?? null,
      healthUpdatedAt: r.health_updated_at === null ? null : Number(r.health_updated_at), routeCount: Number(r.route_count ?? 0),
      balance: nullableNumber(r.balance), balanceCheckedAt: nullableNumber(r.balance_checked_at), balanceThreshold: nullableNumber(r.balance_threshold), balanceFlaggedAt: nullableNumber(r.balance_flagged_at),
      belowCostPolicy: r.below_cost_policy,
      breaker: {
        state: (r.breaker ?? 'closed') as BreakerState, reason: r.breaker_reason ?? null, since: nullableNumber(r.breaker_since), retryAt: nullableNumber(r.breaker_retry_at),
        probeOrders: Number(r.probe_orders ?? 0), probeAnswers: Number(r.probe_answers ?? 0),
      },
    }));
  }

  /** Routes with their supplier's name, by product (all products when absent), best first. */
  async listRoutes(filter: { productCode?: string; routeId?: string } = {}) {
    let q = this.db
      .selectFrom('product_routes as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .select(['r.id', 'r.product_code', 'r.supplier_id', 's.name as supplier_name', 'r.supplier_sku', 'r.cost', 'r.priority', 'r.enabled', 'r.available', 'r.checked_at', 'r.created_at', 'r.options']);
    if (filter.productCode !== undefined) q = q.where('r.product_code', '=', filter.productCode);
    if (filter.routeId !== undefined) q = q.where('r.id', '=', filter.routeId);
    const rows = await q.orderBy('r.product_code').orderBy('r.priority').orderBy('r.id').execute();
    return rows.map((r) => ({
      id: r.id, productCode: r.product_code, supplierId: r.supplier_id, supplierName: r.supplier_name, sku: r.supplier_sku, cost: Number(r.cost),
      priority: Number(r.priority), enabled: Number(r.enabled) === 1, available: r.available === null ? null : Number(r.available) === 1,
      checkedAt: r.checked_at === null ? null : Number(r.checked_at), createdAt: Number(r.created_at), options: parseRouteOptions(r.options),
    }));
  }

  /** Routes to sandbox-adapter suppliers (whose behaviour the sandbox switches set), by product. */
  async sandboxRoutes(productCode?: string) {
    let q = this.db
      .selectFrom('product_routes as r')
      .innerJoin('suppliers as s', 's.id', 'r.supplier_id')
      .select(['r.product_code', 'r.supplier_sku'])
      .where('s.adapter', '=', 'sandbox');
    if (productCode !== undefined) q = q.where('r.product_code', '=', productCode);
    const rows = await q.orderBy('r.product_code').orderBy('r.supplier_sku').distinct().execute();
    return rows.map((r) => ({ productCode: r.product_code, sku: r.supplier_sku }));
  }

  async routeExists(productCode: string, supplierId: string, sku: string, exceptId?: string): Promise<boolean> {
    let q = this.db.selectFrom('product_routes').select('id').where('product_code', '=', productCode).where('supplier_id', '=', supplierId).where('supplier_sku', '=', sku);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async updateRoute(id: string, patch: { supplier_sku?: string; cost?: number; priority?: number; enabled?: number; options?: string | null }) {
    await this.db.updateTable('product_routes').set(patch).where('id', '=', id).execute();
  }

  async deleteRoute(id: string) {
    await this.db.deleteFrom('product_routes').where('id', '=', id).execute();
  }
}

const nullableNumber = (v: number | string | null) => (v === null ? null : Number(v));

/** Stored options: null when there are none. */
export function optionsJson(o: RouteOptions | undefined): string | null {
  return o && Object.keys(o).length > 0 ? JSON.stringify(o) : null;
}
