import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt password hashes (node:crypto, no native addon). Stored form:
 * "scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>", so the cost can be raised later
 * without invalidating existing hashes.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * A stored form no password matches (a random salt and key) whose verify costs what a
   * real one costs: for unknown accounts. Made without deriving anything, so it adds no
   * scrypt run (32 MB at 2^15) beside the verify.
   */
  unmatchable(): string;
}

const KEY_LEN = 32;
const derive = (password: string, salt: Buffer, o: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { ...o, maxmem: 256 * o.N! * o.r! }, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** cost: scrypt N (a power of two). 2^15 for people; tests may pass less to stay quick. */
export function scryptHasher(cost = 2 ** 15): PasswordHasher {
  const stored = (salt: Buffer, key: Buffer) => `scrypt$${cost}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
  return {
    async hash(password) {
      const salt = randomBytes(16);
      return stored(salt, await derive(password, salt, { N: cost, r: 8, p: 1 }));
    },
    unmatchable: () => stored(randomBytes(16), randomBytes(KEY_LEN)),
    async verify(password, stored) {
      const [scheme, n, r, p, salt, hash] = stored.split('$');
      if (scheme !== 'scrypt' || !salt || !hash) return false;
      const expected = Buffer.from(hash, 'base64url');
      const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
      return key.length === expected.length && timingSafeEqual(key, expected);
    },
  };
}
