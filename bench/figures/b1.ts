import { CONNECTIONS, MANY_RESELLERS, PAIRED_ROUNDS, REFUSALS_PER_SECOND, ROUND_SECONDS } from '../lib/config.js';
import { freePort, type StoreRun } from '../lib/context.js';
import { alternate, cannon, loadText, medianPair, orderBody, paired, type LoadRun } from '../lib/load.js';
import type { Started } from '../lib/processes.js';
import { rawLoad } from '../lib/raw-client.js';
import { add } from '../lib/rows.js';
import { addResellers } from '../lib/store.js';
import { startService } from '../lib/services.js';

const ORDER_PATH = '/order';

/**
 * B1: order ingestion (worker off) against the bare HMAC route, one hot reseller, measured
 * with two clients in the same alternating rounds: autocannon and the raw-socket client
 * (less CPU per request, and on 2 cores the client's CPU is the service's loss). Then over
 * 100 resellers, with refused requests beside it (B1-err), and with metrics off against on
 * (B1-metrics, SQLite). Answers the autocannon run of the median round (B4's baseline).
 */
export async function b1(run: StoreRun): Promise<LoadRun> {
  const { creds, svc, bare, bareUrl, label } = run;
  const bareOrder = `${bareUrl}/api/v1/order`;
  const svcOrder = `${creds.baseUrl}${ORDER_PATH}`;
  const goal = run.kind === 'sqlite' ? { goal: 'ratio ≥ 0.5', goalRatio: 0.5 } : { goal: '-' };
  const rounds = await alternate([
    () => cannon({ url: bareOrder, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: bare }),
    () => cannon({ url: svcOrder, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: svc }),
    () => rawLoad({ url: bareOrder, creds, body: orderBody(), seconds: ROUND_SECONDS, server: bare }),
    () => rawLoad({ url: svcOrder, creds, body: orderBody(), seconds: ROUND_SECONDS, server: svc }),
  ]);
  const byClient = {
    autocannon: medianPair(rounds.map(([base, fig]) => ({ base: base!, fig: fig! }))),
    'raw client': medianPair(rounds.map(([, , base, fig]) => ({ base: base!, fig: fig! }))),
  } as const;
  for (const [client, pair] of Object.entries(byClient) as [keyof typeof byClient, ReturnType<typeof medianPair>][]) {
    if (pair.non2xx || pair.base.errors || pair.fig.errors) throw new Error(`B1 ${label} (${client}): ${pair.non2xx} non-2xx answers, ${pair.base.errors + pair.fig.errors} errors`);
    add({
      id: 'B1', figure: `POST /order, one hot reseller (${label}; rounds of 4 runs: bare and service with autocannon, then with the raw client${pair.spread})`,
      load: loadText(client, CONNECTIONS, ROUND_SECONDS, PAIRED_ROUNDS),
      value: pair.fig.rps, unit: 'orders/s', baseline: 'bare Fastify + same HMAC, same client', baselineValue: pair.base.rps,
      p50: pair.fig.p50, p99: pair.fig.p99, rssMb: svc.peakRssMb(), cpuUs: pair.cpuUs, clientCpuUs: pair.fig.clientCpuUs,
      tags: { store: run.kind, client, resellers: 1 }, ...goal,
    });
  }

  const many = await addResellers(run.store, MANY_RESELLERS - 1, creds.baseUrl);
  const manyPair = await paired(
    () => cannon({ url: bareOrder, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: bare }),
    () => cannon({ url: svcOrder, method: 'POST', creds: [creds, ...many], body: orderBody(), duration: ROUND_SECONDS, server: svc }),
  );
  if (manyPair.non2xx) throw new Error(`B1 ${MANY_RESELLERS} resellers ${label}: ${manyPair.non2xx} non-2xx answers`);
  add({
    id: 'B1', figure: `POST /order, ${MANY_RESELLERS} resellers (${label}${manyPair.spread})`, load: loadText('autocannon', CONNECTIONS, ROUND_SECONDS, PAIRED_ROUNDS),
    value: manyPair.fig.rps, unit: 'orders/s', baseline: 'bare Fastify + same HMAC', baselineValue: manyPair.base.rps, p50: manyPair.fig.p50, p99: manyPair.fig.p99,
    rssMb: svc.peakRssMb(), cpuUs: manyPair.cpuUs, clientCpuUs: manyPair.fig.clientCpuUs, tags: { store: run.kind, client: 'autocannon', resellers: MANY_RESELLERS }, ...goal,
  });

  await b1Err(run);
  if (run.kind === 'sqlite') await b1Metrics(run);
  return byClient.autocannon.fig;
}

/**
 * B1 with a steady stream of refused requests (signed orders missing their fields:
 * VALIDATION_ERROR, recorded among the reseller's recent API errors) beside the orders,
 * with recording on (this service) against the same service and store with
 * API_ERROR_LOG=false, alternating rounds. Not wrong signatures: failed authentications
 * block their source address for the minute (docs/reseller-api.md), and the orders come
 * from the same address.
 */
async function b1Err(run: StoreRun) {
  const { creds, svc, label } = run;
  const off = await startService(run.store, run.dataDir, { ...run.extra, API_ERROR_LOG: 'false' });
  try {
    const withRefusals = async (baseUrl: string, server: Started) => {
      const [orders, refusals] = await Promise.all([
        cannon({ url: `${baseUrl}${ORDER_PATH}`, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server }),
        cannon({ url: `${baseUrl}${ORDER_PATH}`, method: 'POST', creds, body: () => '{"ref_id":"bench-refused"}', duration: ROUND_SECONDS, connections: 4, overallRate: REFUSALS_PER_SECOND }),
      ]);
      if (refusals.ok) throw new Error(`B1 with refusals ${label}: ${refusals.ok} refused requests were accepted`);
      return orders;
    };
    const pair = await paired(() => withRefusals(off.creds.baseUrl, off.svc), () => withRefusals(creds.baseUrl, svc));
    if (pair.fig.non2xx || pair.base.non2xx) throw new Error(`B1 with refusals ${label}: non-2xx orders`);
    add({
      id: 'B1-err', figure: `POST /order, one hot reseller, with ${REFUSALS_PER_SECOND} refused requests/s beside it (4 more autocannon conns), recent API errors recorded (${label}${pair.spread})`,
      load: loadText('autocannon', CONNECTIONS, ROUND_SECONDS, PAIRED_ROUNDS), value: pair.fig.rps, unit: 'orders/s', baseline: 'the same with API_ERROR_LOG=false', baselineValue: pair.base.rps,
      p50: pair.fig.p50, p99: pair.fig.p99, rssMb: svc.peakRssMb(), cpuUs: pair.cpuUs, goal: 'ratio ≥ 0.95', goalRatio: 0.95,
    });
  } finally {
    await off.svc.stop();
  }
}

/**
 * B1 with metrics on (METRICS_PORT a free port, as production runs) against metrics off
 * (METRICS_PORT=off), two services on the same store in alternating rounds, raw client.
 */
async function b1Metrics(run: StoreRun) {
  const { creds, label } = run;
  const off = await startService(run.store, run.dataDir, { ...run.extra, METRICS_PORT: 'off' });
  const on = await startService(run.store, run.dataDir, { ...run.extra, METRICS_HOST: '127.0.0.1', METRICS_PORT: String(await freePort()) });
  try {
    const pair = await paired(
      () => rawLoad({ url: `${off.creds.baseUrl}${ORDER_PATH}`, creds, body: orderBody(), seconds: ROUND_SECONDS, server: off.svc }),
      () => rawLoad({ url: `${on.creds.baseUrl}${ORDER_PATH}`, creds, body: orderBody(), seconds: ROUND_SECONDS, server: on.svc }),
    );
    if (pair.non2xx) throw new Error(`B1 metrics ${label}: ${pair.non2xx} non-2xx answers`);
    add({
      id: 'B1-metrics', figure: `POST /order, one hot reseller, metrics on (${label}${pair.spread})`, load: loadText('raw client', CONNECTIONS, ROUND_SECONDS, PAIRED_ROUNDS),
      value: pair.fig.rps, unit: 'orders/s', baseline: 'the same with METRICS_PORT=off', baselineValue: pair.base.rps, p50: pair.fig.p50, p99: pair.fig.p99,
      rssMb: on.svc.peakRssMb(), cpuUs: pair.cpuUs, clientCpuUs: pair.fig.clientCpuUs, goal: 'ratio ≥ 0.97 (cost < 3%)', goalRatio: 0.97,
    });
  } finally {
    await Promise.all([off.svc.stop(), on.svc.stop()]);
  }
}
