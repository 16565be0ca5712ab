/**
 * HMAC-SHA256 on WebCrypto (globalThis.crypto.subtle): the same code runs on Node 18+,
 * Deno, Bun, Cloudflare Workers and other edge runtimes.
 */
const encoder = new TextEncoder();

export type BytesLike = string | Uint8Array | ArrayBuffer;

export function toBytes(input: BytesLike): Uint8Array {
  if (typeof input === 'string') return encoder.encode(input);
  return input instanceof Uint8Array ? input : new Uint8Array(input);
}

let nodeSubtle: Promise<SubtleCrypto> | null = null;

/**
 * WebCrypto's SubtleCrypto. Node 18 has it only as node:crypto's `webcrypto` (the global
 * came in Node 19): imported by a name bundlers do not follow, so edge builds never see it.
 */
function subtle(): Promise<SubtleCrypto> {
  const s = globalThis.crypto?.subtle;
  if (s) return Promise.resolve(s);
  const name = 'node:crypto';
  nodeSubtle ??= import(/* @vite-ignore */ /* webpackIgnore: true */ name).then(
    (m: { webcrypto?: { subtle?: SubtleCrypto } }) => {
      if (!m.webcrypto?.subtle) throw new Error('no subtle');
      return m.webcrypto.subtle;
    },
    () => {
      throw new Error('@topup/reseller-client needs WebCrypto (globalThis.crypto.subtle): Node 18+, Deno, Bun or an edge runtime');
    },
  );
  return nodeSubtle;
}

const keys = new Map<string, Promise<CryptoKey>>();

/** Imported keys are cached per secret: a key import costs about as much as a signature. */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = subtle().then((s) => s.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
    if (keys.size > 16) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 over the concatenation of `parts`, as raw bytes. */
export async function hmacSha256(secret: string, ...parts: BytesLike[]): Promise<Uint8Array> {
  const chunks = parts.map(toBytes);
  const message = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    message.set(c, at);
    at += c.length;
  }
  return new Uint8Array(await (await subtle()).sign('HMAC', await hmacKey(secret), message));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** A 64-character hex MAC as bytes, or null when it is not one (its length is public). */
export function fromHex64(hex: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Constant-time equality of two MACs: every byte is compared whatever the earlier ones were,
 * so the time taken says nothing about how much of a forged signature was right.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The spec's request signature: lowercase hex HMAC-SHA256 of body + timestamp (GET: timestamp only). */
export async function signRequest(secret: string, timestamp: string, body = ''): Promise<string> {
  return toHex(await hmacSha256(secret, body, timestamp));
}
