import type { Supplier } from '../adapters/suppliers/types.js';
import type { Metrics } from './metrics.js';
import type { SupplierResolver } from './fulfil-order.js';

/**
 * Every request to a supplier, counted and timed by supplier, operation and outcome (what
 * the answer said: its kind; `error` when it threw). One
 * wrapper per supplier, made once: a request costs two clock reads and one observe.
 */
export function meteredSuppliers(resolve: SupplierResolver, metrics: Metrics): SupplierResolver {
  // By supplier id: one adapter instance (the sandbox) may serve several suppliers.
  const wrapped = new Map<string, { inner: Supplier; outer: Supplier }>();
  return (route) => {
    const inner = resolve(route);
    let w = wrapped.get(route.supplierId);
    if (w?.inner !== inner) {
      w = { inner, outer: metered(inner, route.supplierId, metrics) };
      wrapped.set(route.supplierId, w);
    }
    return w.outer;
  };
}

function metered(s: Supplier, supplier: string, metrics: Metrics): Supplier {
  async function time<T>(operation: string, call: () => Promise<T>, outcome: (r: T) => string): Promise<T> {
    const start = performance.now();
    try {
      const r = await call();
      metrics.supplierRequest(supplier, operation, outcome(r), performance.now() - start);
      return r;
    } catch (e) {
      metrics.supplierRequest(supplier, operation, 'error', performance.now() - start);
      throw e;
    }
  }
  const ok = () => 'ok';
  const priceList = s.priceList?.bind(s);
  return {
    submit: (req) => time('submit', () => s.submit(req), (r) => r.kind),
    status: (ref, order) => time('status', () => s.status(ref, order), (r) => r.kind),
    available: (skus) => time('available', () => s.available(skus), ok),
    health: () => time('health', () => s.health(), (r) => r),
    ...(priceList ? { priceList: () => time('price_list', priceList, ok) } : {}),
  };
}
