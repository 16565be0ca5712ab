/**
 * The benchmark suite: `npm run bench` (full) or `npm run bench -- --smoke` (seconds).
 * Every figure is measured next to its baseline in the same run and reported as a ratio,
 * because this machine is small and shared. Results: docs/benchmarks.md and .json, written
 * whole by this run (bench/lib/report.ts). One file per figure under bench/figures/.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sign } from '../src/domain/signature.js';
import { b1 } from './figures/b1.js';
import { b1Pg } from './figures/b1-pg.js';
import { b2 } from './figures/b2.js';
import { b3b4 } from './figures/b3-b4.js';
import { b5 } from './figures/b5.js';
import { cliStart } from './figures/cli-start.js';
import { r1 } from './figures/r1.js';
import { OUT_DIR, REDIS, SMOKE, STORES, wants } from './lib/config.js';
import type { StoreRun } from './lib/context.js';
import type { LoadRun } from './lib/load.js';
import type { Started } from './lib/processes.js';
import { writeReport } from './lib/report.js';
import { bareServer, startService } from './lib/services.js';
import { prepare, scratchStore } from './lib/store.js';

async function benchStore(kind: 'sqlite' | 'postgres') {
  const scratch = await scratchStore(kind);
  const { store, dataDir } = scratch;
  const extra: Record<string, string> = kind === 'postgres' ? { REDIS_URL: REDIS } : {};
  const { svc, creds } = await startService(store, dataDir, extra);
  let worker: Started | null = null;
  let run: StoreRun | null = null;
  try {
    const resellerId = await prepare(store);
    // B2 first (the catalog), so the bare server can serve the very same bytes.
    const ts = String(Date.now());
    const page = await fetch(`${creds.baseUrl}/products?limit=50`, { headers: { 'x-api-key': creds.apiKey, 'x-timestamp': ts, 'x-signature': sign(creds.apiSecret, ts) } }).then((r) => r.text());
    const productsFile = path.join(dataDir, 'products.json');
    writeFileSync(productsFile, page);
    const { bare, bareUrl } = await bareServer(creds.apiSecret, productsFile);
    run = { kind, label: kind === 'sqlite' ? 'SQLite' : 'PostgreSQL + Redis', store, dataDir, extra, resellerId, svc, creds, bare, bareUrl };
    try {
      let b1Run: LoadRun | null = null;
      if (wants('B1')) {
        b1Run = await b1(run);
        await b1Pg(run);
      }
      if (wants('B2')) await b2(run);
      // Once per run, on the first store, while its service idles (a read-only command needs an order).
      if (wants('CLI') && kind === STORES[0]) await cliStart(run);
      if (wants('B3', 'B4')) worker = await b3b4(run, b1Run);
    } finally {
      await worker?.stop();
      await bare.stop();
    }
    if (wants('B5')) await b5(run);
    if (wants('R1')) await r1(run);
  } finally {
    await run?.svc.stop();
    await svc.stop();
    if (process.env.BENCH_KEEP_DB) {
      scratch.keep();
      console.log(`kept: ${store.kind === 'sqlite' ? store.file : store.url}`);
    } else await scratch.drop();
  }
}

const startedAt = new Date();
const loadBefore = os.loadavg();
for (const k of STORES) await benchStore(k);
writeReport({ startedAt, loadBefore });
console.log(`wrote ${OUT_DIR}/${SMOKE ? 'benchmarks-smoke' : 'benchmarks'}.{md,json} in ${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min`);
