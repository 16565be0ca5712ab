/**
 * A supplier's circuit breaker (docs/suppliers/digiflazz.md, "Supplier health"):
 * - closed: orders are taken and sent;
 * - open: the gate refuses new orders for the supplier's products and nothing new is sent
 *   there (orders already sent are still asked about); after the cool-down a probe runs;
 * - half_open: the balance call answered; new orders are taken again and a limited number
 *   of them is sent: that many definite answers close the breaker, one failure re-opens it.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

export const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half_open'];

export interface BreakerSettings {
  /** Transport failures or unknown outcomes in a row that open the breaker. */
  failuresToOpen: number;
  /** How long an open breaker waits before its probe. */
  cooldownMs: number;
  /** Real orders a half-open breaker lets through; as many definite answers close it. */
  probeOrders: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failuresToOpen: 3, cooldownMs: 30_000, probeOrders: 3 };

/** Why the breaker is in its state, for the operator (one wording, one place). */
export const breakerReason = {
  failures: (n: number, error: string | null) => `${n} failures or unknown outcomes in a row; the last: ${error ?? 'no message'}`,
  supplierSays: (what: string) => `the supplier reports ${what}`,
  probeFailed: (error: string) => `probe failed: ${error}`,
  probeOrderFailed: (error: string | null) => `a probe order failed: ${error ?? 'no message'}`,
  halfOpen: (orders: number) => `the balance call answered; up to ${orders} orders go through as probes`,
  closed: (orders: number) => `${orders} probe orders answered`,
  reset: 'reset by an operator',
};
