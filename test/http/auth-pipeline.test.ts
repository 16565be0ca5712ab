import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import { expectError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest, ResellerClient } from '../support/client.js';
import { createReseller, stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';


const order = (ref = uniqueRef()) => ({ ref_id: ref, product_code: 'FF-100', target: '123456789' });

describe.each(storeKinds())('authentication and request pipeline (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('a valid signed GET succeeds with request id and rate headers', async () => {
    const r = await t.client.get('/balance');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-ratelimit-limit']).toBe('300');
  });

  it('INVALID_API_KEY for a missing or unknown key', async () => {
    expectError(await t.client.get('/balance', { headers: { 'x-api-key': null } }), 401, 'INVALID_API_KEY');
    expectError(await t.client.get('/balance', { headers: { 'x-api-key': 'tk_nope' } }), 401, 'INVALID_API_KEY');
    expectError(await t.client.post('/order', order(), { headers: { 'x-api-key': 'tk_nope' } }), 401, 'INVALID_API_KEY');
  });

  it('INVALID_SIGNATURE for a wrong, missing or wrongly-keyed signature', async () => {
    expectError(await t.client.get('/balance', { headers: { 'x-signature': 'a'.repeat(64) } }), 401, 'INVALID_SIGNATURE');
    const missing = await t.client.get('/balance', { headers: { 'x-signature': null } });
    expectError(missing, 401, 'INVALID_SIGNATURE');
    expect(missing.body.message).toMatch(/^X-Signature header is missing: /);
    expectError(await t.client.get('/balance', { headers: { 'x-signature': 'zz' } }), 401, 'INVALID_SIGNATURE');
    const other = new ResellerClient(t.baseUrl, t.demo.apiKey, 'not-the-secret');
    expectError(await other.get('/balance'), 401, 'INVALID_SIGNATURE');
  });

  it('accepts an upper-case hex signature of the right value', async () => {
    const ts = String(Date.now());
    const r = await t.client.get('/balance', { timestamp: ts, headers: { 'x-signature': sign(t.demo.apiSecret, ts).toUpperCase() } });
    expect(r.status).toBe(200);
  });

  it('POST signs the exact bytes: the same JSON with other whitespace does not verify', async () => {
    const before = await stateSnapshot(t.platform);
    const ts = String(Date.now());
    const signedText = JSON.stringify(order());
    const sentText = JSON.stringify(JSON.parse(signedText), null, 2);
    const r = await rawRequest(`${t.baseUrl}/order`, {
      method: 'POST',
      body: sentText,
      headers: { 'content-type': 'application/json', 'x-api-key': t.demo.apiKey, 'x-timestamp': ts, 'x-signature': sign(t.demo.apiSecret, ts, signedText) },
    });
    expectError(r, 401, 'INVALID_SIGNATURE');
    expect(await stateSnapshot(t.platform)).toEqual(before);
    // The pretty-printed body itself, signed as sent, is fine.
    const ok = await t.client.post('/order', sentText);
    expect(ok.status, ok.text).toBe(200);
  });

  it('a GET signed as body+timestamp is refused: GET signs the timestamp only', async () => {
    const ts = String(Date.now());
    expectError(await t.client.get('/balance', { timestamp: ts, headers: { 'x-signature': sign(t.demo.apiSecret, ts, '{}') } }), 401, 'INVALID_SIGNATURE');
  });

  it('TIMESTAMP_EXPIRED for drift over 5 minutes either way, a missing or a seconds timestamp', async () => {
    expectError(await t.client.get('/balance', { timestamp: String(Date.now() - 6 * 60_000) }), 400, 'TIMESTAMP_EXPIRED');
    expectError(await t.client.get('/balance', { timestamp: String(Date.now() + 6 * 60_000) }), 400, 'TIMESTAMP_EXPIRED');
    expectError(await t.client.get('/balance', { headers: { 'x-timestamp': null } }), 400, 'TIMESTAMP_EXPIRED');
    const secs = await t.client.get('/balance', { timestamp: String(Math.floor(Date.now() / 1000)) });
    expectError(secs, 400, 'TIMESTAMP_EXPIRED');
    expect(secs.body.message).toMatch(/milliseconds/);
    expect((await t.client.get('/balance', { timestamp: String(Date.now() - 4 * 60_000) })).status).toBe(200);
  });

  it('IP_NOT_WHITELISTED when the caller is not in the whitelist', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['203.0.113.7'] });
    expectError(await r.client.get('/balance'), 403, 'IP_NOT_WHITELISTED');
    expectError(await r.client.post('/order', order()), 403, 'IP_NOT_WHITELISTED');
  });

  it('RESELLER_INACTIVE for suspended and pending resellers, after a valid signature', async () => {
    for (const status of ['suspended', 'pending'] as const) {
      const r = await createReseller(t.platform, t.baseUrl, { status, balance: 100_000 });
      const before = await stateSnapshot(t.platform);
      expectError(await r.client.get('/balance'), 403, 'RESELLER_INACTIVE');
      expectError(await r.client.post('/order', order()), 403, 'RESELLER_INACTIVE');
      expect(await stateSnapshot(t.platform)).toEqual(before);
      // A bad signature from an inactive account learns nothing about its status.
      expectError(await r.client.get('/balance', { headers: { 'x-signature': 'b'.repeat(64) } }), 401, 'INVALID_SIGNATURE');
    }
  });

  it('a revoked API key is refused', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    await t.platform.database.db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('api_key', '=', r.apiKey).execute();
    expectError(await r.client.get('/balance'), 401, 'INVALID_API_KEY');
  });

  it('415 INVALID_CONTENT_TYPE for a POST that is not application/json', async () => {
    expectError(await t.client.post('/order', order(), { headers: { 'content-type': 'text/plain' } }), 415, 'INVALID_CONTENT_TYPE');
    expectError(await t.client.post('/order', order(), { headers: { 'content-type': null } }), 415, 'INVALID_CONTENT_TYPE');
    const withCharset = await t.client.post('/order', order(), { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(withCharset.status, withCharset.text).toBe(200);
  });

  it('411 (error PAYLOAD_TOO_LARGE) for a chunked POST without Content-Length', async () => {
    const text = JSON.stringify(order());
    const ts = String(Date.now());
    const r = await rawRequest(`${t.baseUrl}/order`, {
      method: 'POST',
      chunked: true,
      body: text,
      headers: { 'content-type': 'application/json', 'x-api-key': t.demo.apiKey, 'x-timestamp': ts, 'x-signature': sign(t.demo.apiSecret, ts, text) },
    });
    expectError(r, 411, 'PAYLOAD_TOO_LARGE');
  });

  it('413 PAYLOAD_TOO_LARGE for a body over 4 KB', async () => {
    const big = JSON.stringify({ ...order(), target: 'x'.repeat(5000) });
    expectError(await t.client.post('/order', big), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('413 is answered from the headers, before more than 4 KB of body is read', async () => {
    const url = new URL(t.baseUrl);
    const ts = String(Date.now());
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(url.port), url.hostname, () => {
        sock.write(
          `POST /api/v1/order HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n` +
            `X-Api-Key: ${t.demo.apiKey}\r\nX-Timestamp: ${ts}\r\nX-Signature: ${'0'.repeat(64)}\r\n\r\n{"ref_id":`,
        );
        // The rest of the megabyte is never sent: the answer must come anyway.
      });
      let buf = '';
      sock.on('data', (d) => {
        buf += d.toString();
        if (buf.includes('\r\n\r\n') && buf.includes('}')) {
          sock.destroy();
          resolve(buf);
        }
      });
      sock.on('error', reject);
      setTimeout(() => reject(new Error(`no answer; got ${buf}`)), 10_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"error":"PAYLOAD_TOO_LARGE"');
  });

  it('malformed JSON and non-object bodies are 400 VALIDATION_ERROR, never 500', async () => {
    for (const body of ['{"ref_id":', 'not json', '[1,2]', '"str"', 'null', '42']) {
      const r = await t.client.post('/order', body);
      expectError(r, 400, 'VALIDATION_ERROR');
    }
    const empty = await t.client.post('/order', '');
    expectError(empty, 400, 'VALIDATION_ERROR');
  });

  it('unknown routes are 404 NOT_FOUND and wrong methods 405 with Allow, in the envelope', async () => {
    const nf = await t.client.get('/nope');
    expectError(nf, 404, 'NOT_FOUND');
    const r = await rawRequest(`${t.baseUrl}/order`, { method: 'GET' });
    expectError(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.allow).toContain('POST');
    const del = await rawRequest(`${t.baseUrl}/balance`, { method: 'DELETE' });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
  });

  it('errors without an identifiable key still carry rate headers', async () => {
    const r = await rawRequest(`${t.baseUrl}/products`, { method: 'GET' });
    expectError(r, 401, 'INVALID_API_KEY');
  });
});

describe('client IP resolution behind proxies', () => {
  it('X-Forwarded-For is ignored unless the peer is a trusted proxy', async () => {
    const t = await startTestApp('sqlite');
    try {
      const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['198.51.100.10'] });
      // Not trusted: the forged header does not help.
      const forged = await r.client.get('/balance', { headers: { 'x-forwarded-for': '198.51.100.10' } });
      expect(forged.body.error).toBe('IP_NOT_WHITELISTED');
    } finally {
      await t.close();
    }
  });

  it('X-Forwarded-For from a trusted proxy is the caller IP (IPv4 and IPv6)', async () => {
    const t = await startTestApp('sqlite', { env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['198.51.100.10', '2001:db8::1'] });
      expect((await r.client.get('/balance', { headers: { 'x-forwarded-for': '198.51.100.10' } })).status).toBe(200);
      expect((await r.client.get('/balance', { headers: { 'x-forwarded-for': '2001:0db8:0:0::1' } })).status).toBe(200);
      expect((await r.client.get('/balance', { headers: { 'x-forwarded-for': '198.51.100.11' } })).body.error).toBe('IP_NOT_WHITELISTED');
      // Without the header the proxy's own address is the caller, which is not whitelisted.
      expect((await r.client.get('/balance')).body.error).toBe('IP_NOT_WHITELISTED');
    } finally {
      await t.close();
    }
  });

  it('an IPv6 caller (::1) is matched against an IPv6 whitelist entry', async () => {
    const t = await startTestApp('sqlite');
    try {
      // The app listens on 127.0.0.1; serve the same app on ::1 through a second server.
      const http = await import('node:http');
      const server = http.createServer((req, res) => t.platform.app.routing(req, res));
      await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      try {
        const v6 = await createReseller(t.platform, t.baseUrl, { whitelist: ['::1'] });
        const client = new ResellerClient(`http://[::1]:${port}/api/v1`, v6.apiKey, v6.apiSecret);
        expect((await client.get('/balance')).status).toBe(200);
        const v4only = await createReseller(t.platform, t.baseUrl, { whitelist: ['127.0.0.1'] });
        const c4 = new ResellerClient(`http://[::1]:${port}/api/v1`, v4only.apiKey, v4only.apiSecret);
        expect((await c4.get('/balance')).body.error).toBe('IP_NOT_WHITELISTED');
      } finally {
        server.close();
      }
    } finally {
      await t.close();
    }
  });
});
