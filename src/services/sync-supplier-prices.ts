import { sql, type Kysely } from 'kysely';
import type { PriceListItem } from '../adapters/suppliers/types.js';
import { AppError } from '../errors.js';
import { AuditRepo } from '../store/audit-repo.js';
import type { DB } from '../store/schema.js';
import { SupplyRepo } from '../store/supply-repo.js';
import type { SupplierResolver } from './fulfil-order.js';
import type { Actor } from './operator/actor.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';
import { actOnBelowCost, type BelowCostEntry } from './never-below-cost.js';
import type { PriceAt } from '../domain/below-cost.js';
import { MarginRepo } from '../store/margin-repo.js';

export interface SkuChange {
  sku: string;
  field: 'cost' | 'buyable' | 'cut_off' | 'name';
  before: string | number | boolean | null;
  after: string | number | boolean | null;
}

export interface SyncReport {
  supplierId: string;
  syncedAt: number;
  skus: number;
  added: string[];
  removed: string[];
  changed: SkuChange[];
  /** Enabled routes whose expected cost (max_price) followed their SKU's new cost. */
  costFollowed: { routeId: string; productCode: string; sku: string; before: number; after: number }[];
  /** Enabled routes whose SKU's cost reached a price of its product (never-below-cost.ts): repriced or taken out of service, by the supplier's policy. */
  belowCost: BelowCostEntry[];
}

const CHUNK = 200;

/**
 * Price-list sync: reads a supplier's whole price list, stores each SKU's cost, buyability
 * and cut-off window (`supplier_skus`), reports what changed since the last sync, makes
 * each enabled route's expected cost (the max_price sent with orders) the SKU's new cost,
 * so a rise is not refused at the supplier, and acts on every such route whose cost
 * reached a price of its product (never-below-cost.ts): the supplier gate and product
 * status follow. Everything commits with its audit lines.
 */
export class SyncSupplierPrices {
  constructor(private readonly deps: { db: Kysely<DB>; suppliers: SupplierResolver; clock: Clock; ids: IdGenerator; currency: CurrencySettings }) {}

  /** The scheduled sync: every enabled supplier that has a price list; one that cannot be read is reported, the others go on. */
  async runAll(actor: Actor): Promise<{ supplierId: string; report?: SyncReport; error?: string }[]> {
    const out: { supplierId: string; report?: SyncReport; error?: string }[] = [];
    for (const s of await new SupplyRepo(this.deps.db).enabledSuppliers()) {
      if (!this.deps.suppliers({ supplierId: s.id, adapter: s.adapter }).priceList) continue;
      try {
        out.push({ supplierId: s.id, report: await this.run(s.id, actor) });
      } catch (e) {
        out.push({ supplierId: s.id, error: (e as Error).message });
      }
    }
    return out;
  }

  async run(idOrName: string, actor: Actor): Promise<SyncReport> {
    const { db, clock } = this.deps;
    const [supplier] = await new SupplyRepo(db).listSuppliers(idOrName);
    if (!supplier) throw new AppError('NOT_FOUND', `no supplier with id or name "${idOrName}"`);
    const adapter = this.deps.suppliers({ supplierId: supplier.id, adapter: supplier.adapter });
    if (!adapter.priceList) throw new AppError('VALIDATION_ERROR', `supplier "${supplier.name}" (${supplier.adapter}) has no price list to sync`);
    let items: PriceListItem[];
    try {
      items = await adapter.priceList();
    } catch (e) {
      throw new AppError('SUPPLIER_UNAVAILABLE', `the price list of "${supplier.name}" could not be read: ${(e as Error).message}`);
    }
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const old = new Map((await trx.selectFrom('supplier_skus').selectAll().where('supplier_id', '=', supplier.id).execute()).map((r) => [r.sku, r]));
      const fresh = new Map(items.map((i) => [i.sku, i]));
      const report: SyncReport = { supplierId: supplier.id, syncedAt: now, skus: fresh.size, added: [], removed: [], changed: [], costFollowed: [], belowCost: [] };
      for (const [sku, i] of fresh) {
        const o = old.get(sku);
        if (!o) {
          report.added.push(sku);
          continue;
        }
        const pairs: [SkuChange['field'], string | number | boolean | null, string | number | boolean | null][] = [
          ['cost', Number(o.cost), i.cost], ['buyable', Number(o.buyable) === 1, i.buyable], ['cut_off', o.cut_off, i.cutOff], ['name', o.name, i.name],
        ];
        for (const [field, before, after] of pairs) if (before !== after) report.changed.push({ sku, field, before, after });
      }
      for (const sku of old.keys()) if (!fresh.has(sku)) report.removed.push(sku);
      for (let k = 0; k < report.removed.length; k += CHUNK) {
        await trx.deleteFrom('supplier_skus').where('supplier_id', '=', supplier.id).where('sku', 'in', report.removed.slice(k, k + CHUNK)).execute();
      }
      const rows = items.map((i) => ({ supplier_id: supplier.id, sku: i.sku, name: i.name, category: i.category, brand: i.brand, cost: i.cost, buyable: i.buyable ? 1 : 0, cut_off: i.cutOff, synced_at: now }));
      for (let k = 0; k < rows.length; k += CHUNK) {
        await trx
          .insertInto('supplier_skus')
          .values(rows.slice(k, k + CHUNK))
          .onConflict((oc) => oc.columns(['supplier_id', 'sku']).doUpdateSet({
            name: sql`excluded.name`, category: sql`excluded.category`, brand: sql`excluded.brand`, cost: sql`excluded.cost`,
            buyable: sql`excluded.buyable`, cut_off: sql`excluded.cut_off`, synced_at: sql`excluded.synced_at`,
          }))
          .execute();
      }
      const audit = (e: Parameters<typeof AuditRepo.record>[1]) => AuditRepo.record(trx, e, now);
      const routes = await trx
        .selectFrom('product_routes as r')
        .innerJoin('products as p', 'p.code', 'r.product_code')
        .select(['r.id', 'r.product_code', 'r.supplier_sku', 'r.cost', 'p.category_slug'])
        .where('r.supplier_id', '=', supplier.id)
        .where('r.enabled', '=', 1)
        .orderBy('r.product_code')
        .orderBy('r.id')
        .execute();
      const ctx = {
        supplierName: supplier.name, policy: supplier.belowCostPolicy, rules: await new MarginRepo(trx).byScope(), maxPrice: this.deps.currency.maxAmount,
        actor, now, newId: () => this.deps.ids.uuid(),
      };
      const codes = [...new Set(routes.filter((r) => fresh.has(r.supplier_sku)).map((r) => r.product_code))];
      const pricesOf = new Map<string, PriceAt[]>();
      for (let k = 0; k < codes.length; k += CHUNK) {
        const rows = await trx.selectFrom('catalog_prices').select(['product_code', 'catalog_id', 'tier', 'price']).where('product_code', 'in', codes.slice(k, k + CHUNK)).orderBy('catalog_id').orderBy('tier').execute();
        for (const p of rows) pricesOf.set(p.product_code, [...(pricesOf.get(p.product_code) ?? []), { catalogId: p.catalog_id, tier: p.tier, price: Number(p.price) }]);
      }
      const supply = new SupplyRepo(trx);
      for (const r of routes) {
        const item = fresh.get(r.supplier_sku);
        if (!item) continue;
        const route = { id: r.id, productCode: r.product_code, categorySlug: r.category_slug, sku: r.supplier_sku, cost: Number(r.cost) };
        const prices = pricesOf.get(r.product_code) ?? [];
        const entry = await actOnBelowCost(trx, ctx, route, item.cost, prices);
        if (item.cost !== route.cost) {
          await supply.updateRoute(route.id, { cost: item.cost });
          report.costFollowed.push({ routeId: route.id, productCode: route.productCode, sku: route.sku, before: route.cost, after: item.cost });
        }
        if (!entry) continue;
        report.belowCost.push(entry);
        // The product's next route here is judged on the prices as repriced.
        const after = (p: PriceAt) => entry.prices.find((c) => c.catalogId === p.catalogId && c.tier === p.tier)?.price ?? p.price;
        pricesOf.set(r.product_code, prices.map((p) => ({ ...p, price: after(p) })));
      }
      await audit({
        operatorId: actor, action: 'supplier.sync', targetKind: 'supplier', targetId: supplier.id, before: null,
        after: { skus: report.skus, added: report.added.length, removed: report.removed.length, changed: report.changed.length, route_costs_followed: report.costFollowed.length, routes_taken_out: report.belowCost.filter((b) => b.action === 'route_disabled').length, routes_repriced: report.belowCost.filter((b) => b.action === 'repriced').length },
      });
      return report;
    });
  }
}
