import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TopupClient } from '@topup/reseller-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { uniqueRef } from '../support/app.js';
import { recordSecret } from '../support/log-audit.js';
import { startServerProcess } from '../support/server-process.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

type Upstream = { origin: string; child: ChildProcess };
/** What the proxy does with one POST /order: answers, or fails the caller in some way. */
type OrderStep = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => Promise<void>;

/**
 * POST /order through a proxy that loses answers, and a real service (the CLI's `serve`)
 * that is killed and restarted mid-call: every order exists exactly once, charged once.
 */
describe.each(storeKinds())('POST /order retries across a restart of the service (%s)', (kind) => {
  let store: TestStore;
  let upstream: Upstream;
  let env: Record<string, string>;
  let creds: { apiKey: string; apiSecret: string };
  let proxy: http.Server;
  let proxyUrl: string;
  const steps: OrderStep[] = [];
  const children: ChildProcess[] = [];

  async function start(): Promise<Upstream> {
    const s = await startServerProcess(env);
    children.push(s.child);
    const out = s.output();
    const base = /topup listening on (\S+)/.exec(out)![1]!;
    const key = /TOPUP_API_KEY=(\S+)/.exec(out)?.[1];
    const secret = /TOPUP_API_SECRET=(\S+)/.exec(out)?.[1];
    if (key && secret) {
      creds = { apiKey: key, apiSecret: secret };
      recordSecret('demo API secret', secret);
    }
    return { origin: new URL(base).origin, child: s.child };
  }
  async function restart() {
    upstream.child.kill('SIGKILL');
    await new Promise((r) => upstream.child.once('exit', r));
    upstream = await start();
  }
  function forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const out = http.request(upstream.origin + req.url, { method: req.method, headers: req.headers }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body: Buffer.concat(chunks) }));
      });
      out.on('error', reject);
      out.end(body);
    });
  }
  const relay = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const r = await forward(req, body).catch(() => null);
    if (!r) return void res.destroy();
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  };

  beforeAll(async () => {
    store = await createTestStore(kind);
    env = { DATA_DIR: store.dataDir, DATABASE_URL: store.url, MASTER_KEY: 'ab'.repeat(32), SANDBOX_DELAY_MS: '0' };
    upstream = await start();
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const step = req.method === 'POST' && req.url?.endsWith('/order') ? steps.shift() : undefined;
        void (step ?? relay)(req, body, res);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`;
  }, 90_000);
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    proxy?.closeAllConnections();
    await new Promise((r) => proxy?.close(r));
    await store?.drop();
  });

  // The per-attempt timeout outlasts a restart: the proxy answers only once the new process is up.
  const sdk = (timeoutMs = 60_000) => new TopupClient({ baseUrl: proxyUrl, ...creds, timeoutMs, retries: { max: 3, baseDelayMs: 20 } });

  async function ordersAndDebits(refId: string) {
    const database = openDatabase(store.config);
    try {
      const orders = await database.db.selectFrom('orders').select(['id']).where('ref_id', '=', refId).execute();
      const debits = orders.length === 0 ? [] : await database.db.selectFrom('ledger_entries').select('id').where('order_id', '=', orders[0]!.id).where('type', '=', 'order_debit').execute();
      return { orders: orders.length, debits: debits.length };
    } finally {
      await database.close();
    }
  }

  it('the service takes the order, then dies before its answer arrives; the retry after restart finds that order', async () => {
    steps.push(async (req, body, res) => {
      const r = await forward(req, body);
      expect(r.status).toBe(200);
      await restart();
      res.destroy();
    });
    const ref_id = uniqueRef('restart');
    const placed = await sdk().placeOrder({ ref_id, product_code: 'FF-100', target: '123456789' });
    expect(placed).toMatchObject({ ref_id, recovered: true });
    expect(placed.order_code).toMatch(/^ORD-/);
    expect(await ordersAndDebits(ref_id)).toEqual({ orders: 1, debits: 1 });
    expect((await sdk().orderStatus(ref_id)).order_id).toBe(placed.order_id);
  }, 90_000);

  it('the service dies before the request reaches it; the retry after restart places the order once', async () => {
    steps.push(async (_req, _body, res) => {
      await restart();
      res.destroy();
    });
    const ref_id = uniqueRef('restart');
    const placed = await sdk().placeOrder({ ref_id, product_code: 'FF-100', target: '123456789' });
    expect(placed).toMatchObject({ ref_id, recovered: false, status: 'processing' });
    expect(await ordersAndDebits(ref_id)).toEqual({ orders: 1, debits: 1 });
  }, 90_000);

  it('an answer that times out, and a gateway 502 after the order was taken, resolve to the one order', async () => {
    steps.push(async (req, body) => {
      await forward(req, body); // taken; the caller never hears back and times out
    });
    const slow = uniqueRef('timeout');
    expect(await sdk(1_000).placeOrder({ ref_id: slow, product_code: 'FF-100', target: '1' })).toMatchObject({ ref_id: slow, recovered: true });
    expect(await ordersAndDebits(slow)).toEqual({ orders: 1, debits: 1 });

    steps.push(async (req, body, res) => {
      await forward(req, body);
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    const gateway = uniqueRef('gateway');
    expect(await sdk().placeOrder({ ref_id: gateway, product_code: 'FF-100', target: '1' })).toMatchObject({ ref_id: gateway, recovered: true });
    expect(await ordersAndDebits(gateway)).toEqual({ orders: 1, debits: 1 });
  }, 90_000);

  it('with every attempt lost, the call throws; resuming with the same ref_id resolves to the order', async () => {
    const lose = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
      await forward(req, body).catch(() => null);
      res.destroy();
    };
    const ref_id = uniqueRef('lost');
    const client = new TopupClient({ baseUrl: proxyUrl, ...creds, retries: { max: 2, baseDelayMs: 10 } });
    // Every POST /order attempt is lost, and so is the client's own status check afterwards.
    steps.push(lose, lose, lose);
    const sabotage = proxy.listeners('request')[0] as (req: http.IncomingMessage, res: http.ServerResponse) => void;
    proxy.removeAllListeners('request');
    proxy.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => (req.url?.includes('/order-status') ? res.destroy() : sabotage(req, res)));
    try {
      const err = await client.placeOrder({ ref_id, product_code: 'FF-100', target: '1' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'TopupTransportError', code: 'NETWORK_ERROR' });
    } finally {
      proxy.removeAllListeners('request');
      proxy.on('request', sabotage);
    }
    const resumed = await client.placeOrder({ ref_id, product_code: 'FF-100', target: '1' }, { resume: true });
    expect(resumed).toMatchObject({ ref_id, recovered: true });
    expect(await ordersAndDebits(ref_id)).toEqual({ orders: 1, debits: 1 });
  }, 90_000);
});
