import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressCallbackHandler, MemoryCallbackStore, signRequest, TopupApiError, TopupClient, verifyCallback } from '@topup/reseller-client';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import { verifyCallback as serviceVerify } from '../../src/receiver.js';
import { rawRequest } from '../support/client.js';

const SECRET = 'ts_0123456789abcdef';

describe('SDK signing and verification agree with the service', () => {
  it('signRequest is the service\'s signature for GET (timestamp) and POST (body + timestamp)', async () => {
    for (const body of ['', '{"ref_id":"a","product_code":"FF-100","target":"1"}', '{"target":"ünïcode ✓"}']) {
      expect(await signRequest(SECRET, '1767225600000', body)).toBe(sign(SECRET, '1767225600000', body));
    }
  });

  it('verifyCallback accepts and refuses what the service\'s own receiver helper does (body-covering signatures)', async () => {
    const now = Date.now();
    const body = '{"ref_id":"r","status":"success","order_code":"ORD-1"}';
    const ts = String(now);
    const cases: [string, Record<string, string>, string][] = [
      ['valid', { 'x-timestamp': ts, 'x-signature': sign(SECRET, ts, body) }, body],
      ['upper-case hex', { 'X-Timestamp': ts, 'X-SIGNATURE': sign(SECRET, ts, body).toUpperCase() }, body],
      ['tampered body', { 'x-timestamp': ts, 'x-signature': sign(SECRET, ts, body) }, body.replace('success', 'failed')],
      ['wrong secret', { 'x-timestamp': ts, 'x-signature': sign('other', ts, body) }, body],
      ['stale', { 'x-timestamp': String(now - 301_000), 'x-signature': sign(SECRET, String(now - 301_000), body) }, body],
      ['future', { 'x-timestamp': String(now + 301_000), 'x-signature': sign(SECRET, String(now + 301_000), body) }, body],
      ['no signature', { 'x-timestamp': ts }, body],
      ['short signature', { 'x-timestamp': ts, 'x-signature': sign(SECRET, ts, body).slice(0, 63) }, body],
      ['bad timestamp', { 'x-timestamp': '12ab', 'x-signature': sign(SECRET, '12ab', body) }, body],
    ];
    for (const [name, headers, raw] of cases) {
      const ours = await verifyCallback(raw, headers, SECRET, { now });
      const theirs = serviceVerify({ rawBody: raw, headers, secret: SECRET, now });
      expect(ours.ok, name).toBe(theirs.ok);
      if (!ours.ok && !theirs.ok) expect(ours.reason, name).toBe(theirs.reason);
    }
  });

  it('a timestamp-only signature is refused unless acceptTimestampOnlySignature is set (the spec\'s tolerance)', async () => {
    const ts = String(Date.now());
    const headers = new Headers({ 'X-Timestamp': ts, 'X-Signature': sign(SECRET, ts) });
    const body = '{"ref_id":"r"}';
    expect(await verifyCallback(body, headers, SECRET)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verifyCallback(body, headers, SECRET, { acceptTimestampOnlySignature: true })).toMatchObject({ ok: true, payload: { ref_id: 'r' } });
    expect(serviceVerify({ rawBody: body, headers, secret: SECRET })).toEqual({ ok: true });
  });

  it('reads bytes, header arrays, the callback id and attempt, and honours toleranceMs', async () => {
    const ts = String(Date.now() - 60_000);
    const body = new TextEncoder().encode('{"ref_id":"r2"}');
    const headers = { 'X-Timestamp': [ts], 'x-signature': sign(SECRET, ts, Buffer.from(body)), 'X-Callback-Id': 'cb-1', 'x-callback-attempt': '2' };
    expect(await verifyCallback(body, headers, SECRET)).toMatchObject({ ok: true, callbackId: 'cb-1', attempt: 2, timestamp: Number(ts) });
    expect(await verifyCallback(body, headers, SECRET, { toleranceMs: 30_000 })).toEqual({ ok: false, reason: 'timestamp_expired' });
    const notJson = 'not json';
    expect(await verifyCallback(notJson, { ...headers, 'x-signature': sign(SECRET, ts, notJson) }, SECRET)).toEqual({ ok: false, reason: 'bad_body' });
  });

  it('MemoryCallbackStore forgets ids after their TTL, on release, and beyond its size bound', () => {
    let now = 1_000;
    const store = new MemoryCallbackStore(3, () => now);
    expect(store.claim('a', 100)).toBe(true);
    expect(store.claim('a', 100)).toBe(false);
    now += 101;
    expect(store.claim('a', 100)).toBe(true);
    store.release('a');
    expect(store.claim('a', 100)).toBe(true);
    for (const id of ['b', 'c', 'd', 'e']) store.claim(id, 1_000);
    expect(store.size).toBeLessThanOrEqual(3);
    expect(store.claim('e', 1_000)).toBe(false);
  });
});

/**
 * The client's retry and timeout rules at the HTTP level, against a scripted server: the
 * service cannot be made to answer 429 with a short Retry-After, or to stall, on demand.
 */
describe('SDK transport rules', () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(null)));
    server = null;
  });

  async function scripted(answers: ((req: http.IncomingMessage, res: http.ServerResponse) => void)[]) {
    const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
        answer(req, res);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const client = (opts: object = {}) => new TopupClient({ baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api/v1`, apiKey: 'tk_x', apiSecret: SECRET, retries: { max: 3, baseDelayMs: 5 }, ...opts });
    return { seen, client };
  }
  const json = (status: number, body: object, headers: Record<string, string> = {}) => (_: unknown, res: http.ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers }).end(JSON.stringify(body));
  const ok = json(200, { success: true, data: { balance: 5, currency: 'IDR' } });
  const limited = (after: string) => json(429, { success: false, error: 'RATE_LIMIT_EXCEEDED', message: 'slow down', request_id: 'req-429' }, { 'retry-after': after });

  it('signs each attempt afresh: GET over the timestamp', async () => {
    const { seen, client } = await scripted([ok]);
    expect(await client().balance()).toEqual({ balance: 5, currency: 'IDR' });
    const h = seen[0]!.headers;
    expect(h['x-api-key']).toBe('tk_x');
    expect(h['x-signature']).toBe(sign(SECRET, String(h['x-timestamp'])));
  });

  it('waits for Retry-After on a 429 and then succeeds', async () => {
    const { seen, client } = await scripted([limited('1'), ok]);
    expect(await client().balance()).toMatchObject({ balance: 5 });
    expect(seen).toHaveLength(2);
  });

  it('throws a 429 at once when Retry-After is longer than maxRetryAfterMs, and after max retries otherwise', async () => {
    const long = await scripted([limited('120')]);
    const e = await long.client().balance().catch((err: unknown) => err);
    expect(e).toBeInstanceOf(TopupApiError);
    expect(e).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, requestId: 'req-429', retryAfterMs: 120_000 });
    expect(long.seen).toHaveLength(1);
  });

  it('retries a read on 5xx a bounded number of times, then throws the last answer (a non-JSON page too)', async () => {
    const { seen, client } = await scripted([(_, res) => res.writeHead(502, { 'x-request-id': 'gw-1' }).end('<html>bad gateway</html>')]);
    const e = await client().balance().catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'HTTP_502', status: 502, requestId: 'gw-1' });
    expect(seen).toHaveLength(4);
  });

  it('times out an attempt that gets no answer, retrying reads; POST /callbacks/resend is never retried', async () => {
    const stall = await scripted([() => {}]);
    const e = await stall.client({ timeoutMs: 100, retries: { max: 1, baseDelayMs: 5 } }).balance().catch((err: unknown) => err);
    expect(e).toMatchObject({ name: 'TopupTransportError', code: 'TIMEOUT' });
    expect(stall.seen).toHaveLength(2);
    const before = stall.seen.length;
    await expect(stall.client({ timeoutMs: 100 }).resendCallback('r')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(stall.seen.length - before).toBe(1);
  });

  it('the caller\'s AbortSignal cancels the call', async () => {
    const { client } = await scripted([() => {}]);
    const controller = new AbortController();
    const pending = client().balance({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('POST /order sends the identical body (same ref_id) on every attempt, with a fresh signature', async () => {
    const created = json(200, { success: true, data: { order_id: 'o', order_code: 'ORD-1', ref_id: 'same', product_name: 'p', price: 1, status: 'processing', message: 'm' } });
    const { seen, client } = await scripted([json(500, { success: false, error: 'INTERNAL_ERROR', message: 'x', request_id: 'r' }), created]);
    expect(await client().placeOrder({ ref_id: 'same', product_code: 'P', target: 't' })).toMatchObject({ ref_id: 'same', recovered: false });
    expect(seen.map((s) => s.body)).toEqual([seen[0]!.body, seen[0]!.body]);
    for (const s of seen) expect(s.headers['x-signature']).toBe(sign(SECRET, String(s.headers['x-timestamp']), s.body));
  });

  it('expressCallbackHandler also serves plain node:http, reading the body itself', async () => {
    const handled: unknown[] = [];
    server = http.createServer((req, res) => void expressCallbackHandler({ secret: SECRET, onCallback: (p) => void handled.push(p) })(req, res));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const body = '{"ref_id":"plain"}';
    const ts = String(Date.now());
    const r = await rawRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`, { method: 'POST', body, headers: { 'x-timestamp': ts, 'x-signature': sign(SECRET, ts, body) } });
    expect(r.body).toEqual({ ok: true });
    expect(handled).toEqual([{ ref_id: 'plain' }]);
  });
});
