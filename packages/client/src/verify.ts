import { fromHex64, hmacSha256, timingSafeEqual, toBytes, type BytesLike } from './crypto.js';
import type { CallbackPayload } from './types.js';

/** A fetch `Headers`, Node's `req.headers`, or any plain object; names in any case. */
export type HeadersInput = { get(name: string): string | null | undefined } | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Allowed distance between X-Timestamp and `now` (default 5 minutes, the spec's). */
  toleranceMs?: number;
  /** Milliseconds since the epoch (default Date.now()). */
  now?: number;
  /**
   * Also accept a signature over the timestamp alone, which the spec tells receivers to
   * tolerate. Off by default: such a signature does not cover the body, and every GET
   * request you send carries one (X-Signature of a GET is HMAC(timestamp)), so anyone who
   * sees one of your GETs could forge a callback body for five minutes. This service
   * always signs body + timestamp.
   */
  acceptTimestampOnlySignature?: boolean;
}

export type VerifyFailure = 'missing_headers' | 'timestamp_expired' | 'bad_signature' | 'bad_body';

export type VerifyResult =
  | {
      ok: true;
      payload: CallbackPayload;
      /** X-Callback-Id: one per delivery round, the same on each attempt; deduplicate on it. */
      callbackId: string | null;
      /** X-Callback-Attempt, 1 to 4. */
      attempt: number | null;
      timestamp: number;
    }
  | { ok: false; reason: VerifyFailure };

/** A header's first value, whatever the case of its name. */
export function readHeader(headers: HeadersInput, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null | undefined }).get(lower) ?? undefined;
  const plain = headers as Record<string, string | string[] | undefined>;
  let v = plain[lower];
  if (v === undefined) {
    const key = Object.keys(plain).find((k) => k.toLowerCase() === lower);
    v = key === undefined ? undefined : plain[key];
  }
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verifies an order callback as the spec says: X-Timestamp within `toleranceMs` of now,
 * X-Signature the lowercase hex HMAC-SHA256 (keyed with your API secret) of the raw body
 * followed by the timestamp, compared in constant time. Pass the body exactly as received
 * (bytes or string), before any JSON parsing. Resolves to the parsed payload when valid.
 */
export async function verifyCallback(rawBody: BytesLike, headers: HeadersInput, secret: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const tsText = readHeader(headers, 'x-timestamp');
  const signature = readHeader(headers, 'x-signature');
  if (!tsText || !/^\d{1,16}$/.test(tsText) || !signature) return { ok: false, reason: 'missing_headers' };
  const timestamp = Number(tsText);
  if (Math.abs((options.now ?? Date.now()) - timestamp) > (options.toleranceMs ?? 5 * 60_000)) return { ok: false, reason: 'timestamp_expired' };
  // Not 64 hex characters: cannot be a MAC (that length is public, so refusing early leaks nothing).
  const given = fromHex64(signature);
  if (!given) return { ok: false, reason: 'bad_signature' };
  const body = toBytes(rawBody);
  let ok = timingSafeEqual(await hmacSha256(secret, body, tsText), given);
  if (options.acceptTimestampOnlySignature) ok = timingSafeEqual(await hmacSha256(secret, tsText), given) || ok;
  if (!ok) return { ok: false, reason: 'bad_signature' };
  let payload: CallbackPayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { ok: false, reason: 'bad_body' };
  }
  if (!payload || typeof payload !== 'object' || typeof payload.ref_id !== 'string') return { ok: false, reason: 'bad_body' };
  const attempt = Number(readHeader(headers, 'x-callback-attempt'));
  return { ok: true, payload, callbackId: readHeader(headers, 'x-callback-id') ?? null, attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : null, timestamp };
}
