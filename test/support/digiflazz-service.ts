import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { startFakeDigiflazz, type FakeDigiflazz, type FakeProduct } from './fake-digiflazz.js';
import { operatorClient, type JsonClient } from './json-client.js';
import { ledgerConsistent } from './ledger.js';
import { recordSecret } from './log-audit.js';
import type { StoreKind } from './stores.js';

/** The whole service (worker included) with one supplier "Digiflazz" pointed at a fake Digiflazz. */
export interface DigiflazzService {
  t: TestApp;
  fake: FakeDigiflazz;
  op: JsonClient;
  supplierId: string;
  /** The supplier as `POST /suppliers` answered it. */
  created: Record<string, unknown>;
  /** Sends `productCode` to Digiflazz's `sku` alone (the seeded routes are disabled). */
  routeOnly(productCode: string, sku: string, cost: number): Promise<void>;
  /** Checks the ledger, then stops the service and the fake. */
  close(): Promise<void>;
}

/** A Digiflazz-like game account number, new per call. */
export const randomTarget = () => `3${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export async function startDigiflazzService(
  kind: StoreKind,
  opts: { products: FakeProduct[]; env?: Record<string, string>; webhookSecret?: boolean },
): Promise<DigiflazzService> {
  const fake = await startFakeDigiflazz({ products: opts.products });
  recordSecret('Digiflazz API key', fake.apiKey);
  recordSecret('Digiflazz webhook secret', fake.webhookSecret);
  let t: TestApp | undefined;
  try {
    t = await startTestApp(kind, { worker: true, env: opts.env });
    const app = t;
    const op = await operatorClient(app);
    const credentials = { username: fake.username, api_key: fake.apiKey, base_url: fake.url, ...(opts.webhookSecret === false ? {} : { webhook_secret: fake.webhookSecret }) };
    const created = await op.post('/suppliers', { name: 'Digiflazz', adapter: 'digiflazz', credentials });
    expect(created.status, created.text).toBe(200);
    return {
      t: app, fake, op, supplierId: created.body.data.id, created: created.body.data,
      async routeOnly(productCode, sku, cost) {
        await app.platform.database.db.updateTable('product_routes').set({ enabled: 0 }).where('product_code', '=', productCode).execute();
        const r = await op.post('/routes', { product_code: productCode, supplier: 'Digiflazz', sku, priority: 1, cost });
        expect(r.status, r.text).toBe(200);
      },
      async close() {
        try {
          await ledgerConsistent(app.platform.database.db);
        } finally {
          await app.close();
          await fake.close();
        }
      },
    };
  } catch (e) {
    await t?.close();
    await fake.close();
    throw e;
  }
}
