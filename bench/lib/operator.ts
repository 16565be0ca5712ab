import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { StoreConfig } from '../../src/config.js';
import { TOPUP_BIN } from './processes.js';
import { topupEnv } from './services.js';

/**
 * An operator session as an operator gets one: `topup operator-add` (the CLI prints the
 * generated password once), then `POST /admin/v1/auth/sign-in` on the running service.
 */
export async function operatorSession(store: StoreConfig, dataDir: string, adminUrl: string): Promise<string> {
  const email = `bench-op-${randomUUID().slice(0, 8)}@example.com`;
  const out = execFileSync(process.execPath, [TOPUP_BIN, 'operator-add', email, 'Bench', 'Operator', '--json'], { env: { ...process.env, ...topupEnv(store, dataDir) }, encoding: 'utf8' });
  const { password } = JSON.parse(out) as { password: string };
  const res = await fetch(`${adminUrl}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { data?: { token: string } };
  if (!res.ok || !body.data) throw new Error(`operator sign-in: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}
