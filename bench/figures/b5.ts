import { CONNECTIONS, DURATION, HISTORY_ORDERS, WARMUP } from '../lib/config.js';
import type { StoreRun } from '../lib/context.js';
import { cannon, type Creds, type LoadRun } from '../lib/load.js';
import { performance } from 'node:perf_hooks';
import { SEARCH_MATCH_CAP } from '../../src/domain/list-query.js';
import { sign } from '../../src/domain/signature.js';
import { operatorSession } from '../lib/operator.js';
import { add } from '../lib/rows.js';
import { seedHistory } from '../lib/seed-history.js';
import { startService } from '../lib/services.js';
import { openDashboardSession } from '../lib/store.js';

interface PageMeta { total: number; total_pages: number }

/** One read as the bench will load it, for its meta (totals and pages): rows name what they read. */
async function probe(url: string, auth: { bearer?: string; creds?: Creds }): Promise<{ count: number; meta: PageMeta; capped: boolean }> {
  const ts = String(Date.now());
  const headers: Record<string, string> = auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : { 'x-api-key': auth.creds!.apiKey, 'x-timestamp': ts, 'x-signature': sign(auth.creds!.apiSecret, ts) };
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { data?: Record<string, unknown>; meta?: PageMeta };
  if (!res.ok || !body.data || !body.meta) throw new Error(`B5 probe ${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  const list = Object.values(body.data).find(Array.isArray) ?? [];
  return { count: (list as unknown[]).length, meta: body.meta, capped: body.data.matches_capped === true };
}

/**
 * B5: history at scale. HISTORY_ORDERS orders seeded for the hot reseller, the service
 * restarted on them, then each read at 50 connections: API v1's orders and wallet history,
 * the dashboard's Orders page (a reseller session), and the operator console's order search
 * across resellers (B5-op: an operator signed in through /admin/v1).
 */
export async function b5(run: StoreRun) {
  const { store, label } = run;
  await run.svc.stop();
  const seeded = await seedHistory(store, run.resellerId, HISTORY_ORDERS);
  console.log(`B5 ${label}: ${HISTORY_ORDERS.toLocaleString('en')} orders seeded in ${seeded.seconds.toFixed(0)} s`);
  // The banner (key and secret) is printed on the first start only: keep the credentials.
  const restarted = await startService(store, run.dataDir, run.extra);
  run.svc = restarted.svc;
  run.creds = { ...run.creds, baseUrl: restarted.creds.baseUrl };
  const { creds } = run;
  const n = HISTORY_ORDERS;
  const count = n.toLocaleString('en');
  const deepPage = Math.floor(n / 50);
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const month = `start_date=${monthAgo}&end_date=${today}`;
  const dashboardUrl = creds.baseUrl.replace(/\/api\/v1$/, '/dashboard/v1');
  const adminUrl = creds.baseUrl.replace(/\/api\/v1$/, '/admin/v1');
  const bearer = await openDashboardSession(store, run.resellerId);
  const operator = await operatorSession(store, run.dataDir, adminUrl);
  // Filtered reads: their last page and match counts as the service answers them (one
  // order a second back from now: a 30-day range holds ~2.6 million of the history at most).
  const failed = await probe(`${creds.baseUrl}/orders?limit=50&status=failed&${month}`, { creds });
  const refs = await Promise.all(['hist-99999', 'hist-99'].map((ref) => probe(`${dashboardUrl}/orders?limit=50&ref_id=${ref}&${month}`, { bearer })));
  // The operator's deepest page: every order of every reseller (B1's too), newest first.
  const everyone = await probe(`${adminUrl}/orders?limit=50`, { bearer: operator });
  // The search counts and pages through its first SEARCH_MATCH_CAP matches (matches_capped beyond).
  if (everyone.count > 50 || everyone.meta.total < Math.min(n, SEARCH_MATCH_CAP)) throw new Error(`B5-op ${label}: page 1 answered ${everyone.count} orders of ${everyone.meta.total}`);
  const opPaging = `answers 50 a page of ${everyone.meta.total.toLocaleString('en')}${everyone.capped ? '+ (count capped)' : ''} matches`;
  const matches = (i: number) => `${refs[i]!.meta.total.toLocaleString('en')}${refs[i]!.capped ? '+ (count capped)' : ''} matches`;
  const requests: { id: string; name: string; url: string; bearer?: string }[] = [
    { id: 'B5', name: 'GET /orders page 1', url: `${creds.baseUrl}/orders?limit=50` },
    { id: 'B5', name: `GET /orders page ${deepPage} (deepest)`, url: `${creds.baseUrl}/orders?limit=50&page=${deepPage}` },
    { id: 'B5', name: `GET /orders status=failed + 30-day range (${failed.meta.total.toLocaleString('en')} orders), page 1`, url: `${creds.baseUrl}/orders?limit=50&status=failed&${month}` },
    { id: 'B5', name: `GET /orders status=failed + 30-day range, page ${Math.max(1, failed.meta.total_pages)} (deepest)`, url: `${creds.baseUrl}/orders?limit=50&page=${Math.max(1, failed.meta.total_pages)}&status=failed&${month}` },
    { id: 'B5', name: 'GET /wallet-history page 1', url: `${creds.baseUrl}/wallet-history?limit=50` },
    { id: 'B5', name: `GET /wallet-history page ${deepPage} (deepest)`, url: `${creds.baseUrl}/wallet-history?limit=50&page=${deepPage}` },
    // The dashboard's Orders page reads the same history through /dashboard/v1 with a
    // session: its deepest page and a ref_id search must be as fast as its first page.
    { id: 'B5', name: 'dashboard GET /orders page 1', url: `${dashboardUrl}/orders?limit=50`, bearer },
    { id: 'B5', name: `dashboard GET /orders page ${deepPage} (deepest)`, url: `${dashboardUrl}/orders?limit=50&page=${deepPage}`, bearer },
    // A ref_id prefix as an integrator types one, and a broad one.
    { id: 'B5', name: `dashboard GET /orders ref_id=hist-99999 search (${matches(0)}) + 30-day range`, url: `${dashboardUrl}/orders?limit=50&ref_id=hist-99999&${month}`, bearer },
    { id: 'B5', name: `dashboard GET /orders ref_id=hist-99 search (${matches(1)}) + 30-day range`, url: `${dashboardUrl}/orders?limit=50&ref_id=hist-99&${month}`, bearer },
    // The operator console's order search across resellers (issue 24): server-side paged.
    { id: 'B5-op', name: `operator GET /admin/v1/orders page 1, every reseller (${opPaging})`, url: `${adminUrl}/orders?limit=50`, bearer: operator },
    { id: 'B5-op', name: `operator GET /admin/v1/orders page ${everyone.meta.total_pages} (deepest it serves), every reseller`, url: `${adminUrl}/orders?limit=50&page=${everyone.meta.total_pages}`, bearer: operator },
    { id: 'B5-op', name: 'operator GET /admin/v1/orders reseller_id + status=failed + 30-day range, page 1', url: `${adminUrl}/orders?limit=50&reseller_id=${run.resellerId}&status=failed&${month}`, bearer: operator },
  ];
  // The service has just restarted: one unmeasured second of each request first, not only
  // of the next one. With the first figure's own second alone, GET /orders page 1 (the
  // first) measured 26-47 ms p99 on PostgreSQL where the same request measured last in
  // the same run gave 15-17 ms: what it measured was the fresh process, not the query.
  const reads = requests.filter((r) => r.id === 'B5');
  const history = (r: (typeof requests)[number], duration: number, warmup?: false) =>
    cannon({ url: r.url, method: 'GET', creds, bearer: r.bearer, duration, warmup, server: run.svc, timeout: 30 });
  if (WARMUP) for (const r of reads) await history(r, 1, false);
  const row = (req: (typeof requests)[number], r: LoadRun, connections: number, extra = '') => {
    const failures = r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors or timeouts (30 s)` : '';
    add({
      id: req.id, figure: `${req.name}, ${count} orders of one reseller (${label}${extra}; ${r.ok} answered${failures})`,
      // Nothing answered within the run: no latency to report (the text says so).
      load: `autocannon, ${connections} conns, ${DURATION} s${WARMUP ? ' (+1 s warm-up)' : ''}`, value: r.ok ? r.p99 : null, unit: 'ms p99', baseline: '-', baselineValue: null,
      p50: r.ok ? r.p50 : null, p99: r.ok ? r.p99 : null, rssMb: run.svc.peakRssMb(), goal: req.id === 'B5' ? 'p99 ≤ 10 ms' : '-', ...(req.id === 'B5' ? { goalAbs: 10 } : {}),
      tags: { store: run.kind, orders: n },
    });
  };
  for (const [i, req] of reads.entries()) {
    const r = await history(req, DURATION);
    if (r.non2xx || r.errors) throw new Error(`B5 ${req.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors; the figure would be meaningless`);
    row(req, r, CONNECTIONS, i === 0 ? `; seeded in ${seeded.seconds.toFixed(0)} s` : '');
  }
  // The operator's search last, at fewer connections, each row after the service has
  // worked off the one before: a search over millions of orders may take seconds, and
  // every request still in flight when a run ends is work the next run would wait behind
  // (on SQLite a read holds the event loop). Reported whatever it answered.
  const idleUrl = `${creds.baseUrl}/orders?limit=1`;
  const idleMs = await quietLatency(idleUrl, creds);
  for (const req of requests.filter((r) => r.id === 'B5-op')) {
    const r = await cannon({ url: req.url, method: 'GET', creds, bearer: req.bearer, connections: OPERATOR_CONNECTIONS, server: run.svc, timeout: 30 });
    row(req, r, OPERATOR_CONNECTIONS);
    await untilIdle(idleUrl, creds, idleMs);
  }
}

/** Connections of the operator's search rows (B5-op). */
const OPERATOR_CONNECTIONS = 10;

const timedProbe = async (url: string, creds: Creds) => {
  const t = performance.now();
  await probe(url, { creds });
  return performance.now() - t;
};

/** A small signed read's latency with nothing else running (the median of 5). */
async function quietLatency(url: string, creds: Creds): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await timedProbe(url, creds));
  return times.sort((a, b) => a - b)[2]!;
}

/** Waits (up to 2 min) until the small read answers about as fast as when quiet: the backlog is gone. */
async function untilIdle(url: string, creds: Creds, quietMs: number) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if ((await timedProbe(url, creds)) <= Math.max(50, 2 * quietMs)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}
