import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * X-Hub-Signature: "sha1=" + hex HMAC-SHA1 of the raw body keyed with the webhook secret.
 * Compared in constant time; any other shape is refused.
 */
export function verifyHubSignature(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha1=')) return false;
  const given = Buffer.from(header.slice(5).toLowerCase(), 'utf8');
  const expected = Buffer.from(createHmac('sha1', secret).update(rawBody).digest('hex'), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
