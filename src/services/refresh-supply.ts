import type { Logger } from 'pino';
import type { FulfilmentRepo } from '../store/fulfilment-repo.js';
import type { SupplyRepo } from '../store/supply-repo.js';
import type { SupplierResolver } from './fulfil-order.js';
import type { Clock } from './ports.js';

/** What one refresh found: each enabled supplier's health and whether every availability check ran. */
export interface RefreshResult {
  startedAt: number;
  finishedAt: number;
  suppliers: { id: string; name: string; health: 'up' | 'down' | 'maintenance' }[];
  routesChecked: number;
  /** Some supplier's whole check could not run: every product is then reported active (spec, status rule 2). */
  availabilityCheckFailed: boolean;
}

/**
 * Refreshes what GET /products and the supplier gate read: each supplier's health and each
 * route's availability. If a supplier's availability check cannot run, the refresh records
 * that, and every product is then reported active (spec: status rule 2). A check that runs
 * but cannot tell one SKU (null) leaves that route unknown, which counts as available: the
 * same rule, for that product alone. The time of the last refresh is kept for the operator.
 */
export class RefreshSupply {
  constructor(private readonly deps: { supply: SupplyRepo; fulfilment: FulfilmentRepo; suppliers: SupplierResolver; clock: Clock; logger: Logger }) {}

  async run(): Promise<RefreshResult> {
    const { supply, fulfilment, suppliers, clock, logger } = this.deps;
    const startedAt = clock.now();
    const health: RefreshResult['suppliers'] = [];
    for (const s of await supply.enabledSuppliers()) {
      let state: 'up' | 'down' | 'maintenance';
      // A check that throws says why (the adapter names the cause: e.g. our IP not whitelisted).
      let why = 'unreachable';
      try {
        state = await suppliers({ supplierId: s.id, adapter: s.adapter }).health();
      } catch (e) {
        state = 'down';
        why = (e as Error).message;
      }
      health.push({ id: s.id, name: s.name, health: state });
      // Maintenance is the supplier's own word and closes the gate at once; an unreachable
      // supplier only counts one more failure, so a single blip never refuses orders.
      if (state === 'up') await fulfilment.recordSupplierResult(s.id, true, null, clock.now());
      else if (state === 'maintenance') await fulfilment.markSupplierUnavailable(s.id, state, clock.now());
      else await fulfilment.recordSupplierResult(s.id, false, `health check: ${why}`, clock.now());
    }
    let checkFailed = false;
    let routesChecked = 0;
    const bySupplier = new Map<string, Awaited<ReturnType<SupplyRepo['enabledRoutes']>>>();
    for (const r of await supply.enabledRoutes()) bySupplier.set(r.supplier_id, [...(bySupplier.get(r.supplier_id) ?? []), r]);
    for (const [supplierId, routes] of bySupplier) {
      try {
        const available = await suppliers({ supplierId, adapter: routes[0]!.adapter }).available(routes.map((r) => r.supplier_sku));
        for (const r of routes) {
          const a = available.get(r.supplier_sku);
          await supply.setRouteAvailability(r.id, a === undefined ? false : a, clock.now());
          routesChecked++;
        }
      } catch (err) {
        checkFailed = true;
        logger.warn({ supplierId, err: (err as Error).message }, 'availability check could not run');
      }
    }
    await supply.setAvailabilityCheckFailed(checkFailed);
    const result: RefreshResult = { startedAt, finishedAt: clock.now(), suppliers: health, routesChecked, availabilityCheckFailed: checkFailed };
    await supply.setLastRefresh({ startedAt, finishedAt: result.finishedAt, availabilityCheckFailed: checkFailed });
    return result;
  }
}
