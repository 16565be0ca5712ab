import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { B3_RATE, CLI_ROUNDS, CONNECTIONS, DURATION, HISTORY_ORDERS, OUT_DIR, PAIRED_ROUNDS, ROUND_SECONDS, SMOKE, STORES, WARMUP } from './config.js';
import { rows, type Row } from './rows.js';

const fmt = (n: number | null | undefined, d = 1) => (n === null || n === undefined ? '-' : n.toFixed(d));
const storeName = (s: string | number | undefined) => (s === 'sqlite' ? 'SQLite' : 'PostgreSQL');

interface Goal { figure: string; goal: string; measured: string; status: 'met' | 'not met' | 'not measured' }

/** The next goals (issue 29), each judged from this run's rows only. */
export function goals(all: Row[]): Goal[] {
  const of = (id: string, f: (r: Row) => boolean = () => true) => all.filter((r) => r.id === id && f(r));
  const judge = (measured: Row[], ok: (r: Row) => boolean, text: (r: Row) => string, extra: { expect?: number; partial?: string } = {}): Pick<Goal, 'measured' | 'status'> => {
    if (!measured.length) return { measured: 'not in this run', status: 'not measured' };
    const status = measured.every(ok) ? 'met' : 'not met';
    const parts = measured.map(text).join('; ');
    if (extra.partial) return { measured: `${parts}; ${extra.partial}`, status: status === 'met' ? 'not measured' : status };
    if (extra.expect !== undefined && measured.length < extra.expect) return { measured: `${parts}; not every store ran`, status: status === 'met' ? 'not measured' : status };
    return { measured: parts, status };
  };
  const b1 = of('B1', (r) => r.tags?.store === 'sqlite' && r.tags?.resellers === 1);
  const b2 = of('B2');
  const b3 = of('B3');
  const b4 = of('B4', (r) => r.tags?.store === 'postgres');
  const b5 = of('B5');
  const b5Stores = [...new Set(b5.map((r) => String(r.tags?.store)))];
  const rss = all.flatMap((r) => [
    ...(r.rssMb ? [{ what: `service, ${r.id} ${storeName(r.tags?.store)}`, mb: r.rssMb }] : []),
    ...(r.tags?.workerRssMb ? [{ what: 'worker, B4 PostgreSQL', mb: Number(r.tags.workerRssMb) }] : []),
  ]);
  const peak = rss.sort((a, b) => b.mb - a.mb)[0];
  const stores = STORES.length;
  return [
    { figure: 'B1 SQLite', goal: '≥ 0.5 × bare HMAC route with either client', ...judge(b1, (r) => (r.ratio ?? 0) >= 0.5, (r) => `${r.tags?.client} ${fmt(r.ratio, 2)}`, { expect: 2 }) },
    { figure: 'B2 GET /products', goal: '≥ 1.0 × bare route on both stores', ...judge(b2, (r) => (r.ratio ?? 0) >= 1.0, (r) => `${storeName(r.tags?.store)} ${fmt(r.ratio, 2)}`, { expect: 2 }) },
    { figure: 'B3 terminal → first callback', goal: `p99 ≤ 50 ms at ${B3_RATE.toLocaleString('en')} orders/s offered, both stores`, ...judge(b3, (r) => (r.p99 ?? Infinity) <= 50, (r) => `${storeName(r.tags?.store)} ${fmt(r.p99, 0)} ms (${r.tags?.accepted} accepted/s)`, { expect: 2 }) },
    { figure: 'B4 end to end on PostgreSQL', goal: '≥ 0.3 × B1 on PostgreSQL', ...judge(b4, (r) => (r.ratio ?? 0) >= 0.3, (r) => `${fmt(r.ratio, 2)} (${fmt(r.value, 0)} against ${fmt(r.baselineValue, 0)}/s)`) },
    {
      figure: 'B5 history', goal: 'p99 ≤ 10 ms at every page depth over 10,000,000 orders',
      ...judge(
        // A row that answered nothing within its run (no p99) is the worst of all.
        b5Stores.map((s) => b5.filter((r) => r.tags?.store === s).sort((a, b) => (b.p99 ?? Number.MAX_VALUE) - (a.p99 ?? Number.MAX_VALUE))[0]!),
        (r) => (r.p99 ?? Infinity) <= 10,
        (r) => `${storeName(r.tags?.store)} worst ${r.p99 === null ? `nothing answered in ${DURATION} s (${r.figure.split(',')[0]})` : `${fmt(r.p99, 0)} ms`}`,
        HISTORY_ORDERS < 10_000_000 ? { partial: `ran over ${HISTORY_ORDERS.toLocaleString('en')} orders, not 10,000,000` } : { expect: 2 },
      ),
    },
    { figure: 'peak RSS', goal: '≤ 200 MB', ...(peak ? { measured: `${peak.mb.toFixed(0)} MB (${peak.what})`, status: peak.mb <= 200 ? 'met' : 'not met' } : { measured: 'not in this run', status: 'not measured' }) },
  ].map((g) => (stores < 2 && g.status === 'met' && /both stores/.test(g.goal) ? { ...g, status: 'not measured' as const } : g)) as Goal[];
}

/** docs/benchmarks.md and .json, whole, from this run alone. */
export function writeReport(run: { startedAt: Date; loadBefore: number[] }) {
  mkdirSync(OUT_DIR, { recursive: true });
  const finished = new Date();
  const minutes = (finished.getTime() - run.startedAt.getTime()) / 60_000;
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  const command = `npm run bench${SMOKE ? ' -- --smoke' : ''}`;
  const env = ['BENCH_STORES', 'BENCH_FIGURES', 'BENCH_HISTORY_ORDERS'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  const g = goals(rows);
  const lines = [
    '# Benchmarks',
    '',
    `Generated whole by \`${[...env, command].join(' ')}\` (bench/run.ts); nothing here is written by hand. Commentary on runs: docs/performance.md.`,
    '',
    `Run: ${run.startedAt.toISOString()} → ${finished.toISOString()} (${minutes.toFixed(1)} min) · mode: ${SMOKE ? 'smoke (code paths only: its figures mean nothing)' : 'full'} · stores: ${STORES.join(', ')} · Node ${process.version} · ${cpus.length} × ${cpus[0]?.model ?? 'cpu'} · load average (1/5/15 min) ${load(run.loadBefore)} before, ${load(os.loadavg())} after.`,
    'Each figure is measured beside its baseline in the same run; compare ratios, not absolute numbers.',
    '',
    '## Next goals',
    '',
    '| figure | goal now | this run | status |',
    '|---|---|---|---|',
    ...g.map((x) => `| ${x.figure} | ${x.goal} | ${x.measured} | ${x.status === 'met' ? 'met' : `**${x.status}**`} |`),
    '',
    'Where a goal is not met, docs/performance.md says what bounds it.',
    '',
    '## Figures',
    '',
    '| id | figure | load | value | baseline | baseline value | ratio | p50 ms | p99 ms | peak RSS MB | server CPU µs/request (baseline) | client CPU µs/request | goal | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${r.figure} | ${r.load} | ${fmt(r.value)} ${r.unit} | ${r.baseline} | ${fmt(r.baselineValue)} | ${fmt(r.ratio, 2)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.rssMb, 0)} | ${r.cpuUs ? `${fmt(r.cpuUs.figure, 0)} (${fmt(r.cpuUs.baseline, 0)})` : '-'} | ${fmt(r.clientCpuUs, 0)} | ${r.goal} | ${r.met === null ? '-' : r.met ? 'yes' : '**no**'} |`),
    '',
    '## How each figure is measured',
    '',
    `- Rounds: figures with a baseline alternate with it, ${PAIRED_ROUNDS} round(s) of ${ROUND_SECONDS} s a side (baseline, figure, baseline, figure, …); a row is the round with the median ratio, and every round's ratio is in its text. ${WARMUP ? 'Every measured run follows one unmeasured second at the same load.' : 'Smoke mode runs no warm-up.'} The \`load\` column says what each row ran.`,
    '- The service runs as its own process (`topup serve`, worker off for B1 and B2: ingestion only), with metrics on as production runs (METRICS_PORT a free loopback port; B1-metrics compares METRICS_PORT=off). The bare baseline server (bench/baselines/bare-server.ts) verifies the same HMAC and answers POST /order, and serves the very bytes of the service\'s product page on GET /products.',
    '- Clients: autocannon, in the bench process, signs each request as it sends it; the raw client (bench/lib/raw-client.ts) is a closed loop on raw sockets (keep-alive, no pipelining) sending requests built and signed before the run, and reads an answer\'s status line and content-length only. Both run in the bench process on the same cores as the service; "client CPU µs/request" is the bench process\'s CPU per answered request over the measured part.',
    '- Server CPU µs/request (B1, B2): CPU time of the serving process (all its threads, from /proc) over the measured part of the median round, per answered request; in brackets the bare server\'s in the same round.',
    '- B1-pg: on PostgreSQL, rounds of three sides, the store vacuumed (`vacuum analyze`) before each: pgbench running the service\'s order transaction (bench/baselines/order-txn.sql) one order per transaction, the service (raw client), then pgbench with as many orders per transaction as the service\'s groups held in that round (orders placed / calls of `topup_place_orders`, from pg_stat_user_functions), each order in a savepoint as the service runs it. pgbench runs 50 clients on 2 threads for the same measured seconds as the service\'s side (without a warm-up second, which pgbench 15 does not have; its rate leaves out connection set-up).',
    `- B3 and B4 run each store as it is meant to run: on PostgreSQL the worker is its own \`topup worker\` process (WORKER_IN_PROCESS=false); on SQLite it runs inside the service. The sandbox supplier answers at no delay; callbacks go to the bare server. B3 offers ${B3_RATE.toLocaleString('en')} orders/s (its warm-up second places orders it does not count) and is the store-recorded time from completed_at to the first callback attempt; B4 follows on the same service, at ${CONNECTIONS} connections for ${DURATION} s, and counts orders whose first callback attempt got a 2xx over the time from the first order to the last delivery.`,
    `- B5: ${HISTORY_ORDERS.toLocaleString('en')} orders (and their ledger entries) seeded for one reseller in bulk, the tables\' secondary indexes built after the load from the store's own definitions; the service restarted on them runs each request for one unmeasured second, then measures each at ${CONNECTIONS} connections for ${DURATION} s. B5-op signs an operator in (\`topup operator-add\`, then POST /admin/v1/auth/sign-in) and searches every reseller\'s orders last, at 10 connections, each row once the service answers a small read as fast as before the first (a search over millions of orders leaves work in flight).`,
    `- CLI: \`node -e ''\`, \`topup --help\` and a read-only command, each run to its exit one at a time, in ${CLI_ROUNDS} alternating rounds; the median of each.`,
    '',
  ];
  writeFileSync(path.join(OUT_DIR, SMOKE ? 'benchmarks-smoke.md' : 'benchmarks.md'), lines.join('\n'));
  const json = `${JSON.stringify({ mode: SMOKE ? 'smoke' : 'full', startedAt: run.startedAt.toISOString(), finishedAt: finished.toISOString(), minutes, stores: STORES, historyOrders: HISTORY_ORDERS, goals: g, rows }, null, 2)}\n`;
  writeFileSync(path.join(OUT_DIR, SMOKE ? 'benchmarks-smoke.json' : 'benchmarks.json'), json);
  // The latest run's machine form, whatever the mode (gitignored).
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', json);
}
