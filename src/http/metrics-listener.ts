import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The metrics listener: its own port (METRICS_HOST:METRICS_PORT, loopback by default), so
 * the figures are never served beside the API, whatever the reverse proxy forwards. Plain
 * node:http: one route, no hooks of the API's pipeline.
 */
export interface MetricsListener {
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

export function metricsListener(source: { scrape(): Promise<string>; contentType: string }, onError: (err: unknown) => void): MetricsListener {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found; metrics are at GET /metrics\n');
      return;
    }
    source.scrape().then(
      (text) => res.writeHead(200, { 'content-type': source.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
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
