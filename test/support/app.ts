import { randomBytes } from 'node:crypto';
import { parseConfig, type Config } from '../../src/config.js';
import { createPlatform, type Platform, type PlatformOverrides } from '../../src/main.js';
import type { DemoCredentials } from '../../src/services/seed-demo.js';
import { ResellerClient } from './client.js';
import { auditedLogger, recordSecret } from './log-audit.js';
import { createTestStore, type StoreKind, type TestStore } from './stores.js';

export interface TestApp {
  platform: Platform;
  store: TestStore;
  baseUrl: string;
  origin: string;
  demo: DemoCredentials;
  client: ResellerClient;
  close(): Promise<void>;
}

/**
 * Starts the whole service (composition root, real store, real HTTP on 127.0.0.1) with the
 * demo seeded. Pass `store` to share one store between several instances.
 */
export async function startTestApp(
  kind: StoreKind,
  opts: { env?: Record<string, string>; overrides?: PlatformOverrides; store?: TestStore; seed?: boolean; worker?: boolean } = {},
): Promise<TestApp> {
  const store = opts.store ?? (await createTestStore(kind));
  const config: Config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: store.dataDir,
    DATABASE_URL: store.url,
    MASTER_KEY: 'ab'.repeat(32),
    LOG_LEVEL: 'silent',
    SANDBOX_DELAY_MS: '0',
    FULFIL_POLL_MS: '20',
    ...opts.env,
  });
  // A low scrypt cost keeps the many sign-ins of the suites quick; production uses 2^15.
  const platform = await createPlatform(config, { passwordCost: 2 ** 10, logger: auditedLogger(), ...opts.overrides });
  const seeded = opts.seed === false ? null : await platform.seedDemo();
  if (opts.worker) platform.startBackground();
  const origin = await platform.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `${origin}/api/v1`;
  const demo = seeded ?? { resellerId: '', apiKey: '', apiSecret: '' };
  recordSecret('demo API secret', demo.apiSecret);
  recordSecret('demo API key', demo.apiKey);
  return {
    platform,
    store,
    baseUrl,
    origin,
    demo,
    client: new ResellerClient(baseUrl, demo.apiKey, demo.apiSecret),
    async close() {
      await platform.close();
      if (!opts.store) await store.drop();
    },
  };
}

export const uniqueRef = (prefix = 'ref') => `${prefix}-${randomBytes(6).toString('hex')}`;

/** Polls GET /order-status until the order leaves processing (fulfilment is asynchronous). */
export async function waitForTerminal(client: ResellerClient, refId: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.get(`/order-status?ref_id=${encodeURIComponent(refId)}`);
    if (r.status === 200 && r.body.data.status !== 'processing') return r.body.data;
    if (Date.now() > deadline) throw new Error(`order ${refId} still ${r.body?.data?.status ?? r.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 25));
  }
}
