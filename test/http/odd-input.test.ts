import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { rawRequest, type ApiResponse } from '../support/client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { sign } from '../../src/domain/signature.js';
import { stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** Odd but possible client input: each answer is a spec envelope with a 4xx, never a 500. */
describe.each(storeKinds())('odd client input (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    if (t) await ledgerConsistent(t.platform.database.db);
    await t?.close();
  });

  function envelope(r: ApiResponse, status: number, code: string) {
    expect(r.status, r.text).toBe(status);
    expect(r.body).toMatchObject({ success: false, error: code });
    expect(typeof r.body.message).toBe('string');
    expect(r.body.request_id).toBe(r.headers['x-request-id']);
    expect(r.headers['x-ratelimit-limit']).toBeDefined();
  }

  it('repeated query parameters are refused as bad input', async () => {
    envelope(await t.client.get('/products?page=1&page=2'), 400, 'INVALID_PAGINATION');
    envelope(await t.client.get('/orders?limit=1&limit=2'), 400, 'INVALID_PAGINATION');
    const statuses = await t.client.get('/orders?status=success&status=failed');
    expect(statuses.status).toBeLessThan(500);
    const refs = await t.client.get('/order-status?ref_id=a&ref_id=b');
    expect(refs.status).toBeGreaterThanOrEqual(400);
    expect(refs.status).toBeLessThan(500);
  });

  it('non-integer pagination is INVALID_PAGINATION', async () => {
    for (const q of ['page=1.5', 'limit=1e2', 'page=%20', 'page=', 'limit=10abc', 'page=99999999999999999999']) {
      envelope(await t.client.get(`/products?${q}`), 400, 'INVALID_PAGINATION');
    }
  });

  it('a huge page past the end is an empty page, not an error', async () => {
    const r = await t.client.get('/products?page=100000');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.products).toEqual([]);
    expect(r.body.meta.has_more).toBe(false);
  });

  it('garbage timestamps are 400 TIMESTAMP_EXPIRED (the spec gives that code HTTP 400)', async () => {
    for (const ts of ['abc', '1e12', '99999999999999999999999', '-1', ' ']) {
      envelope(await t.client.get('/balance', { timestamp: ts }), 400, 'TIMESTAMP_EXPIRED');
    }
  });

  it('an over-long or odd API key is INVALID_API_KEY', async () => {
    const r = await rawRequest(`${t.baseUrl}/balance`, { method: 'GET', headers: { 'x-api-key': 'k'.repeat(5000), 'x-timestamp': String(Date.now()), 'x-signature': 'ab' } });
    envelope(r, 401, 'INVALID_API_KEY');
  });

  it('a non-hex or odd-length signature is INVALID_SIGNATURE', async () => {
    for (const sig of ['zz', 'abc', 'a'.repeat(10_000)]) {
      envelope(await t.client.get('/balance', { headers: { 'x-signature': sig } }), 401, 'INVALID_SIGNATURE');
    }
  });

  it('prototype keys in the body are unknown fields', async () => {
    const before = await stateSnapshot(t.platform);
    const body = `{"ref_id":"${uniqueRef()}","product_code":"FF-100","target":"1","__proto__":{"price":1}}`;
    const r = await t.client.post('/order', body);
    envelope(r, 400, 'VALIDATION_ERROR');
    expect(r.body.message).toContain('__proto__');
    const ctor = await t.client.post('/order', `{"ref_id":"${uniqueRef()}","product_code":"FF-100","target":"1","constructor":1}`);
    envelope(ctor, 400, 'VALIDATION_ERROR');
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('odd price values are validation errors or price mismatches, never charges at another price', async () => {
    const before = await stateSnapshot(t.platform);
    for (const price of [true, [15000], { v: 15000 }, 'abc', ' ', -15000, 1e309 as unknown]) {
      const r = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1', price });
      expect(r.status, `${JSON.stringify(price)}: ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // A literal like 15000.0000000000001 parses to exactly 15000 as a JSON number and is accepted.
    for (const raw of ['1e999', '"1.5e4x"', '"15000.001"']) {
      const r = await t.client.post('/order', `{"ref_id":"${uniqueRef()}","product_code":"FF-100","target":"1","price":${raw}}`);
      expect(r.status, `${raw}: ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('application/json with a charset is accepted', async () => {
    const r = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(r.status, r.text).toBe(200);
  });

  // Raw socket: the bytes past Content-Length read as a second request on that connection,
  // which must not leak into the next test through a shared keep-alive socket.
  it('a body longer than its Content-Length is answered with a 4xx, not a 500', async () => {
    const body = JSON.stringify({ ref_id: uniqueRef(), product_code: 'FF-100', target: '1' });
    const ts = String(Date.now());
    const url = new URL(`${t.baseUrl}/order`);
    const head = [
      `POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, 'Content-Type: application/json', 'Content-Length: 5', 'Connection: close',
      `X-Api-Key: ${t.client.apiKey}`, `X-Timestamp: ${ts}`, `X-Signature: ${sign(t.client.apiSecret, ts, body)}`,
    ].join('\r\n');
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(url.port), url.hostname, () => sock.write(`${head}\r\n\r\n${body}`));
      let text = '';
      sock.on('data', (c) => (text += c.toString('latin1')));
      sock.on('close', () => resolve(text));
      sock.on('error', reject);
    });
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    expect(status, answer).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('bad percent-encoding in the query is taken literally; control characters are VALIDATION_ERROR on both stores', async () => {
    envelope(await t.client.get('/order-status?ref_id=%E0%A4%A'), 404, 'PRODUCT_NOT_FOUND');
    envelope(await t.client.get('/order-status?ref_id=%00abc'), 400, 'VALIDATION_ERROR');
    envelope(await t.client.post('/check-status', { ref_id: 'a\u0000' }), 400, 'VALIDATION_ERROR');
    envelope(await t.client.get('/products?category_slug=%00'), 400, 'VALIDATION_ERROR');
  });

  it('NUL, other control characters or a lone surrogate in order fields are VALIDATION_ERROR naming the field; non-BMP text is fine', async () => {
    const before = await stateSnapshot(t.platform);
    for (const [field, value] of [['target', 'a\u0000b'], ['target', 'a\nb'], ['ref_id', `x\u0000${uniqueRef()}`], ['zone', '\t1'], ['product_code', 'FF-100\u0000'],
      ['target', '\ud800'], ['ref_id', `p-\ud801${uniqueRef()}`], ['target', 'a\udc00b']] as const) {
      const r = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1', [field]: value });
      envelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.message).toContain(field);
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
    for (const target of ['😀'.repeat(64), 'Ærøskøbing']) {
      const r = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target });
      expect(r.status, `${JSON.stringify(target)}: ${r.text}`).toBe(200);
    }
  });

  /** POST of exact bytes, signed over them as the spec says. */
  function postBytes(path: string, body: Buffer) {
    const ts = String(Date.now());
    return rawRequest(`${t.baseUrl}${path}`, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', 'x-api-key': t.client.apiKey, 'x-timestamp': ts, 'x-signature': sign(t.client.apiSecret, ts, body) },
    });
  }

  it('arrays nested thousands deep within 4 KB are 400 VALIDATION_ERROR before any walk, not a 500', async () => {
    const before = await stateSnapshot(t.platform);
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    for (const [path, body] of [
      ['/order', `{"ref_id":"${uniqueRef()}","product_code":"FF-100","target":"1","zone":${deep(2000)}}`],
      ['/validation', `{"product_code":"FF-100","fields":{"user_id":${deep(2000)}}}`],
      ['/check-status', `{"ref_id":${deep(2000)}}`],
    ] as const) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4096);
      const r = await postBytes(path, Buffer.from(body));
      envelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.message).toContain('more than 32 levels deep');
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('brackets inside strings are text, not nesting: an order whose fields hold them is placed', async () => {
    const refId = `[{${uniqueRef()}`;
    const r = await postBytes('/order', Buffer.from(JSON.stringify({ ref_id: refId, product_code: 'FF-100', target: `${'['.repeat(40)}\\"{` })));
    expect(r.status, r.text).toBe(200);
  });

  it('invalid UTF-8 in a string is 400 VALIDATION_ERROR: two different ref_ids never become the same U+FFFD', async () => {
    const before = await stateSnapshot(t.platform);
    const ref = uniqueRef();
    for (const bad of [[0xff], [0xfe], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const body = Buffer.concat([Buffer.from(`{"ref_id":"${ref}-`), Buffer.from(bad), Buffer.from('","product_code":"FF-100","target":"123456789"}')]);
      const r = await postBytes('/order', body);
      envelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.message).toContain('must be valid UTF-8');
    }
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });
});
