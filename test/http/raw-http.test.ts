import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/** Sends raw bytes to the listening server and returns what it wrote back before closing. */
function rawExchange(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (out += d));
    socket.on('error', (e) => (out ? resolve(out) : reject(e)));
    socket.on('close', () => resolve(out));
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

function parse(raw: string) {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

/** Issue 28 item 7: every answer the service gives is the envelope with a request id, malformed HTTP included. */
describe('malformed HTTP is answered in the envelope (sqlite)', () => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it.each([
    ['a NUL in a header value', 'GET /api/v1/products HTTP/1.1\r\nHost: x\r\nX-Api-Key: ab\u0000cd\r\n\r\n'],
    ['a header line without a colon', 'GET /api/v1/products HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['an unknown method', 'BREW /api/v1/products HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a garbage request line', '\u0001\u0002 garbage\r\n\r\n'],
  ])('%s: 400 VALIDATION_ERROR with a request id', async (_name, bytes) => {
    const r = parse(await rawExchange(t.origin, bytes));
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toEqual({ success: false, error: 'VALIDATION_ERROR', message: expect.any(String), request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(r.headers['x-request-id']).toBe(r.body.request_id);
  });

  it('an over-long path parameter is 400 VALIDATION_ERROR in the envelope, not Fastify\'s 414 FST_ERR_MAX_PARAM_LENGTH', async () => {
    const r = await op.get(`/orders/${'a'.repeat(300)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', request_id: r.headers['x-request-id'] });
    expect(r.body.message).toContain('longer than 100 characters');
    expect(r.text).not.toContain('FST_ERR');
  });

  it('a malformed percent-encoding in the path is 400 in the envelope', async () => {
    const r = parse(await rawExchange(t.origin, 'GET /admin/v1/orders/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', request_id: r.headers['x-request-id'] });
  });
});

/**
 * Writes `bytes` and waits, at most `guardMs`, for the server to close the connection.
 * `closedByServer` is false when the guard had to close it: the server was still waiting.
 */
function exchangeUntilClosed(origin: string, bytes: string, guardMs = 10_000): Promise<{ text: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let text = '';
    let closedByServer = true;
    const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'));
    socket.setEncoding('latin1');
    socket.on('data', (d) => (text += d));
    socket.on('error', () => undefined);
    const guard = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, guardMs);
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ text, closedByServer });
    });
  });
}

/**
 * Issue 43 item 5: a body that stalls is cut off after BODY_TIMEOUT_MS (408, socket freed),
 * and a body refused by its Content-Length is never read: the 413 closes the connection.
 */
describe.each(storeKinds())('bodies that stall or are refused by their length (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { BODY_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => t?.close());

  /** Headers of a POST that passes API v1's checks up to the signature (checked once the body is in). */
  const v1Post = (length: number) => [
    'POST /api/v1/order HTTP/1.1', 'Host: x', 'Content-Type: application/json', `Content-Length: ${length}`,
    `X-Api-Key: ${t.client.apiKey}`, `X-Timestamp: ${Date.now()}`, `X-Signature: ${'0'.repeat(64)}`,
  ].join('\r\n');
  const sessionPost = (path: string, length: number) => [`POST ${path} HTTP/1.1`, 'Host: x', 'Content-Type: application/json', `Content-Length: ${length}`].join('\r\n');

  it.each([
    ['a signed API v1 POST /order', () => v1Post(100)],
    ['an unauthenticated operator sign-in', () => sessionPost('/admin/v1/auth/sign-in', 100)],
    ['a dashboard sign-in', () => sessionPost('/dashboard/v1/auth/sign-in', 100)],
  ])('%s whose body stalls is answered 408 and its connection closed after BODY_TIMEOUT_MS', async (_what, head) => {
    const { text, closedByServer } = await exchangeUntilClosed(t.origin, `${head()}\r\n\r\n{"ref_id":`);
    expect(closedByServer, text).toBe(true);
    const r = parse(text);
    expect(r.status).toBe(408);
    expect(r.headers.connection).toBe('close');
    expect(r.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message: 'the request was not received in time; send it again' });
  });

  it.each([
    ['API v1 (4 KB)', () => v1Post(100 * 1024 * 1024), "the limit is 4 KB (4096 bytes)"],
    ['an operator route (64 KB)', () => sessionPost('/admin/v1/auth/sign-in', 100 * 1024 * 1024), "this route's limit, 64 KB (65536 bytes)"],
  ])('%s: a 413 by Content-Length closes the connection without waiting for the body', async (_what, head, limit) => {
    // Not a byte of the declared 100 MB is sent: the server must close without it.
    const { text, closedByServer } = await exchangeUntilClosed(t.origin, `${head()}\r\n\r\n`);
    expect(closedByServer, text).toBe(true);
    const r = parse(text);
    expect(r.status).toBe(413);
    // One answer: the connection ended with it, not by BODY_TIMEOUT_MS's 408 later.
    expect(text.match(/HTTP\/1\.1 /g), text).toHaveLength(1);
    expect(r.headers.connection).toBe('close');
    expect(r.body).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
    expect(r.body.message).toContain(limit);
  });

  it('an API v1 POST without Content-Length (chunked) is 411 and its endless body is not read either', async () => {
    const head = [
      'POST /api/v1/order HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Transfer-Encoding: chunked',
      `X-Api-Key: ${t.client.apiKey}`, `X-Timestamp: ${Date.now()}`, `X-Signature: ${'0'.repeat(64)}`,
    ].join('\r\n');
    const { text, closedByServer } = await exchangeUntilClosed(t.origin, `${head}\r\n\r\n10\r\n{"ref_id":"chunk\r\n`);
    expect(closedByServer, text).toBe(true);
    const r = parse(text);
    expect(r.status).toBe(411);
    expect(text.match(/HTTP\/1\.1 /g), text).toHaveLength(1);
    expect(r.headers.connection).toBe('close');
    expect(r.body).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
  });

  it('a request that arrives in time on the same short timeout is served', async () => {
    const r = await t.client.get('/balance');
    expect(r.status, r.text).toBe(200);
  });
});
