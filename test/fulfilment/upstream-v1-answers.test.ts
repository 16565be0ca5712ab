import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamV1Supplier } from '../../src/adapters/suppliers/upstream-v1.js';

/**
 * What the upstream-v1 adapter says of a status query's answer: only the order's own state
 * is definite. A refused key, an error page, an unreadable body or an unknown status says
 * nothing about the order (the fulfilment service then asks again, never refunds).
 */
describe('upstream-v1 status answers', () => {
  let reply: { status: number; body: string } = { status: 200, body: '{}' };
  let server: http.Server;
  let upstream: UpstreamV1Supplier;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    upstream = new UpstreamV1Supplier(async () => ({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, apiKey: 'k', apiSecret: 's' }), 2_000);
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const answer = async (status: number, body: unknown) => {
    reply = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
    return upstream.status('ref-1');
  };

  it('unknown: a refused key, an error page, a 404 that is not "order not found", an unreadable body, an unknown status', async () => {
    expect(await answer(401, { success: false, error: 'INVALID_SIGNATURE' })).toMatchObject({ kind: 'unknown' });
    expect(await answer(403, { success: false, error: 'IP_NOT_WHITELISTED' })).toMatchObject({ kind: 'unknown' });
    expect(await answer(502, '<html>bad gateway</html>')).toMatchObject({ kind: 'unknown' });
    expect(await answer(404, '')).toMatchObject({ kind: 'unknown' });
    expect(await answer(200, 'not json')).toMatchObject({ kind: 'unknown' });
    expect(await answer(200, { success: true, data: { status: 'weird' } })).toMatchObject({ kind: 'unknown' });
  });

  it('definite: not found, processing, success, failed', async () => {
    expect(await answer(404, { success: false, error: 'PRODUCT_NOT_FOUND', message: 'order not found' })).toEqual({ kind: 'not-found' });
    expect(await answer(200, { success: true, data: { status: 'processing' } })).toEqual({ kind: 'pending' });
    expect(await answer(200, { success: true, data: { status: 'success', serial_number: 'T/ABC' } })).toEqual({ kind: 'success', voucherCode: 'ABC' });
    expect(await answer(200, { success: true, data: { status: 'failed', failure_code: 'INVALID_ID', failure_reason: 'no such account' } })).toEqual({ kind: 'failed', otherRoute: false, code: 'INVALID_ID', message: 'no such account' });
  });
});
