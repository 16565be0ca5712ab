import { sign } from '../../domain/signature.js';
import type { FailureCode } from '../../domain/failure.js';
import type { SubmitRequest, Supplier, SupplierAnswer } from './types.js';

export interface UpstreamV1Credentials {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

const KNOWN_CODES: readonly string[] = [
  'NO_SUPPLIER_AVAILABLE', 'PRODUCT_UNAVAILABLE', 'SUPPLIER_MAINTENANCE', 'SUPPLIER_UNREACHABLE', 'SUPPLIER_REJECTED',
  'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT', 'WDP_LIMIT_LIKELY',
];

type Answer = { kind: 'response'; status: number; body: any } | { kind: 'refused'; message: string } | { kind: 'ambiguous'; message: string };

/**
 * An upstream that speaks this very API v1 (one installation sourcing from another, as
 * sub-resellers do). The attempt's reference is its ref_id, so DUPLICATE_REF_ID on a
 * repeated submit means "you already have it" and status queries find it after a crash.
 */
export class UpstreamV1Supplier implements Supplier {
  private creds: Promise<UpstreamV1Credentials> | null = null;

  constructor(
    private readonly loadCredentials: () => Promise<UpstreamV1Credentials>,
    private readonly timeoutMs = 10_000,
  ) {}

  private credentials() {
    this.creds ??= this.loadCredentials().catch((e) => {
      this.creds = null;
      throw e;
    });
    return this.creds;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const c = await this.credentials();
    const ts = String(Date.now());
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = { 'x-api-key': c.apiKey, 'x-timestamp': ts, 'x-signature': sign(c.apiSecret, ts, text) };
    if (text) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${c.baseUrl.replace(/\/$/, '')}${path}`, { method, headers, body: text || undefined, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
      const json = await res.json().catch(() => null);
      return { kind: 'response', status: res.status, body: json };
    } catch (e) {
      const code = (e as { cause?: { code?: string } }).cause?.code;
      // Refused or unresolvable before a byte was sent: certainly not taken.
      if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'refused', message: code };
      return { kind: 'ambiguous', message: (e as Error).name === 'TimeoutError' ? 'upstream timed out' : (e as Error).message };
    }
  }

  async submit(req: SubmitRequest): Promise<SupplierAnswer> {
    const body: Record<string, string> = { ref_id: req.reference, product_code: req.sku, target: req.target };
    if (req.zone) body.zone = req.zone;
    const a = await this.call('POST', '/order', body);
    if (a.kind === 'refused') return { kind: 'refused', code: 'SUPPLIER_UNREACHABLE', message: a.message };
    if (a.kind === 'ambiguous') return { kind: 'unknown', message: a.message };
    const error: string | undefined = a.body?.error;
    const message: string | null = a.body?.message ?? null;
    if (a.status === 200) return { kind: 'pending' };
    if (error === 'DUPLICATE_REF_ID') return { kind: 'pending' };
    if (a.status >= 500 || a.status === 429) {
      // Refused before an order exists: the spec's gate answer creates none.
      if (error === 'ORDER_FAILED_SUPPLIER_GATE') return { kind: 'refused', code: 'NO_SUPPLIER_AVAILABLE', message };
      return { kind: 'unknown', message: `upstream HTTP ${a.status}` };
    }
    if (error === 'INVALID_ID' || error === 'REGION_LOCK' || error === 'PURCHASE_LIMIT') {
      // A verdict about the account: no other route will do better.
      return { kind: 'failed', otherRoute: false, code: error, message };
    }
    if (error === 'PRODUCT_NOT_FOUND') return { kind: 'refused', code: 'PRODUCT_UNAVAILABLE', message };
    if (error === 'INSUFFICIENT_BALANCE') return { kind: 'refused', code: 'NO_SUPPLIER_AVAILABLE', message };
    return { kind: 'refused', code: 'SUPPLIER_REJECTED', message: message ?? `upstream HTTP ${a.status}` };
  }

  /** Only the order's own state is definite; anything else (refused, unreadable, another status) is unknown. */
  async status(reference: string): Promise<SupplierAnswer> {
    const a = await this.call('GET', `/order-status?ref_id=${encodeURIComponent(reference)}`);
    if (a.kind === 'refused') return { kind: 'refused', code: 'SUPPLIER_UNREACHABLE', message: a.message };
    if (a.kind !== 'response') return { kind: 'unknown', message: a.message };
    if (a.status === 404 && a.body?.error === 'PRODUCT_NOT_FOUND') return { kind: 'not-found' };
    if (a.status !== 200) return { kind: 'unknown', message: `upstream HTTP ${a.status}${a.body?.error ? ` ${a.body.error}` : ''}` };
    const o = a.body?.data ?? {};
    if (o.status === 'processing') return { kind: 'pending' };
    if (o.status === 'success') {
      const serial: string = o.serial_number ?? '';
      return { kind: 'success', voucherCode: serial.includes('/') ? serial.slice(serial.lastIndexOf('/') + 1) : undefined };
    }
    if (o.status !== 'failed' && o.status !== 'refunded') return { kind: 'unknown', message: `unreadable order status ${JSON.stringify(o.status ?? null)}` };
    const code = typeof o.failure_code === 'string' && KNOWN_CODES.includes(o.failure_code) ? (o.failure_code as FailureCode) : o.failure_code ? 'SUPPLIER_REJECTED' : null;
    return { kind: 'failed', otherRoute: false, code, message: o.failure_reason ?? null };
  }

  /** Reads the upstream catalog page by page until every SKU is found; a missing SKU is unavailable. */
  async available(skus: readonly string[]): Promise<Map<string, boolean>> {
    const wanted = new Set(skus);
    const result = new Map<string, boolean>(skus.map((sku) => [sku, false]));
    for (let page = 1; page <= 50 && wanted.size > 0; page++) {
      const a = await this.call('GET', `/products?limit=100&page=${page}`);
      if (a.kind !== 'response' || a.status !== 200 || !Array.isArray(a.body?.data?.products)) throw new Error('upstream catalog could not be read');
      for (const p of a.body.data.products as { code: string; status: string }[]) {
        if (!wanted.delete(p.code)) continue;
        result.set(p.code, p.status === 'active');
      }
      if (!a.body.meta?.has_more) break;
    }
    return result;
  }

  async health(): Promise<'up' | 'down' | 'maintenance'> {
    const a = await this.call('GET', '/balance');
    return a.kind === 'response' && a.status === 200 ? 'up' : 'down';
  }
}
