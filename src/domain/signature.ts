import { createHmac, timingSafeEqual } from 'node:crypto';

/** Allowed drift between the caller's X-Timestamp and our clock (spec: 5 minutes). */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/** Lowercase hex HMAC-SHA256 over the body bytes followed by the timestamp string. */
export function sign(secret: string, timestamp: string, body: Buffer | string = ''): string {
  const mac = createHmac('sha256', secret);
  if (body.length) mac.update(body);
  mac.update(timestamp);
  return mac.digest('hex');
}

/** Timing-safe comparison of a presented hex signature with the expected one. */
export function signatureMatches(secret: string, timestamp: string, body: Buffer | string, presented: string): boolean {
  const expected = Buffer.from(sign(secret, timestamp, body), 'utf8');
  const given = Buffer.from(presented.toLowerCase(), 'utf8');
  // Compare equal-length buffers only; the length of a valid signature is public (64).
  if (given.length !== expected.length) return false;
  return timingSafeEqual(expected, given);
}

/** X-Timestamp must be Unix milliseconds as a string of digits. */
export function parseTimestamp(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,16}$/.test(raw)) return null;
  return Number(raw);
}

export const timestampFresh = (ts: number, now: number) => Math.abs(now - ts) <= TIMESTAMP_TOLERANCE_MS;
