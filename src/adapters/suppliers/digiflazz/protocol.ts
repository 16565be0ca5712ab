import { createHash } from 'node:crypto';

/** What the operator gives us for a Digiflazz account; sealed at rest with the supplier. */
export interface DigiflazzCredentials {
  /** https://api.digiflazz.com/v1 unless the supplier says otherwise. */
  baseUrl: string;
  username: string;
  /** The development or the production key. */
  apiKey: string;
  /** The secret set with the webhook in the supplier's member area (null: no webhook). */
  webhookSecret: string | null;
}

export const DIGIFLAZZ_BASE_URL = 'https://api.digiflazz.com/v1';

/** A transaction as the supplier answers it (placing, asking again, or in a webhook). */
export interface DigiflazzTransaction {
  ref_id?: string;
  customer_no?: string;
  buyer_sku_code?: string;
  message?: string;
  status?: string;
  rc?: string;
  sn?: string;
  buyer_last_saldo?: number;
  price?: number;
}

export interface DigiflazzProduct {
  buyer_sku_code: string;
  product_name?: string;
  category?: string;
  brand?: string;
  price: number;
  buyer_product_status: boolean;
  seller_product_status: boolean;
  unlimited_stock: boolean;
  stock: number;
  start_cut_off: string;
  end_cut_off: string;
}

/** sign = md5(username + apiKey + X), lowercase hex; X is the ref_id, "depo" or "pricelist". */
export function digiflazzSign(c: Pick<DigiflazzCredentials, 'username' | 'apiKey'>, x: string): string {
  return createHash('md5').update(c.username + c.apiKey + x).digest('hex');
}

export type Answer =
  /** The supplier answered (any HTTP status) with `data`, or null when the body was not {data}. */
  | { kind: 'answer'; httpStatus: number; data: any }
  /** Refused before a byte left (connection refused, name not resolved): certainly not taken. */
  | { kind: 'refused'; message: string }
  /** Sent, but no answer (timeout, connection cut): the outcome is unknown. */
  | { kind: 'no-answer'; message: string };

/** One POST with a JSON body; never throws. */
export async function post(baseUrl: string, path: string, body: Record<string, unknown>, timeoutMs: number): Promise<Answer> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json().catch(() => null)) as { data?: unknown } | null;
    return { kind: 'answer', httpStatus: res.status, data: json && typeof json === 'object' && 'data' in json ? json.data : null };
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'refused', message: code };
    return { kind: 'no-answer', message: (e as Error).name === 'TimeoutError' ? 'supplier timed out' : (e as Error).message };
  }
}
