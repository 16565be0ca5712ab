import type { Logger } from 'pino';
import { breakerReason } from '../domain/supplier-breaker.js';
import type { SupplierBreakerRepo } from '../store/supplier-breaker-repo.js';
import type { SupplierResolver } from './fulfil-order.js';
import type { Clock } from './ports.js';

/**
 * The breaker's first probe, run by the worker on a schedule: for each supplier whose
 * breaker is open and whose cool-down has passed, the supplier's health check (Digiflazz:
 * the balance call). An answer makes the breaker half-open (real orders then finish the
 * probe); anything else opens it for another cool-down, with the cause as its reason.
 */
export class ProbeSuppliers {
  constructor(private readonly deps: { breaker: SupplierBreakerRepo; suppliers: SupplierResolver; clock: Clock; logger?: Logger }) {}

  async run(): Promise<void> {
    const { breaker, suppliers, clock, logger } = this.deps;
    for (const s of await breaker.due(clock.now())) {
      let failure: string | null;
      try {
        const state = await suppliers(s).health();
        failure = state === 'up' ? null : state === 'maintenance' ? 'the supplier reports maintenance' : 'the health check did not answer';
      } catch (e) {
        failure = (e as Error).message;
      }
      if (failure === null) await breaker.halfOpen(s.supplierId, clock.now());
      else await breaker.reopen(s.supplierId, breakerReason.probeFailed(failure), clock.now());
      logger?.info({ supplier_id: s.supplierId, probe: failure === null ? 'answered' : 'failed', err: failure ?? undefined }, 'supplier breaker probe');
    }
  }
}
