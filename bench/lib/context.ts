import net from 'node:net';
import type { StoreConfig } from '../../src/config.js';
import type { Creds } from './load.js';
import type { Started } from './processes.js';

/** One store's run: its scratch store, the service as it runs now, and the bare baseline server. */
export interface StoreRun {
  kind: 'sqlite' | 'postgres';
  label: string;
  store: StoreConfig;
  dataDir: string;
  /** Environment every service and worker of this store gets (Redis on PostgreSQL). */
  extra: Record<string, string>;
  resellerId: string;
  svc: Started;
  creds: Creds;
  bare: Started;
  bareUrl: string;
}

/** A port free right now (the metrics listener of each service: several run at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
