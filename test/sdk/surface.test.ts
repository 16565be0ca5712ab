import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import {
  FAILURE_CODES, fetchCallbackHandler, pollGap, responseOf, TopupApiError, TopupAuthenticationError, TopupClient, TopupConflictError,
  TopupInsufficientBalanceError, TopupNotFoundError, TopupRateLimitError, TopupServerError, TopupTransportError, TopupValidationError,
  verifyCallback, VERSION, type ResponseHookInfo,
} from '@topup/reseller-client';
import { SANDBOX_TARGETS, signedCallback } from '@topup/reseller-client/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/domain/sandbox-accounts.js';
import { buildResellerDocument } from '../../src/http/openapi/reseller-document.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { closedPort } from '../support/ports.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';
import { sdkFor } from './support.js';

/** What a call throws (never a value). */
const thrown = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the call to throw'); }, (e: unknown) => e);

/** A client that records every attempt it makes through the onResponse hook. */
function recording(t: Pick<TestApp, 'baseUrl' | 'demo'>, opts: Parameters<typeof sdkFor>[1] = {}) {
  const attempts: ResponseHookInfo[] = [];
  const sdk = sdkFor(t, { ...opts, hooks: { onResponse: (i) => void attempts.push(i) } });
  return { sdk, attempts };
}

/** A local HTTP server whose handler decides what each request gets; records the requests. */
async function localServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    seen,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

describe.each(storeKinds())("the SDK's surface against the service (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('pages to the end of a 1,000-order history with allOrders and allWalletHistory, each item once', async () => {
    const shop = await createReseller(t.platform, t.baseUrl, { balance: 50_000_000 });
    const sdk = sdkFor({ baseUrl: t.baseUrl, demo: { ...t.demo, apiKey: shop.apiKey, apiSecret: shop.apiSecret } });
    const refs = Array.from({ length: 1000 }, (_, i) => `hist-${i}-${uniqueRef('o')}`);
    for (let i = 0; i < refs.length; i += 50) {
      await Promise.all(refs.slice(i, i + 50).map((ref_id) => sdk.placeOrder({ ref_id, product_code: 'FF-100', target: SANDBOX_TARGETS.SUCCESS })));
    }
    const seen: string[] = [];
    let pagesRead = 0;
    let lastRequestId: string | null = null;
    for await (const order of sdk.allOrders({ limit: 100 })) {
      seen.push(order.ref_id);
      if (order.$response.requestId !== lastRequestId) {
        pagesRead++;
        lastRequestId = order.$response.requestId;
        // An order placed while paging pushes every older one a place down: no repeat, none missed.
        if (pagesRead === 2) await sdk.placeOrder({ ref_id: uniqueRef('mid-paging'), product_code: 'FF-100', target: '1' });
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((r) => r.startsWith('hist-')).sort()).toEqual([...refs].sort());
    expect(pagesRead).toBeGreaterThanOrEqual(10);

    const entries: string[] = [];
    for await (const e of sdk.allWalletHistory({ type: 'order_debit' })) entries.push(e.id);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.length).toBeGreaterThanOrEqual(1000);

    const products = [];
    for await (const p of sdk.allProducts({ limit: 2 })) products.push(p.code);
    const all = await sdk.products({ limit: 100 });
    expect(products).toEqual(all.products.map((p) => p.code));
  }, 180_000);

  it('puts the request id and the rate-limit state on every result, invisible to JSON and equality', async () => {
    const sdk = sdkFor(t);
    const first = await sdk.balance();
    const second = await sdk.balance();
    expect(first.$response).toMatchObject({ status: 200, attempts: 1, requestId: expect.stringMatching(/\S/) });
    expect(first.$response.requestId).toBe(first.$response.headers.get('x-request-id'));
    expect(first.$response.rateLimit).toMatchObject({ limit: 300, remaining: expect.any(Number), resetSeconds: expect.any(Number) });
    expect(second.$response.rateLimit!.remaining).toBeLessThan(first.$response.rateLimit!.remaining);
    expect(sdk.rateLimit).toEqual(second.$response.rateLimit);
    expect(responseOf(second)).toBe(second.$response);
    expect(typeof second.$response.serverDate).toBe('number');
    // The data is as before: no new enumerable key.
    expect(Object.keys(JSON.parse(JSON.stringify(first)))).toEqual(Object.keys(first));
    expect(Object.keys(first)).not.toContain('$response');
    const page = await sdk.orders({ limit: 1 });
    expect(page.$response.rateLimit?.limit).toBe(300);
    // An error carries the same state.
    const e = await thrown(sdk.orderStatus('never-placed')) as TopupApiError;
    expect(e.rateLimit?.limit).toBe(300);
  });

  it('throws one error class per kind, each with its retryable flag, and retries only the retryable', async () => {
    const { sdk, attempts } = recording(t, { retries: { max: 2, baseDelayMs: 1 } });
    const order = (target: string, extra: object = {}) => ({ ref_id: uniqueRef('kind'), product_code: 'FF-100', target, ...extra });
    const cases: [() => Promise<unknown>, Function, string][] = [
      [() => sdk.placeOrder(order(SANDBOX_TARGETS.INVALID_ID)), TopupValidationError, 'INVALID_ID'],
      [() => sdk.placeOrder(order('1', { price: 1 })), TopupConflictError, 'PRICE_NOT_MATCH'],
      [() => sdk.orderStatus('never-placed'), TopupNotFoundError, 'PRODUCT_NOT_FOUND'],
      [() => sdkFor(t, { apiSecret: 'wrong' }).balance(), TopupAuthenticationError, 'INVALID_SIGNATURE'],
    ];
    for (const [call, cls, code] of cases) {
      const e = await thrown(call()) as TopupApiError;
      expect(e, code).toBeInstanceOf(cls);
      expect(e).toBeInstanceOf(TopupApiError);
      expect({ code: e.code, retryable: e.retryable }).toEqual({ code, retryable: false });
    }
    // Each refusal above was sent once: a 4xx is never retried.
    expect(attempts.every((a) => a.attempt === 1)).toBe(true);

    const poor = await createReseller(t.platform, t.baseUrl, { balance: 1 });
    const broke = await thrown(new TopupClient({ baseUrl: t.baseUrl, apiKey: poor.apiKey, apiSecret: poor.apiSecret }).placeOrder(order('1')));
    expect(broke).toBeInstanceOf(TopupInsufficientBalanceError);

    // A 5xx is retryable: retried up to `max`, then thrown as TopupServerError.
    const { db } = t.platform.database;
    await db.updateTable('suppliers').set({ enabled: 0 }).execute();
    attempts.length = 0;
    try {
      const gate = await thrown(sdk.placeOrder(order('1'))) as TopupServerError;
      expect(gate).toBeInstanceOf(TopupServerError);
      expect({ code: gate.code, retryable: gate.retryable }).toEqual({ code: 'ORDER_FAILED_SUPPLIER_GATE', retryable: true });
      expect(attempts.filter((a) => a.path === '/order').map((a) => a.status)).toEqual([503, 503, 503]);
      // Per call: no retry at all.
      attempts.length = 0;
      await thrown(sdk.placeOrder(order('1'), { retries: { max: 0 } }));
      expect(attempts.filter((a) => a.path === '/order')).toHaveLength(1);
    } finally {
      await db.updateTable('suppliers').set({ enabled: 1 }).execute();
    }

    // No connection at all: retryable NETWORK_ERROR after every retry; an abort is not retryable.
    const nowhere = new TopupClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/api/v1`, apiKey: 'k', apiSecret: 's', retries: { max: 1, baseDelayMs: 1 } });
    const net = await thrown(nowhere.balance()) as TopupTransportError;
    expect({ cls: net instanceof TopupTransportError, code: net.code, retryable: net.retryable }).toEqual({ cls: true, code: 'NETWORK_ERROR', retryable: true });
    const controller = new AbortController();
    controller.abort();
    const abort = await thrown(sdk.balance({ signal: controller.signal })) as TopupTransportError;
    expect({ code: abort.code, retryable: abort.retryable }).toEqual({ code: 'ABORTED', retryable: false });
  });

  it('says how far off the clock is when the server answers TIMESTAMP_EXPIRED', async () => {
    const slow = sdkFor(t, { now: () => Date.now() - 10 * 60_000 });
    const e = await thrown(slow.balance()) as TopupAuthenticationError;
    expect(e).toBeInstanceOf(TopupAuthenticationError);
    expect(e.code).toBe('TIMESTAMP_EXPIRED');
    // From the server's Date header (second precision): about ten minutes, our clock behind.
    expect(Math.abs(e.clockSkewMs! - 10 * 60_000)).toBeLessThan(5_000);
    expect(e.message).toMatch(/your clock is about (59\d|60\d) s behind the server's/);
    const fast = await thrown(sdkFor(t, { now: () => Date.now() + 10 * 60_000 }).balance()) as TopupAuthenticationError;
    expect(fast.message).toMatch(/ahead of the server's/);
  });

  it('calls the hooks for each attempt, lets onRequest add a trace header, and sends the user agent', async () => {
    const requests: string[] = [];
    const sdk = sdkFor(t, {
      userAgent: 'acme-shop/2.1',
      hooks: {
        onRequest: (i) => {
          requests.push(`${i.method} ${i.path}`);
          i.headers.traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
          i.headers['x-signature'] = 'a hook cannot break the signature';
        },
        onResponse: () => {
          throw new Error('a failing logger never fails the call');
        },
      },
    });
    expect((await sdk.balance()).$response.status).toBe(200);
    expect(requests).toEqual(['GET /balance']);
    // What the service received, seen from a server of ours.
    const echo = await localServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"balance":1}}'));
    try {
      await new TopupClient({ baseUrl: echo.baseUrl, apiKey: 'k', apiSecret: 's', userAgent: 'acme-shop/2.1', hooks: { onRequest: (i) => { i.headers.traceparent = 'tp'; } } }).balance();
      expect(echo.seen[0]).toMatchObject({ 'user-agent': `acme-shop/2.1 topup-reseller-client/${VERSION}`, traceparent: 'tp', 'x-api-key': 'k' });
      await new TopupClient({ baseUrl: echo.baseUrl, apiKey: 'k', apiSecret: 's' }).balance();
      expect(echo.seen[1]!['user-agent']).toBe(`topup-reseller-client/${VERSION}`);
    } finally {
      await echo.close();
    }
  });

  it('ends a call at its deadline, across attempts and waits', async () => {
    // A server that never answers: each attempt would wait 10 s; the call's deadline is shorter.
    const silent = await localServer(() => {});
    try {
      const client = new TopupClient({ baseUrl: silent.baseUrl, apiKey: 'k', apiSecret: 's', timeoutMs: 10_000, retries: { max: 5 } });
      const e = await thrown(client.balance({ deadlineMs: 300 })) as TopupTransportError;
      expect({ code: e.code, retryable: e.retryable }).toEqual({ code: 'DEADLINE_EXCEEDED', retryable: false });
      expect(silent.seen).toHaveLength(1);
      // The client-wide default applies when the call names none.
      const withDefault = new TopupClient({ baseUrl: silent.baseUrl, apiKey: 'k', apiSecret: 's', timeoutMs: 10_000, deadlineMs: 200 });
      expect(await thrown(withDefault.balance())).toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    } finally {
      await silent.close();
    }
    // Answers that ask for a retry later than the deadline allows: the last answer is thrown, not waited on.
    const busy = await localServer((_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"success":false,"error":"ORDER_FAILED_SUPPLIER_GATE","message":"m"}'));
    try {
      const client = new TopupClient({ baseUrl: busy.baseUrl, apiKey: 'k', apiSecret: 's', retries: { max: 50, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
      const e = await thrown(client.placeOrder({ ref_id: 'r', product_code: 'FF-100', target: '1' }, { deadlineMs: 5_000 }));
      expect(e).toBeInstanceOf(TopupServerError);
      expect(busy.seen.filter((h) => h['content-type'] === 'application/json')).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });

  it('works from CommonJS: require() of the package and of its testing entry, against the service', async () => {
    const env = { ...process.env, TOPUP_BASE_URL: t.baseUrl, TOPUP_API_KEY: t.demo.apiKey, TOPUP_API_SECRET: t.demo.apiSecret };
    const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('test/sdk/cjs/consumer.cjs')], { env });
    expect(JSON.parse(stdout)).toEqual({
      balance: 'number', requestId: 'string', notFound: { api: true, kind: true, code: 'PRODUCT_NOT_FOUND' }, verified: true, target: '4040404040',
    });
  });

  it('its test helpers: sandbox targets the service honours, and callbacks signed as the service signs them', async () => {
    // Every sandbox account of the service is a named constant, and no constant is a test account it lacks.
    const named = Object.values(SANDBOX_TARGETS).filter((v) => v !== SANDBOX_TARGETS.SUCCESS);
    expect(named.sort()).toEqual(Object.keys(SANDBOX_ACCOUNTS).sort());
    expect(SANDBOX_ACCOUNTS[SANDBOX_TARGETS.SUCCESS]).toBeUndefined();
    for (const [name, target] of Object.entries(SANDBOX_TARGETS)) {
      const row = SANDBOX_ACCOUNTS[target];
      if (name.startsWith('FAILS_') && row?.fulfilment.kind === 'failed') expect(name, target).toBe(`FAILS_${row.fulfilment.code ?? 'WITHOUT_CODE'}`);
      else if (row && row.verdict !== 'valid') expect(row.verdict === 'no_answer' ? 'CHECKER_UNAVAILABLE' : row.verdict).toBe(name);
    }
    // The failure codes of the SDK are those the API document lists.
    const doc = JSON.stringify(buildResellerDocument());
    const listed = /open set: ([A-Z_, ]+), …/.exec(doc)![1]!.split(', ');
    expect([...FAILURE_CODES].sort()).toEqual(listed.sort());

    const secret = 'ts_test_secret';
    const cb = await signedCallback({ secret, payload: { ref_id: 'shop-1', status: 'failed', failure_code: 'SUPPLIER_MAINTENANCE', serial_number: null } });
    const v = await verifyCallback(cb.body, cb.headers, secret);
    expect(v).toMatchObject({ ok: true, payload: { ref_id: 'shop-1', status: 'failed', failure_code: 'SUPPLIER_MAINTENANCE' }, attempt: 1 });
    expect(await verifyCallback(cb.body, cb.headers, 'another secret')).toEqual({ ok: false, reason: 'bad_signature' });
    const old = await signedCallback({ secret, timestamp: Date.now() - 10 * 60_000 });
    expect(await verifyCallback(old.body, old.headers, secret)).toEqual({ ok: false, reason: 'timestamp_expired' });
    const got: string[] = [];
    const handler = fetchCallbackHandler({ secret, onCallback: (p) => void got.push(p.ref_id) });
    expect((await handler(cb.toRequest('https://shop.example/cb'))).status).toBe(200);
    expect((await handler(cb.toRequest('https://shop.example/cb'))).status).toBe(200);
    expect(got).toEqual(['shop-1']);
  });
});

describe('waitForFinal within the tier limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Gold's 300 a minute scaled to 6: a poll every second would run the window dry.
    t = await startTestApp('sqlite', { env: { RATE_LIMIT_SCALE: '0.02' } });
  });
  afterAll(async () => t?.close());

  it('paces its polls by the rate-limit headers and never gets a 429', async () => {
    const { sdk, attempts } = recording(t);
    // No worker runs here: the order stays processing.
    const placed = await sdk.placeOrder({ ref_id: uniqueRef('wait'), product_code: 'FF-100', target: '1' });
    const e = await thrown(sdk.waitForFinal(placed.ref_id, { intervalMs: 10, waitMs: 4_000 })) as TopupTransportError;
    expect(e.code).toBe('TIMEOUT');
    const polls = attempts.filter((a) => a.path === '/order-status');
    expect(polls.every((a) => a.status === 200)).toBe(true);
    // One poll used one of 6 requests; the next would be due in about 60 s / floor(5 × 0.5), past the wait.
    expect(polls).toHaveLength(1);
    expect(sdk.rateLimit).toMatchObject({ limit: 6, remaining: 5 });
    // Requests left for the rest of the shop's traffic.
    expect((await sdk.balance()).$response.status).toBe(200);
  });

  it('pollGap spreads what is left of the window', () => {
    const at = (remaining: number, resetSeconds: number) => ({ limit: 300, remaining, resetSeconds, resetAt: 0 });
    expect(pollGap(null, 0.5)).toBe(0);
    expect(pollGap(at(300, 60), 0.5)).toBe(400);
    expect(pollGap(at(4, 30), 0.5)).toBe(15_000);
    expect(pollGap(at(1, 30), 0.5)).toBe(30_250);
    expect(pollGap(at(0, 10), 1)).toBe(10_250);
  });
});
