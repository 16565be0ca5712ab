import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readiness } from '../services/readiness.js';
import { LIVE, readinessAnswer } from './routes/health.js';

/**
 * The metrics listener: its own port (METRICS_HOST:METRICS_PORT, loopback by default), so
 * the figures are never served beside the API, whatever the reverse proxy forwards. It
 * answers /livez and /readyz too, as the API does: the probe of `topup worker`, which has
 * no API port. Plain node:http: three routes, no hooks of the API's pipeline.
 */
export interface MetricsListener {
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

interface Sources {
  metrics: { scrape(): Promise<string>; contentType: string };
  readiness: () => Promise<Readiness>;
}

type Answer = { status: number; type: string; body: string };
const json = (status: number, body: object): Answer => ({ status, type: 'application/json; charset=utf-8', body: JSON.stringify(body) });

export function metricsListener(sources: Sources, onError: (err: unknown) => void): MetricsListener {
  const routes: Record<string, () => Promise<Answer>> = {
    '/metrics': async () => ({ status: 200, type: sources.metrics.contentType, body: await sources.metrics.scrape() }),
    '/livez': async () => json(200, LIVE),
    '/readyz': async () => {
      const a = readinessAnswer(await sources.readiness());
      return json(a.status, a.body);
    },
  };
  const server = http.createServer((req, res) => {
    const route = routes[(req.url ?? '/').split('?')[0]!];
    if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found; this listener serves GET /metrics, /livez and /readyz\n');
      return;
    }
    route().then(
      (a) => res.writeHead(a.status, { 'content-type': a.type, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : a.body),
      (err) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('unavailable\n');
      },
    );
  });
  return {
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const a = server.address() as AddressInfo;
          resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/metrics`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
