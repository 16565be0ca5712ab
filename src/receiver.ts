import { parseTimestamp, signatureMatches, timestampFresh } from './domain/signature.js';

/**
 * For resellers (and for our own upstream-v1 adapter): verifies an order callback the way
 * the spec tells receivers to. Pass the raw body bytes exactly as received.
 *
 *   const v = verifyCallback({ rawBody, headers: req.headers, secret: process.env.TOPUP_API_SECRET });
 *   if (!v.ok) return res.status(401).end();
 *
 * Checks that X-Timestamp is within 5 minutes of `now`, and that X-Signature is the
 * HMAC-SHA256 (lowercase hex, keyed with the API secret) of the body followed by the
 * timestamp, or of the timestamp alone (the spec says to accept both). Comparisons are
 * timing-safe. Header names are read case-insensitively. Delivery is at-least-once: a
 * crash can repeat a round, so deduplicate on X-Callback-Id after verifying.
 */
/** A fetch-style `Headers` (or anything with a `get(name)` that ignores case). */
export interface HeadersLike {
  get(name: string): string | null | undefined;
}

export type CallbackHeaders = HeadersLike | Record<string, string | string[] | undefined>;

/** One header's first value, whatever the case of its name (HTTP names are case-insensitive). */
function readHeader(headers: CallbackHeaders, name: string): string | undefined {
  if (typeof (headers as HeadersLike).get === 'function') return (headers as HeadersLike).get(name) ?? undefined;
  const plain = headers as Record<string, string | string[] | undefined>;
  let v = plain[name];
  if (v === undefined) {
    const key = Object.keys(plain).find((k) => k.toLowerCase() === name);
    v = key === undefined ? undefined : plain[key];
  }
  return Array.isArray(v) ? v[0] : v;
}

export function verifyCallback(input: {
  rawBody: Buffer | string;
  /** Node's `req.headers`, a fetch `Headers`, or a plain object with names in any case. */
  headers: CallbackHeaders;
  secret: string;
  now?: number;
}): { ok: true } | { ok: false; reason: 'missing_headers' | 'timestamp_expired' | 'bad_signature' } {
  const tsText = readHeader(input.headers, 'x-timestamp');
  const signature = readHeader(input.headers, 'x-signature');
  const ts = parseTimestamp(tsText);
  if (ts === null || !signature) return { ok: false, reason: 'missing_headers' };
  if (!timestampFresh(ts, input.now ?? Date.now())) return { ok: false, reason: 'timestamp_expired' };
  const overBody = signatureMatches(input.secret, tsText!, input.rawBody, signature);
  const overTimestamp = signatureMatches(input.secret, tsText!, '', signature);
  return overBody || overTimestamp ? { ok: true } : { ok: false, reason: 'bad_signature' };
}
