import type { OrderRecord } from '../../domain/order.js';
import type { CallbacksRepo } from '../../store/callbacks-repo.js';
import type { LedgerEntry } from '../../store/ledger-repo.js';

type CallbackLog = Awaited<ReturnType<CallbacksRepo['log']>>;

export type TimelineEvent =
  | 'placed' | 'debited' | 'refunded_to_wallet' | 'succeeded' | 'failed' | 'refunded'
  | 'callback_round' | 'callback_attempt';

/** What an event's sentence is made of, so an app can say it in its reader's language. */
export interface TimelineParams {
  product_code?: string; target?: string; zone?: string | null; ref_id?: string;
  /** Money as the API presents it (major units). */
  amount?: number | string; balance_after?: number | string; note?: string | null;
  serial_number?: string | null; failure_code?: string | null; failure_reason?: string | null;
  round?: number; status?: string; attempts?: number; attempt?: number;
  http_status?: number | null; error?: string | null; duration_ms?: number;
}

export interface TimelineItem { at: number; event: TimelineEvent; detail: string; params: TimelineParams }

/**
 * What happened to an order, oldest first, from what the store already holds: the order's
 * own times, its ledger entries, and every callback round and attempt. `money` writes an
 * amount of minor units as the API presents money (major units).
 */
export function orderTimeline(order: OrderRecord, ledger: LedgerEntry[], deliveries: CallbackLog, money: (minor: number) => number | string = String): TimelineItem[] {
  const items: TimelineItem[] = [{
    at: order.createdAt, event: 'placed', detail: `${order.productCode} for ${order.target}${order.zone ? ` (${order.zone})` : ''}, ref_id ${order.refId}`,
    params: { product_code: order.productCode, target: order.target, zone: order.zone, ref_id: order.refId },
  }];
  for (const e of ledger) {
    if (e.type === 'order_debit') {
      items.push({ at: e.createdAt, event: 'debited', detail: `wallet debited ${money(-e.amount)}; balance ${money(e.balanceAfter)}`, params: { amount: money(-e.amount), balance_after: money(e.balanceAfter) } });
    }
    if (e.type === 'order_refund') {
      items.push({
        at: e.createdAt, event: 'refunded_to_wallet', detail: `wallet credited ${money(e.amount)}; balance ${money(e.balanceAfter)}${e.note ? ` (${e.note})` : ''}`,
        params: { amount: money(e.amount), balance_after: money(e.balanceAfter), note: e.note ?? null },
      });
    }
  }
  if (order.completedAt !== null) {
    if (order.status === 'success') items.push({ at: order.completedAt, event: 'succeeded', detail: order.serialNumber ? `serial ${order.serialNumber}` : 'delivered', params: { serial_number: order.serialNumber } });
    if (order.status === 'failed') {
      items.push({
        at: order.completedAt, event: 'failed', detail: [order.failureCode, order.failureReason].filter(Boolean).join(': ') || 'failed',
        params: { failure_code: order.failureCode, failure_reason: order.failureReason },
      });
    }
    if (order.status === 'refunded') items.push({ at: order.completedAt, event: 'refunded', detail: 'refunded by the operator', params: {} });
  }
  for (const d of deliveries) {
    items.push({
      at: Number(d.created_at), event: 'callback_round', detail: `callback round ${d.round} opened (${d.status}, ${d.attempts} attempt${d.attempts === 1 ? '' : 's'})`,
      params: { round: d.round, status: d.status, attempts: d.attempts },
    });
    for (const a of d.attempt_log) {
      const outcome = a.http_status !== null ? `HTTP ${a.http_status}` : (a.error ?? 'no answer');
      items.push({
        at: Number(a.started_at), event: 'callback_attempt', detail: `round ${d.round} attempt ${a.attempt}: ${outcome} in ${a.duration_ms} ms`,
        params: { round: d.round, attempt: a.attempt, http_status: a.http_status, error: a.error ?? null, duration_ms: a.duration_ms },
      });
    }
  }
  // Stable: events of the same millisecond keep the order they were listed in.
  return items.map((x, i) => ({ x, i })).sort((p, q) => p.x.at - q.x.at || p.i - q.i).map((p) => p.x);
}
