import { DURATION, REPORT_ORDERS, WARMUP } from '../lib/config.js';
import type { StoreRun } from '../lib/context.js';
import { cannon } from '../lib/load.js';
import { operatorSession } from '../lib/operator.js';
import { add } from '../lib/rows.js';
import { REPORT_SHAPE, seedReports } from '../lib/seed-reports.js';

/** Connections of the report reads: a report is an operator's page, not a reseller's load. */
const REPORT_CONNECTIONS = 4;

/**
 * R1: the profit report (GET /admin/v1/reports/profit) over the daily aggregates that
 * REPORT_ORDERS orders leave in a year (bench/lib/seed-reports.ts), read as the console
 * reads it: 30 days by day, the year by month per product, 30 days per reseller.
 */
export async function r1(run: StoreRun) {
  const { store, label, creds } = run;
  const seeded = await seedReports(store, REPORT_ORDERS);
  const adminUrl = creds.baseUrl.replace(/\/api\/v1$/, '/admin/v1');
  const bearer = await operatorSession(store, run.dataDir, adminUrl);
  const day = (ago: number) => new Date(Date.now() + 7 * 3_600_000 - ago * 86_400_000).toISOString().slice(0, 10);
  const reads = [
    { name: '30 days by day', q: `from=${day(29)}&to=${day(0)}&granularity=day` },
    { name: '365 days by month per product', q: `from=${day(364)}&to=${day(0)}&granularity=month&group_by=product` },
    { name: '30 days by week per reseller', q: `from=${day(29)}&to=${day(0)}&granularity=week&group_by=reseller` },
  ];
  const count = REPORT_ORDERS.toLocaleString('en');
  const shape = `${seeded.rows.toLocaleString('en')} aggregate rows: ${REPORT_SHAPE.resellers} resellers × ${REPORT_SHAPE.products} products × ${REPORT_SHAPE.suppliers} suppliers, ${REPORT_SHAPE.days} days`;
  for (const [i, r] of reads.entries()) {
    const url = `${adminUrl}/reports/profit?${r.q}`;
    const probe = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } });
    if (!probe.ok) throw new Error(`R1 ${r.name}: ${probe.status} ${(await probe.text()).slice(0, 300)}`);
    const res = await cannon({ url, method: 'GET', creds, bearer, connections: REPORT_CONNECTIONS, server: run.svc, timeout: 30 });
    if (res.non2xx || res.errors) throw new Error(`R1 ${r.name}: ${res.non2xx} non-2xx answers, ${res.errors} errors`);
    add({
      id: 'R1', figure: `profit report ${r.name}, ${count} orders a year (${label}; ${shape}${i === 0 ? `; seeded in ${seeded.seconds.toFixed(0)} s` : ''})`,
      load: `autocannon, ${REPORT_CONNECTIONS} conns, ${DURATION} s${WARMUP ? ' (+1 s warm-up)' : ''}`, value: res.p99, unit: 'ms p99', baseline: '-', baselineValue: null,
      p50: res.p50, p99: res.p99, rssMb: run.svc.peakRssMb(), goal: 'p99 < 1000 ms', goalAbs: 1000, tags: { store: run.kind, orders: REPORT_ORDERS },
    });
  }
}
