/**
 * What services report for the operator's dashboards (Prometheus in production). A port:
 * services count and time through it; the composition root chooses prom-client or nothing,
 * so services stay testable without a registry. Label values are bounded sets (states,
 * error and failure codes, supplier ids, outcomes), never ids of orders or resellers.
 */
export interface Metrics {
  /** A POST /order answered by the service: `accepted`, or the error code it was refused with. */
  orderPlaced(result: string): void;
  /** An order reached a terminal state; `latencyMs` from its creation. */
  orderSettled(state: 'success' | 'failed', failureCode: string | null, latencyMs: number): void;
  /** One callback attempt: `delivered`, `retry` (will be tried again), `failed` (given up) or `skipped`. */
  callbackAttempt(outcome: 'delivered' | 'retry' | 'failed' | 'skipped'): void;
  /** One request to a supplier: the operation (submit, status, available, health, price_list) and its outcome. */
  supplierRequest(supplier: string, operation: string, outcome: string, ms: number): void;
}

const nothing = () => {};

/** Metrics off (METRICS_PORT=off, one-shot CLI commands, unit tests). */
export const noMetrics: Metrics = { orderPlaced: nothing, orderSettled: nothing, callbackAttempt: nothing, supplierRequest: nothing };
