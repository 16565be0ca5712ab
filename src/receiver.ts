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
 * timing-safe.
 */
export function verifyCallback(input: {
  rawBody: Buffer | string;
  headers: Record<string, string | string[] | undefined>;
  secret: string;
  now?: number;
}): { ok: true } | { ok: false; reason: 'missing_headers' | 'timestamp_expired' | 'bad_signature' } {
  const header = (name: string) => {
    const v = input.headers[name] ?? input.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const tsText = header('x-timestamp');
  const signature = header('x-signature');
  const ts = parseTimestamp(tsText);
  if (ts === null || !signature) return { ok: false, reason: 'missing_headers' };
  if (!timestampFresh(ts, input.now ?? Date.now())) return { ok: false, reason: 'timestamp_expired' };
  const overBody = signatureMatches(input.secret, tsText!, input.rawBody, signature);
  const overTimestamp = signatureMatches(input.secret, tsText!, '', signature);
  return overBody || overTimestamp ? { ok: true } : { ok: false, reason: 'bad_signature' };
}
