import type { OperatorRole } from './operator-roles.js';

/**
 * Operator alerts (issue 40): what the platform tells its operator without being asked.
 * Each alert belongs to an episode (a supplier's deposit fell below its threshold at a given
 * time; a supplier's gate closed at a given time; attention items piled up on a given day)
 * and its key names the episode, so an alert goes out once per episode however often the
 * scan runs and however many servers run it: repeats are grouped, never sent per order.
 * Pure: the scan passes what the store holds and what was told before.
 */
export type AlertKind = 'supplier_balance_low' | 'supplier_gate_closed' | 'supplier_gate_reopened' | 'attention_piling' | 'deposits_unmatched';

export interface Alert {
  /** The episode: one alert per key, ever. */
  key: string;
  kind: AlertKind;
  /** What the sentence is made of (names, amounts already formatted, counts). */
  params: Record<string, string | number>;
  /** The console page that resolves it. */
  path: string;
}

export interface SupplierState {
  id: string;
  name: string;
  enabled: boolean;
  /** Formatted with the currency (the scan formats; the rule does not compute with it). */
  balance: string | null;
  threshold: string | null;
  /** Set when the balance fell below the threshold, cleared when it is back above. */
  balanceFlaggedAt: number | null;
  breaker: string;
  breakerSince: number | null;
  breakerReason: string | null;
}

export interface AlertSnapshot {
  suppliers: SupplierState[];
  openAttention: number;
  /** Deposit money no ticket matched, waiting for an operator: how much and since when. */
  unmatched: { count: number; oldestAt: number | null };
}

export interface AlertSettings {
  /** Open attention items from which the operator is told (once a day while they stay). */
  attentionCount: number;
  /** Unmatched deposit money older than this is told (once per oldest mutation). */
  unmatchedAfterMs: number;
}

/** Who is told what: the roles that can act on it (an owner can act on all). */
export const ALERT_ROLES: Record<AlertKind, readonly OperatorRole[]> = {
  supplier_balance_low: ['owner', 'finance'],
  supplier_gate_closed: ['owner', 'catalog'],
  supplier_gate_reopened: ['owner', 'catalog'],
  attention_piling: ['owner', 'catalog', 'support'],
  deposits_unmatched: ['owner', 'finance'],
};

const DAY_MS = 86_400_000;

/**
 * The alerts due now, and the gates told closed after this scan (supplier id → the
 * `since` of the closing told). A gate is told closed when its breaker is open and told
 * re-opened only once it is fully closed again: a half-open breaker that fails its probe
 * is the same episode, not a new one.
 */
export function dueAlerts(s: AlertSnapshot, toldClosed: ReadonlyMap<string, number>, settings: AlertSettings, now: number): { alerts: Alert[]; toldClosed: Map<string, number> } {
  const alerts: Alert[] = [];
  const told = new Map(toldClosed);
  for (const sup of s.suppliers) {
    const path = '/admin/supply';
    if (sup.balanceFlaggedAt !== null && sup.enabled) {
      alerts.push({ key: `supplier_balance_low:${sup.id}:${sup.balanceFlaggedAt}`, kind: 'supplier_balance_low', params: { supplier: sup.name, balance: sup.balance ?? '?', threshold: sup.threshold ?? '?' }, path });
    }
    const since = told.get(sup.id);
    if (sup.breaker === 'open' && sup.enabled && since === undefined) {
      const at = sup.breakerSince ?? now;
      alerts.push({ key: `supplier_gate_closed:${sup.id}:${at}`, kind: 'supplier_gate_closed', params: { supplier: sup.name, reason: sup.breakerReason ?? '' }, path });
      told.set(sup.id, at);
    } else if (since !== undefined && (sup.breaker === 'closed' || !sup.enabled)) {
      if (sup.enabled) alerts.push({ key: `supplier_gate_reopened:${sup.id}:${since}`, kind: 'supplier_gate_reopened', params: { supplier: sup.name }, path });
      told.delete(sup.id);
    }
  }
  // Suppliers gone from the store: nothing to re-open.
  for (const id of [...told.keys()]) if (!s.suppliers.some((x) => x.id === id)) told.delete(id);
  if (settings.attentionCount > 0 && s.openAttention >= settings.attentionCount) {
    alerts.push({ key: `attention_piling:${Math.floor(now / DAY_MS)}`, kind: 'attention_piling', params: { count: s.openAttention }, path: '/admin/attention' });
  }
  if (s.unmatched.count > 0 && s.unmatched.oldestAt !== null && now - s.unmatched.oldestAt >= settings.unmatchedAfterMs) {
    alerts.push({ key: `deposits_unmatched:${s.unmatched.oldestAt}`, kind: 'deposits_unmatched', params: { count: s.unmatched.count, minutes: Math.floor((now - s.unmatched.oldestAt) / 60_000) }, path: '/admin/deposits' });
  }
  return { alerts, toldClosed: told };
}
