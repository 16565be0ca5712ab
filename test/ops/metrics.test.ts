import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { operatorClient } from '../support/json-client.js';
import { recordSecret } from '../support/log-audit.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';
import { jsonOf, storeEnv, topup } from '../support/cli.js';

/** The value of one sample line (`name{labels} value`) in an exposition text; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

const scrape = async (url: string) => {
  const r = await fetch(url);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text();
};

describe.each(storeKinds())('metrics and access log (%s)', (kind) => {
  let t: TestApp;
  let metricsUrl: string;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // Info level into memory: what production writes (the audited trace logger is elsewhere).
    const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s)) });
    t = await startTestApp(kind, { worker: true, env: { METRICS_PORT: '0' }, overrides: { logger } });
    metricsUrl = (await t.platform.listenMetrics())!;
  });
  afterAll(async () => t?.close());

  it('serves Prometheus text on its own listener, never on the API port', async () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(t.origin).port);
    const text = await scrape(metricsUrl);
    expect(text).toContain('# TYPE topup_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'topup_metrics_store_read_ok')).toBe(1);
    const onApi = await fetch(`${t.origin}/metrics`);
    expect(onApi.status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/api/v1/products'))).status).toBe(404);
  });

  it('moves when an order is placed and settled; store figures are read at scrape time', async () => {
    const rx = await startReceiver();
    await t.platform.database.db.updateTable('resellers').set({ callback_url: rx.url }).where('id', '=', t.demo.resellerId).execute();
    try {
      const before = await scrape(metricsUrl);
      const ref = uniqueRef('m');
      const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      expect(placed.status).toBe(200);
      const refused = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      expect(refused.body.error).toBe('DUPLICATE_REF_ID');
      expect((await waitForTerminal(t.client, ref)).status).toBe('success');
      await waitFor(() => rx.received.length >= 1);
      // The callback attempt is recorded after the receiver answered.
      await waitFor(async () => sample(await scrape(metricsUrl), 'topup_callback_attempts_total', { outcome: 'delivered' }) > sample(before, 'topup_callback_attempts_total', { outcome: 'delivered' }));
      const after = await scrape(metricsUrl);
      const grew = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
      expect(grew('topup_orders_placed_total', { result: 'accepted' })).toBe(1);
      expect(grew('topup_orders_placed_total', { result: 'DUPLICATE_REF_ID' })).toBe(1);
      expect(grew('topup_orders_settled_total', { state: 'success', failure_code: 'none' })).toBe(1);
      expect(grew('topup_order_settle_seconds_count', { state: 'success' })).toBe(1);
      expect(grew('topup_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/order', status: '200' })).toBe(1);
      expect(grew('topup_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/order', status: '409' })).toBe(1);
      // The route pattern, never the raw URL with its query.
      expect(after).toContain('route="/api/v1/order-status"');
      expect(after).not.toContain(ref);
      expect(grew('topup_supplier_request_duration_seconds_count', { operation: 'submit' })).toBeGreaterThanOrEqual(1);
      const balance = Number((await t.platform.database.db.selectFrom('resellers').select((eb) => eb.fn.sum<string>('balance').as('s')).executeTakeFirstOrThrow()).s);
      expect(sample(after, 'topup_reseller_balance_sum')).toBe(balance);
      expect(after).toMatch(/topup_orders_needing_attention 0/);
    } finally {
      await t.platform.database.db.updateTable('resellers').set({ callback_url: null }).where('id', '=', t.demo.resellerId).execute();
      await rx.close();
    }
  });

  it('shows jobs ready, running and the oldest due age by kind', async () => {
    const now = Date.now();
    const { db } = t.platform.database;
    await db.insertInto('jobs').values([
      { kind: 'metrics_probe', payload: '{}', run_at: now - 60_000, attempts: 0, locked_until: null, locked_by: null, last_error: null, created_at: now },
      { kind: 'metrics_probe', payload: '{}', run_at: now - 1000, attempts: 1, locked_until: now + 600_000, locked_by: 'someone', last_error: null, created_at: now },
    ]).execute();
    try {
      const text = await scrape(metricsUrl);
      expect(sample(text, 'topup_jobs_ready', { kind: 'metrics_probe' })).toBe(1);
      expect(sample(text, 'topup_jobs_running', { kind: 'metrics_probe' })).toBe(1);
      expect(sample(text, 'topup_jobs_oldest_due_age_seconds', { kind: 'metrics_probe' })).toBeGreaterThanOrEqual(60);
    } finally {
      await db.deleteFrom('jobs').where('kind', '=', 'metrics_probe').execute();
    }
    // A kind with nothing left falls back to nothing, not its last figures.
    expect(await scrape(metricsUrl)).not.toContain('kind="metrics_probe"');
  });

  it('access log: who, route, status, error code, duration; the request id follows the order to its supplier and callback', async () => {
    const rx = await startReceiver();
    await t.platform.database.db.updateTable('resellers').set({ callback_url: rx.url }).where('id', '=', t.demo.resellerId).execute();
    try {
      const ref = uniqueRef('log');
      const r = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      const requestId = r.headers['x-request-id']!;
      const orderId = (await t.platform.database.db.selectFrom('orders').select('id').where('ref_id', '=', ref).executeTakeFirstOrThrow()).id;
      await waitForTerminal(t.client, ref);
      await waitFor(() => lines.some((l) => l.msg === 'callback attempt' && l.order_id === orderId));

      const access = lines.find((l) => l.msg === 'request' && l.reqId === requestId)!;
      expect(access).toMatchObject({ reseller_id: t.demo.resellerId, method: 'POST', route: '/api/v1/order', status: 200 });
      expect(typeof access.ms).toBe('number');
      expect(lines.find((l) => l.msg === 'supplier request' && l.order_id === orderId)).toMatchObject({ request_id: requestId, operation: 'submit' });
      expect(lines.find((l) => l.msg === 'order settled' && l.order_id === orderId)).toMatchObject({ request_id: requestId, state: 'success' });
      expect(lines.find((l) => l.msg === 'callback attempt' && l.order_id === orderId)).toMatchObject({ request_id: requestId, outcome: 'delivered', http_status: 200, attempt: 1 });

      const bad = await t.client.get('/order-status?ref_id=no-such-order');
      const refusedLine = lines.find((l) => l.msg === 'request' && l.reqId === bad.headers['x-request-id'])!;
      expect(refusedLine).toMatchObject({ reseller_id: t.demo.resellerId, route: '/api/v1/order-status', status: bad.status, error: bad.body.error });

      const op = await operatorClient(t);
      const overview = await op.get('/overview');
      const opLine = lines.find((l) => l.msg === 'request' && l.reqId === overview.headers['x-request-id'])!;
      expect(opLine).toMatchObject({ status: 200, route: '/admin/v1/overview' });
      expect(opLine.operator_id).toEqual(expect.any(String));

      // A resend carries the id of the request (or CLI run) that asked for it into its round's
      // job and delivery log lines, as the placing request's id does for the first round.
      const resent = await t.client.post('/callbacks/resend', { ref_id: ref });
      expect(resent.status).toBe(200);
      const opResent = await op.post(`/orders/${orderId}/resend-callback`, {});
      expect(opResent.status).toBe(200);
      const cli = await topup(storeEnv(t.store), 'resend-callback', orderId, '--json');
      expect(cli.status, cli.stderr).toBe(0);
      const cliRequestId = jsonOf(cli).request_id as string;
      for (const id of [resent.headers['x-request-id'], opResent.headers['x-request-id'], cliRequestId]) {
        expect(id).toEqual(expect.any(String));
        await waitFor(() => lines.some((l) => l.msg === 'callback attempt' && l.order_id === orderId && l.request_id === id));
        expect(lines.find((l) => l.msg === 'callback attempt' && l.request_id === id)).toMatchObject({ outcome: 'delivered', attempt: 1 });
      }
      expect(new Set([requestId, resent.headers['x-request-id'], opResent.headers['x-request-id'], cliRequestId]).size).toBe(4);

      // Secrets never reach these lines (the run-wide audit covers the trace logs too).
      const text = lines.map((l) => JSON.stringify(l)).join('\n');
      recordSecret('demo API secret', t.demo.apiSecret);
      for (const secret of [t.demo.apiSecret, t.demo.apiKey, rx.received[0]!.headers['x-signature'] as string]) expect(text).not.toContain(secret);
      expect(text).not.toContain('x-signature');
    } finally {
      await t.platform.database.db.updateTable('resellers').set({ callback_url: null }).where('id', '=', t.demo.resellerId).execute();
      await rx.close();
    }
  });
});

describe('METRICS_PORT=off', () => {
  it('collects nothing and opens no listener', async () => {
    expect(parseConfig({ METRICS_PORT: 'off' }).metrics).toBeNull();
    expect(parseConfig({}).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(() => parseConfig({ METRICS_PORT: 'of' })).toThrow(/METRICS_PORT must be a port from 0 to 65535, or off \(got "of"\)/);
    expect(parseConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ host: '0.0.0.0', port: 0 });
    const t = await startTestApp('sqlite', { env: { METRICS_PORT: 'off' } });
    try {
      expect(t.platform.prometheus).toBeNull();
      expect(await t.platform.listenMetrics()).toBeNull();
      expect((await fetch(`${t.origin}/metrics`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

async function waitFor(fn: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
