import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildResellerDocument } from '../../src/http/openapi/reseller-document.js';
import { CALLBACK_USER_AGENT } from '../../src/services/deliver-callback.js';
import { assertMatchesWebhook } from './openapi.js';

const resellerDocument = buildResellerDocument();

export interface Received {
  at: number;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

export type Behaviour = (n: number) => { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A reseller's callback endpoint on 127.0.0.1 that records every request it gets. Each order
 * callback of the service (tests of the HTTP adapter post other bodies) is checked against
 * the documented webhook; close() fails with any that was not.
 */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 })) {
  const received: Received[] = [];
  const drift: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ at: Date.now(), headers: req.headers, rawBody });
      if (req.headers['user-agent'] === CALLBACK_USER_AGENT) {
        try {
          assertMatchesWebhook(resellerDocument, 'orderCallback', req.headers, rawBody);
        } catch (e) {
          drift.push((e as Error).message);
        }
      }
      const b = behaviour(received.length);
      if (b === 'hang') return;
      res.writeHead(b.status, { 'content-type': 'text/plain', ...b.headers });
      res.end(`answer ${b.status}`);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    port,
    received,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      if (drift.length) throw new Error(drift.join('\n'));
    },
  };
}
