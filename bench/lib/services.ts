import path from 'node:path';
import type { StoreConfig } from '../../src/config.js';
import { MASTER_KEY } from './config.js';
import { freePort } from './context.js';
import type { Creds } from './load.js';
import { startProcess, TOPUP_BIN, type Started } from './processes.js';

const databaseUrl = (store: StoreConfig) => (store.kind === 'sqlite' ? `sqlite:${store.file}` : store.url);

/** The environment every `topup` process of the bench runs with (CLI runs too). */
export function topupEnv(store: StoreConfig, dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, DATABASE_URL: databaseUrl(store), LOG_LEVEL: 'error', NODE_ENV: 'development', MASTER_KEY, REDIS_URL: '' };
}

/**
 * Metrics on, as production runs (issue 25: METRICS_PORT, default 9464; `off` disables
 * them), each process on a port of its own: several services and workers run at once.
 */
const metricsEnv = async () => ({ METRICS_HOST: '127.0.0.1', METRICS_PORT: String(await freePort()) });

/** `topup serve` as its own process (worker off unless `extraEnv` says otherwise). */
export async function startService(store: StoreConfig, dataDir: string, extraEnv: Record<string, string> = {}) {
  const svc = await startProcess(
    // e.g. BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the service only.
    [...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean), TOPUP_BIN, 'serve'],
    { ...topupEnv(store, dataDir), ...(await metricsEnv()), PORT: '0', RATE_LIMIT_SCALE: '100000', WORKER_IN_PROCESS: 'false', ...extraEnv },
    /topup listening on \S+/,
  );
  const out = svc.output();
  const creds: Creds = {
    baseUrl: /topup listening on (\S+)/.exec(out)![1]!,
    apiKey: /TOPUP_API_KEY=(\S+)/.exec(out)?.[1] ?? '',
    apiSecret: /TOPUP_API_SECRET=(\S+)/.exec(out)?.[1] ?? '',
  };
  return { svc, creds };
}

/**
 * A job worker as its own process (`topup worker`), as production on PostgreSQL runs it
 * beside `topup serve` with WORKER_IN_PROCESS=false: fulfilment and callbacks no longer
 * compete with ingestion for the service's event loop.
 */
export async function startWorker(store: StoreConfig, dataDir: string, extraEnv: Record<string, string> = {}) {
  return startProcess(
    [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), TOPUP_BIN, 'worker'],
    { ...topupEnv(store, dataDir), ...(await metricsEnv()), SANDBOX_DELAY_MS: '0', ...extraEnv },
    /topup worker \S+ running/,
  );
}

/** The baselines' HTTP ceiling (bench/baselines/bare-server.ts), in its own process. */
export async function bareServer(secret: string, productsFile: string): Promise<{ bare: Started; bareUrl: string }> {
  const bare = await startProcess(['--import', 'tsx', path.resolve('bench/baselines/bare-server.ts')], { BENCH_SECRET: secret, BENCH_PRODUCTS_FILE: productsFile }, /bare listening on \S+/);
  return { bare, bareUrl: /bare listening on (\S+)/.exec(bare.output())![1]! };
}
