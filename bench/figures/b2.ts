import { CONNECTIONS, PAIRED_ROUNDS, ROUND_SECONDS } from '../lib/config.js';
import type { StoreRun } from '../lib/context.js';
import { cannon, loadText, paired } from '../lib/load.js';
import { add } from '../lib/rows.js';

/** B2: a page of 50 products against the bare server answering the very same bytes. */
export async function b2(run: StoreRun) {
  const { creds, svc, bare, bareUrl, label } = run;
  const pair = await paired(
    () => cannon({ url: `${bareUrl}/api/v1/products?limit=50`, method: 'GET', creds, duration: ROUND_SECONDS, server: bare }),
    () => cannon({ url: `${creds.baseUrl}/products?limit=50`, method: 'GET', creds, duration: ROUND_SECONDS, server: svc }),
  );
  if (pair.non2xx) throw new Error(`B2 ${label}: ${pair.non2xx} non-2xx answers`);
  add({
    id: 'B2', figure: `GET /products page of 50 (${label}${pair.spread})`, load: loadText('autocannon', CONNECTIONS, ROUND_SECONDS, PAIRED_ROUNDS),
    value: pair.fig.rps, unit: 'req/s', baseline: 'bare Fastify, same JSON', baselineValue: pair.base.rps, p50: pair.fig.p50, p99: pair.fig.p99,
    rssMb: svc.peakRssMb(), cpuUs: pair.cpuUs, clientCpuUs: pair.fig.clientCpuUs, goal: 'ratio ≥ 1.0', goalRatio: 1.0, tags: { store: run.kind },
  });
}
