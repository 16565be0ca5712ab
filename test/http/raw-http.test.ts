import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';

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
