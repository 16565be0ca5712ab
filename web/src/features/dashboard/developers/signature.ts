/**
 * The API v1 signature, computed in the browser with WebCrypto: lowercase hex
 * HMAC-SHA256 over body + timestamp (GET: the timestamp alone), keyed with the secret.
 */
export async function expectedSignature(secret: string, timestamp: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, enc.encode(body + timestamp));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
