/**
 * What a gateway transaction status means for a deposit (Midtrans: ../shared/payments/midtrans.md).
 * Paid is `settlement`, or `capture` with fraud_status `accept`; never `pending`, `challenge`
 * or `authorize`.
 */
export type GatewayVerdict = 'pending' | 'paid' | 'failed' | 'expired' | 'cancelled' | 'refunded' | 'unknown';

export function gatewayVerdict(transactionStatus: string | null | undefined, fraudStatus?: string | null): GatewayVerdict {
  switch (transactionStatus) {
    case 'settlement': return 'paid';
    case 'capture': return fraudStatus === 'accept' ? 'paid' : fraudStatus === 'deny' ? 'failed' : 'pending';
    case 'pending': case 'authorize': return 'pending';
    case 'deny': case 'failure': return 'failed';
    case 'expire': return 'expired';
    case 'cancel': return 'cancelled';
    case 'refund': case 'partial_refund': return 'refunded';
    default: return 'unknown';
  }
}

/**
 * How far along a payment is: pending < final (paid or closed) < refunded. A notification
 * is confirmed by the status API when the status is at least as far along and, for a final
 * notification, the same final verdict; a late `pending` after a `settlement` is stale, not
 * a disagreement.
 */
const STAGE: Record<GatewayVerdict, number> = { unknown: -1, pending: 0, paid: 1, failed: 1, expired: 1, cancelled: 1, refunded: 2 };

export function statusConfirms(notified: GatewayVerdict, confirmed: GatewayVerdict): boolean {
  if (confirmed === 'unknown') return false;
  if (STAGE[confirmed] !== STAGE[notified]) return STAGE[confirmed] > STAGE[notified];
  return notified === confirmed;
}

/**
 * An IDR amount as the gateway writes it ("100000.00", or a bare integer) in whole rupiah,
 * or null when it is not a whole non-negative amount.
 */
export function parseGrossAmount(v: unknown): number | null {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string') return null;
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m || (m[2] !== undefined && Number(m[2]) !== 0)) return null;
  return Number(m[1]);
}
