import { randomBytes, randomUUID } from 'node:crypto';
import type { IdGenerator } from './ports.js';

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/** A new API key (public, sent on every request) and secret (shown once, stored sealed). */
export function newApiCredentials(): { apiKey: string; apiSecret: string } {
  return { apiKey: `tk_${randomBytes(16).toString('hex')}`, apiSecret: `ts_${randomBytes(32).toString('base64url')}` };
}
