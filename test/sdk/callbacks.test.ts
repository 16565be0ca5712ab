import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  expressCallbackHandler, fetchCallbackHandler, registerFastifyCallback, TopupClient, type CallbackHandlerOptions, type CallbackPayload,
} from '@topup/reseller-client';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest } from '../support/client.js';
import { createReseller } from '../support/resellers.js';

interface Captured { headers: Record<string, string>; body: Buffer }
interface Receiver { name: string; url: string; handled: CallbackPayload[]; captured: Captured[]; close(): Promise<void> }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const plainHeaders = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

async function listen(server: http.Server) {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/topup/callback`;
}

/** A fetch-style handler (as in Next.js, Hono, Workers) served through node:http. */
async function fetchReceiver(opts: (handled: CallbackPayload[]) => CallbackHandlerOptions): Promise<Receiver> {
  const handled: CallbackPayload[] = [];
  const captured: Captured[] = [];
  const handler = fetchCallbackHandler(opts(handled));
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    captured.push({ headers: plainHeaders(req.headers), body });
    const response = await handler(new Request(`http://receiver${req.url}`, { method: req.method, headers: plainHeaders(req.headers), body }));
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  });
  const url = await listen(server);
  return { name: 'fetch Request', url, handled, captured, close: () => new Promise((r) => server.close(() => r())) };
}

/** Express 5 with express.raw on the callback route, as the SDK's README says. */
async function expressReceiver(opts: (handled: CallbackPayload[]) => CallbackHandlerOptions): Promise<Receiver> {
  const handled: CallbackPayload[] = [];
  const captured: Captured[] = [];
  const app = express();
  const handler = expressCallbackHandler(opts(handled));
  app.post('/topup/callback', express.raw({ type: 'application/json' }), (req, res, next) => {
    captured.push({ headers: plainHeaders(req.headers), body: req.body as Buffer });
    handler(req, res).catch(next);
  });
  const server = http.createServer(app);
  const url = await listen(server);
  return { name: 'Express', url, handled, captured, close: () => new Promise((r) => server.close(() => r())) };
}

/** Fastify with the SDK's registerFastifyCallback (raw bytes in its own scope). */
async function fastifyReceiver(opts: (handled: CallbackPayload[]) => CallbackHandlerOptions): Promise<Receiver> {
  const handled: CallbackPayload[] = [];
  const captured: Captured[] = [];
  const app = Fastify({ logger: false });
  app.addHook('preHandler', async (req) => {
    captured.push({ headers: plainHeaders(req.headers), body: req.body as Buffer });
  });
  await registerFastifyCallback(app, '/topup/callback', opts(handled));
  // The rest of the app keeps parsing JSON as usual.
  app.post('/other', async (req) => ({ parsed: typeof req.body }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { name: 'Fastify', url: `${address}/topup/callback`, handled, captured, close: () => app.close() };
}

/**
 * The service's real callbacks, verified end to end by each of the SDK's ready handlers;
 * then forged, stale, timestamp-only and replayed ones, which each handler refuses or drops.
 * One store kind: the handlers read HTTP only, and delivery is covered on both stores in test/callbacks.
 */
describe('callback handlers receive the service\'s signed callbacks', () => {
  let t: TestApp;
  let reseller: Awaited<ReturnType<typeof createReseller>>;
  let sdk: TopupClient;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true });
    reseller = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    sdk = new TopupClient({ baseUrl: t.baseUrl, apiKey: reseller.apiKey, apiSecret: reseller.apiSecret });
  });
  afterAll(async () => t?.close());

  for (const make of [fetchReceiver, expressReceiver, fastifyReceiver]) {
    it(`${make.name}: verifies, runs onCallback once, and refuses forgeries`, async () => {
      const rx = await make((handled) => ({ secret: reseller.apiSecret, onCallback: (p) => void handled.push(p) }));
      try {
        await t.platform.setCallbackUrl.execute(reseller.id, rx.url);
        const ref_id = uniqueRef(`cb-${rx.name.split(' ')[0]!.toLowerCase()}`);
        await sdk.placeOrder({ ref_id, product_code: 'FF-100', target: '7000000002' });
        for (let waited = 0; rx.handled.length === 0; waited += 20) {
          if (waited > 20_000) throw new Error(`${rx.name}: no callback handled (${rx.captured.length} received)`);
          await sleep(20);
        }
        expect(rx.handled).toEqual([expect.objectContaining({ ref_id, status: 'failed', failure_code: 'SUPPLIER_UNREACHABLE', serial_number: null })]);
        const real = rx.captured[0]!;
        expect(real.headers['x-callback-id']).toBeTruthy();

        const post = (headers: Record<string, string>, body: string | Buffer) =>
          rawRequest(rx.url, { method: 'POST', headers: { ...headers, 'content-length': null } as Record<string, string | null>, body });
        // Replayed exactly (a repeated delivery, or an attacker's copy): 2xx, not run again.
        const replay = await post(real.headers, real.body);
        expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: { ok: true, duplicate: true } });

        const text = real.body.toString('utf8');
        const forged = text.replace('"failed"', '"success"');
        expect(forged).not.toBe(text);
        expect((await post(real.headers, forged)).status).toBe(401);

        const staleTs = String(Date.now() - 6 * 60_000);
        const stale = { ...real.headers, 'x-timestamp': staleTs, 'x-signature': sign(reseller.apiSecret, staleTs, text), 'x-callback-id': 'stale-round' };
        expect((await post(stale, text)).body).toEqual({ ok: false, error: 'timestamp_expired' });

        // What any of this reseller's GET requests carries: HMAC(timestamp). Not a valid callback signature.
        const ts = String(Date.now());
        const timestampOnly = { ...real.headers, 'x-timestamp': ts, 'x-signature': sign(reseller.apiSecret, ts), 'x-callback-id': 'ts-only' };
        expect((await post(timestampOnly, forged)).body).toEqual({ ok: false, error: 'bad_signature' });

        const otherSecret = { ...real.headers, 'x-timestamp': ts, 'x-signature': sign('another secret', ts, text), 'x-callback-id': 'other' };
        expect((await post(otherSecret, text)).status).toBe(401);
        expect((await post({ 'content-type': 'application/json' }, text)).body).toEqual({ ok: false, error: 'missing_headers' });

        // Upper-case header names are the same headers.
        const fresh = String(Date.now());
        const upper = { 'Content-Type': 'application/json', 'X-Timestamp': fresh, 'X-Signature': sign(reseller.apiSecret, fresh, text), 'X-Callback-Id': 'new-round' };
        expect((await post(upper, text)).body).toEqual({ ok: true });
        expect(rx.handled).toHaveLength(2);
      } finally {
        await rx.close();
      }
    });
  }

  it('a failing onCallback answers 500 and the same round is processed on its next attempt', async () => {
    let calls = 0;
    const handler = fetchCallbackHandler({ secret: 's3cret', onCallback: () => { if (++calls === 1) throw new Error('database down'); } });
    const body = JSON.stringify({ ref_id: 'r-1', status: 'success' });
    const ts = String(Date.now());
    const request = () => new Request('http://receiver/cb', { method: 'POST', body, headers: { 'x-timestamp': ts, 'x-signature': sign('s3cret', ts, body), 'x-callback-id': 'round-1' } });
    expect((await handler(request())).status).toBe(500);
    expect((await handler(request())).status).toBe(200);
    expect(await (await handler(request())).json()).toEqual({ ok: true, duplicate: true });
    expect(calls).toBe(2);
  });

  it('Express with express.json() in front cannot verify, and says what to mount instead', async () => {
    const app = express();
    app.post('/cb', express.json(), (req, res) => void expressCallbackHandler({ secret: 's', onCallback: () => {} })(req, res));
    const server = http.createServer(app);
    const url = (await listen(server)).replace('/topup/callback', '/cb');
    try {
      const r = await rawRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ref_id":"x"}' });
      expect(r.status).toBe(500);
      expect(r.body.error).toMatch(/express\.raw/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
