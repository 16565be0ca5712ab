import { B3_RATE, CONNECTIONS, DRAIN_MS, DURATION, WARMUP } from '../lib/config.js';
import type { StoreRun } from '../lib/context.js';
import { cannon, orderBody, type LoadRun } from '../lib/load.js';
import type { Started } from '../lib/processes.js';
import { add } from '../lib/rows.js';
import { startService, startWorker } from '../lib/services.js';
import { openDatabase } from '../../src/store/db.js';
import type { StoreConfig } from '../../src/config.js';
import { vacuum } from '../lib/store.js';

/**
 * B3 and B4: the worker on, a sandbox supplier with no delay, callbacks to the bare server.
 * Replaces the store's service with one running the worker (each store as it is meant to
 * run: on SQLite inside the service, one writer; on PostgreSQL a `topup worker` of its own).
 * Answers the worker process, if any, for the caller to stop.
 */
export async function b3b4(run: StoreRun, b1: LoadRun | null): Promise<Started | null> {
  const { store, label } = run;
  // The ingestion-only runs before left fulfil jobs behind: drop them, so the worker starts
  // on this phase's orders only.
  await run.svc.stop();
  {
    const db = openDatabase(store);
    await db.db.deleteFrom('jobs').execute();
    await db.db.updateTable('resellers').set({ callback_url: `${run.bareUrl}/callback` }).where('id', '=', run.resellerId).execute();
    await db.close();
  }
  // B1 left the hot reseller's row with a long chain of dead versions (one update per
  // order) that every order and foreign-key check of this phase would walk; in production
  // autovacuum keeps up with it. Start the phase from a vacuumed store.
  if (store.kind === 'postgres') await vacuum(store.url);
  const inProcess = run.kind === 'sqlite';
  const where = inProcess ? 'inside the service' : 'in its own process';
  const withWorker = await startService(store, run.dataDir, { ...run.extra, WORKER_IN_PROCESS: inProcess ? 'true' : 'false', SANDBOX_DELAY_MS: '0' });
  run.svc = withWorker.svc;
  run.creds = { ...run.creds, baseUrl: withWorker.creds.baseUrl };
  const worker = inProcess ? null : await startWorker(store, run.dataDir, run.extra);
  const creds = run.creds;
  // The warm-up second every other figure has (this service and worker have just started:
  // JIT, connection pools), at the same load, with orders of their own prefix: B3 counts
  // and measures only the orders placed after it.
  if (WARMUP) {
    const warm = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b3w'), overallRate: B3_RATE, duration: 1, warmup: false });
    if (warm.non2xx) throw new Error(`B3 ${label} warm-up: ${warm.non2xx} non-2xx answers`);
  }
  const b3Load = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b3'), overallRate: B3_RATE, warmup: false });
  if (b3Load.non2xx) throw new Error(`B3 ${label}: ${b3Load.non2xx} non-2xx answers`);
  const b3 = await settleAndMeasure(store, 'b3', b3Load.ok);
  add({
    id: 'B3', figure: `callback latency: terminal state → first attempt, ${B3_RATE} orders/s offered (${b3Load.rps.toFixed(0)} accepted/s; ${b3.settled}/${b3Load.ok} settled; worker ${where}) (${label})`,
    load: `autocannon, ${CONNECTIONS} conns, ${B3_RATE} orders/s offered, ${DURATION} s`, value: b3.firstAttempt.p99, unit: 'ms p99', baseline: '-', baselineValue: null,
    p50: b3.firstAttempt.p50, p99: b3.firstAttempt.p99, rssMb: run.svc.peakRssMb(), goal: 'p99 ≤ 50 ms', goalAbs: 50,
    tags: { store: run.kind, offered: B3_RATE, accepted: Math.round(b3Load.rps), settled: b3.settled, placed: b3Load.ok },
  });
  const b4Load = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b4'), warmup: false });
  if (b4Load.non2xx) throw new Error(`B4 ${label}: ${b4Load.non2xx} non-2xx answers`);
  const b4 = await settleAndMeasure(store, 'b4', b4Load.ok);
  const workerRss = worker?.peakRssMb() ?? 0;
  add({
    id: 'B4', figure: `end to end: orders/s reaching a terminal state with the callback delivered (${b4Load.rps.toFixed(0)} accepted/s; ${b4.delivered}/${b4Load.ok} delivered; p50/p99 = order → callback answered, a backlog's wait where more are accepted than delivered; worker ${where}${worker ? `, its peak RSS ${workerRss.toFixed(0)} MB` : ''}) (${label})`,
    load: `autocannon, ${CONNECTIONS} conns, ${DURATION} s, then the backlog drained (≤ ${DRAIN_MS / 1000} s)`, value: b4.deliveredPerSecond, unit: 'orders/s',
    baseline: 'B1 ingestion alone, one hot reseller (autocannon)', baselineValue: b1?.rps ?? null, p50: b4.endToEnd.p50, p99: b4.endToEnd.p99, rssMb: run.svc.peakRssMb(),
    goal: run.kind === 'postgres' ? 'ratio ≥ 0.3' : '-', ...(run.kind === 'postgres' ? { goalRatio: 0.3 } : {}),
    tags: { store: run.kind, ...(worker ? { workerRssMb: Math.round(workerRss) } : {}) },
  });
  return worker;
}

/**
 * Orders placed through the service with the worker on and a callback receiver: the time
 * from terminal state to the first callback attempt (B3) and from order to delivered
 * callback (B4), read from the store once the backlog settled.
 */
async function settleAndMeasure(store: StoreConfig, prefix: string, expected: number) {
  const db = openDatabase(store);
  try {
    const deadline = Date.now() + DRAIN_MS;
    const q = () =>
      db.db
        .selectFrom('orders as o')
        .innerJoin('callback_deliveries as d', (j) => j.onRef('d.order_id', '=', 'o.id').on('d.round', '=', 1))
        .innerJoin('callback_attempts as a', (j) => j.onRef('a.delivery_id', '=', 'd.id').on('a.attempt', '=', 1))
        .select(['o.created_at', 'o.completed_at', 'a.started_at', 'a.duration_ms', 'a.http_status'])
        .where('o.ref_id', 'like', `${prefix}-%`)
        .execute();
    let rows = await q();
    while (rows.length < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      rows = await q();
    }
    const firstAttempt = rows.map((r) => Number(r.started_at) - Number(r.completed_at));
    const delivered = rows.filter((r) => r.http_status !== null && r.http_status >= 200 && r.http_status < 300);
    const endToEnd = delivered.map((r) => Number(r.started_at) + Number(r.duration_ms) - Number(r.created_at));
    const first = Math.min(...delivered.map((r) => Number(r.created_at)));
    const last = Math.max(...delivered.map((r) => Number(r.started_at) + Number(r.duration_ms)));
    return {
      settled: rows.length,
      delivered: delivered.length,
      deliveredPerSecond: delivered.length ? delivered.length / Math.max(0.001, (last - first) / 1000) : 0,
      firstAttempt: { p50: pct(firstAttempt, 50), p99: pct(firstAttempt, 99) },
      endToEnd: { p50: pct(endToEnd, 50), p99: pct(endToEnd, 99) },
    };
  } finally {
    await db.close();
  }
}

function pct(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
