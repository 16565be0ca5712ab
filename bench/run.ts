/**
 * The benchmark suite: `npm run bench` (full) or `npm run bench -- --smoke` (seconds).
 * Every figure is measured next to its baseline in the same run and reported as a ratio,
 * because this machine is small and shared. Results: docs/benchmarks.md and .json.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sign } from '../src/domain/signature.js';
import { createSecretBox } from '../src/adapters/secret-box.js';
import { newApiCredentials } from '../src/services/ids.js';
import { ResellersRepo } from '../src/store/resellers-repo.js';
import { LedgerRepo } from '../src/store/ledger-repo.js';
import { openDatabase } from '../src/store/db.js';
import type { StoreConfig } from '../src/config.js';
import { scratchDir, startProcess, TOPUP_BIN, type Started } from './lib/processes.js';

const SMOKE = process.argv.includes('--smoke');
const DURATION = SMOKE ? 2 : 10;
const CONNECTIONS = 50;
const HISTORY_ROWS = SMOKE ? 20_000 : 1_000_000;
const PG_ADMIN = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OUT_DIR = process.env.BENCH_OUT_DIR ?? 'docs';
const MASTER_KEY = 'ef'.repeat(32);
const MANY_RESELLERS = 100;
/** B1-err: refused requests a second beside the orders (each one recorded among the recent API errors). */
const REFUSALS_PER_SECOND = 200;
/** B3's offered load (orders per second) and how long to wait for the backlog to settle. */
const B3_RATE = 1000;
const DRAIN_MS = SMOKE ? 20_000 : 120_000;
/** BENCH_FIGURES=B3,B4 runs only those (for profiling one figure); all by default. */
const FIGURES = new Set((process.env.BENCH_FIGURES ?? 'B1,B2,B3,B4,B5').split(',').map((f) => f.trim().toUpperCase()));
const wants = (...ids: string[]) => ids.some((id) => FIGURES.has(id));

interface Row {
  id: string;
  figure: string;
  value: number | null;
  unit: string;
  baseline: string;
  baselineValue: number | null;
  ratio: number | null;
  p50: number | null;
  p99: number | null;
  rssMb: number | null;
  /**
   * B1, B2: the server's CPU time per answered request (all its threads), the figure's and
   * the baseline's of the same round. Throughput on 2 shared cores is also bounded by
   * waiting; CPU per request says what each request costs.
   */
  cpuUs?: { figure: number | null; baseline: number | null };
  goal: string;
  met: boolean | null;
}
const rows: Row[] = [];

interface Creds { baseUrl: string; apiKey: string; apiSecret: string; resellerId?: string }

/**
 * One load run. A second of warm-up at the same load comes first and is not measured (JIT,
 * caches, connection pools: the figures are steady state). B3 and B4 count what the run
 * wrote to the store (`warmup: false`): B3 runs its warm-up second as a load of its own,
 * and B4 follows B3 on the same warm service.
 */
async function cannon(opts: { url: string; method: 'GET' | 'POST'; creds: Creds | Creds[]; bearer?: string; body?: () => string; connections?: number; duration?: number; overallRate?: number; warmup?: boolean; server?: Started }) {
  const pool = Array.isArray(opts.creds) ? opts.creds : [opts.creds];
  let turn = 0;
  const warmup = opts.warmup !== false && !SMOKE;
  // The server's CPU time over the measured part (the warm-up second is autocannon's first).
  let cpuFrom = opts.server?.cpuMs() ?? 0;
  const warmed = warmup && opts.server ? setTimeout(() => (cpuFrom = opts.server!.cpuMs()), 1000) : null;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.duration ?? DURATION,
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
    ...(warmup ? { warmup: { connections: opts.connections ?? CONNECTIONS, duration: 1 } } : {}),
    requests: [
      {
        method: opts.method,
        setupRequest: (req: any) => {
          // Several resellers: each request is signed by the next one in turn.
          const creds = pool[turn++ % pool.length]!;
          const ts = String(Date.now());
          const body = opts.body ? opts.body() : '';
          // A dashboard session (the web app's reads) instead of an API v1 signature.
          req.headers = opts.bearer
            ? { ...req.headers, authorization: `Bearer ${opts.bearer}` }
            : { ...req.headers, 'x-api-key': creds.apiKey, 'x-timestamp': ts, 'x-signature': sign(creds.apiSecret, ts, body) };
          if (body) {
            req.body = body;
            req.headers['content-type'] = 'application/json';
          }
          return req;
        },
      },
    ],
  });
  if (warmed) clearTimeout(warmed);
  const ok = result['2xx'];
  const cpuUsPerRequest = opts.server ? ((opts.server.cpuMs() - cpuFrom) * 1000) / Math.max(1, ok + result.non2xx) : null;
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, ok, cpuUsPerRequest };
}

type LoadRun = Awaited<ReturnType<typeof cannon>>;

/** Rounds of a figure measured against its baseline, and how long each run of a round lasts. */
const PAIRED_ROUNDS = SMOKE ? 1 : 3;
const ROUND_SECONDS = SMOKE ? DURATION : 4;

/**
 * A figure and its baseline in alternating rounds (baseline, figure, baseline, figure, …),
 * compared round by round: on a shared machine a slow spell then lands on both sides of a
 * round instead of on one whole side of the comparison (seen: the bare route's rate moving
 * between 14k and 25k requests/s from one run to the next). The round with the median
 * ratio is the figure; every round's ratio is reported beside it.
 */
async function paired(baseline: () => Promise<LoadRun>, figure: () => Promise<LoadRun>) {
  const rounds: { base: LoadRun; fig: LoadRun; ratio: number }[] = [];
  for (let i = 0; i < PAIRED_ROUNDS; i++) {
    const base = await baseline();
    const fig = await figure();
    rounds.push({ base, fig, ratio: base.rps ? fig.rps / base.rps : 0 });
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
  const spread = rounds.length > 1 ? `; ${rounds.length} alternating rounds, ratios ${rounds.map((r) => r.ratio.toFixed(2)).join(' / ')}` : '';
  const cpuUs = { figure: median.fig.cpuUsPerRequest, baseline: median.base.cpuUsPerRequest };
  return { ...median, spread, cpuUs, non2xx: rounds.reduce((n, r) => n + r.base.non2xx + r.fig.non2xx, 0) };
}

const orderBody = (prefix = 'b') => () => JSON.stringify({ ref_id: `${prefix}-${randomUUID()}`, product_code: 'FF-100', target: '123456789' });

async function startService(store: StoreConfig, dataDir: string, extraEnv: Record<string, string> = {}) {
  const svc = await startProcess(
    // e.g. BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the service only.
    [...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean), TOPUP_BIN, 'serve'],
    {
      DATA_DIR: dataDir,
      DATABASE_URL: store.kind === 'sqlite' ? `sqlite:${store.file}` : store.url,
      PORT: '0',
      LOG_LEVEL: 'error',
      NODE_ENV: 'development',
      RATE_LIMIT_SCALE: '100000',
      WORKER_IN_PROCESS: 'false',
      MASTER_KEY,
      REDIS_URL: '',
      ...extraEnv,
    },
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
async function startWorker(store: StoreConfig, dataDir: string, extraEnv: Record<string, string> = {}) {
  return startProcess(
    [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), TOPUP_BIN, 'worker'],
    {
      DATA_DIR: dataDir,
      DATABASE_URL: store.kind === 'sqlite' ? `sqlite:${store.file}` : store.url,
      LOG_LEVEL: 'error',
      NODE_ENV: 'development',
      MASTER_KEY,
      REDIS_URL: '',
      SANDBOX_DELAY_MS: '0',
      ...extraEnv,
    },
    /topup worker \S+ running/,
  );
}

/** A big balance and 60 more products in the demo catalog, straight through the store. */
async function prepare(store: StoreConfig) {
  const db = openDatabase(store);
  try {
    const r = await db.db.selectFrom('resellers').select('id').where('email', '=', 'demo-reseller@example.com').executeTakeFirstOrThrow();
    await new LedgerRepo(db.db).adjust(r.id, 1_000_000_000_000, 'bench balance', Date.now());
    const catalog = await db.db.selectFrom('catalogs').select('id').executeTakeFirstOrThrow();
    const supplier = await db.db.selectFrom('suppliers').select('id').executeTakeFirstOrThrow();
    for (let i = 0; i < 60; i++) {
      const code = `BENCH-${String(i).padStart(3, '0')}`;
      await db.db.insertInto('products').values({ code, name: `Bench ${i}`, category_slug: 'free-fire', kind: 'instant', limit_gated: 0, enabled: 1, sort_order: 100 + i, created_at: Date.now() }).execute();
      await db.db.insertInto('catalog_prices').values(['gold', 'platinum', 'diamond'].map((tier) => ({ catalog_id: catalog.id, product_code: code, tier: tier as 'gold', price: 1000 + i }))).execute();
      await db.db.insertInto('product_routes').values({ id: randomUUID(), product_code: code, supplier_id: supplier.id, supplier_sku: code, cost: 900, priority: 1, enabled: 1, created_at: Date.now() }).execute();
    }
    return r.id;
  } finally {
    await db.close();
  }
}

/** More resellers like the demo one (Gold, demo catalog, whitelisted for loopback, a big balance). */
async function addResellers(store: StoreConfig, n: number, baseUrl: string): Promise<Creds[]> {
  const db = openDatabase(store);
  const box = createSecretBox(Buffer.from(MASTER_KEY, 'hex'));
  const resellers = new ResellersRepo(db.db);
  const ledger = new LedgerRepo(db.db);
  try {
    const catalog = await db.db.selectFrom('catalogs').select('id').executeTakeFirstOrThrow();
    const out: Creds[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const now = Date.now();
      await resellers.create({ id, name: `Bench ${i}`, email: `bench-${i}-${id.slice(0, 8)}@example.com`, tier: 'gold', status: 'active' }, now);
      const { apiKey, apiSecret } = newApiCredentials();
      await resellers.addApiKey({ id: randomUUID(), resellerId: id, apiKey, secretEnc: box.seal(apiSecret) }, now);
      for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) await resellers.addWhitelistIp(id, ip, now);
      await db.db.insertInto('reseller_catalogs').values({ reseller_id: id, catalog_id: catalog.id }).execute();
      await ledger.adjust(id, 1_000_000_000_000, 'bench balance', now);
      out.push({ baseUrl, apiKey, apiSecret, resellerId: id });
    }
    return out;
  } finally {
    await db.close();
  }
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
    const pct = (xs: number[], p: number) => {
      if (!xs.length) return null;
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
    };
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

async function vacuum(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('vacuum analyze');
  } finally {
    await c.end();
  }
}

/** N historical orders (and their debits) for one reseller, inserted in bulk. */
async function seedHistory(store: StoreConfig, resellerId: string, n: number) {
  const now = Date.now();
  if (store.kind === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(store.file);
    db.pragma('journal_mode = WAL');
    // Sequence numbers continue the reseller's own (the service's order path hands them out).
    const base = db.prepare('select order_seq, ledger_seq from resellers where id = ?').get(resellerId) as { order_seq: number; ledger_seq: number };
    const order = db.prepare(`insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, completed_at, updated_at, seq)
      values (?, ?, ?, 'FF-100', '100 Diamonds', 'free-fire', '123', null, 15000, ?, ?, ?, ?, ?)`);
    const ledger = db.prepare(`insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq) values (?, 'order_debit', -15000, 1, ?, null, ?, ?, ?)`);
    const statuses = ['success', 'success', 'success', 'failed'];
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = randomUUID();
        const at = now - (n - i) * 1000; // one order a second, back from now
        order.run(id, resellerId, `hist-${i}`, statuses[i % 4], at, at + 500, at, base.order_seq + i + 1);
        ledger.run(resellerId, id, at, base.ledger_seq + i + 1, base.order_seq + i + 1);
      }
    });
    for (let i = 0; i < n; i += 50_000) batch(i, Math.min(n, i + 50_000));
    db.prepare('update resellers set order_seq = order_seq + ?, ledger_seq = ledger_seq + ? where id = ?').run(n, n, resellerId);
    db.close();
    return;
  }
  const c = new pg.Client({ connectionString: store.url });
  c.on('error', () => {}); // surfaced by the failing query instead of crashing the run
  await c.connect();
  // The hot reseller row carries a long chain of dead versions from B1 (one update per
  // order); every foreign-key check of a bulk insert would walk it. Vacuum it, and skip
  // the per-row FK triggers for this trusted seed (the rows point at an existing reseller).
  await c.query('vacuum analyze resellers');
  // Replica mode also skips our own triggers: sequence numbers and order_counts are
  // written here explicitly, as the service's transactions and triggers would.
  await c.query('set session_replication_role = replica');
  const base = (await c.query('select order_seq, ledger_seq from resellers where id = $1', [resellerId])).rows[0] as { order_seq: number; ledger_seq: number };
  await c.query(
    `insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, completed_at, updated_at, seq)
     select gen_random_uuid()::text, $1, 'hist-' || g, 'FF-100', '100 Diamonds', 'free-fire', '123', null, 15000,
            (array['success','success','success','failed'])[1 + g % 4], $2::bigint - ($3::bigint - g) * 1000, $2::bigint - ($3::bigint - g) * 1000 + 500, $2::bigint - ($3::bigint - g) * 1000,
            $4::bigint + g + 1
     from generate_series(0, $3::bigint - 1) g`,
    [resellerId, now, n, base.order_seq],
  );
  await c.query(
    `insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq)
     select reseller_id, 'order_debit', -15000, 1, id, null, created_at, seq - $2::bigint + $3::bigint, seq from orders where reseller_id = $1 and ref_id like 'hist-%'`,
    [resellerId, base.order_seq, base.ledger_seq],
  );
  await c.query(
    // As the triggers count (migration 012): every order in `*`, a terminal one in its status too.
    `insert into order_counts (reseller_id, hour, status, n)
     select reseller_id, created_at / 3600000, s, count(*) from orders cross join lateral (values ('*'), (status)) v(s)
     where reseller_id = $1 and ref_id like 'hist-%' and s <> 'processing' group by 1, 2, 3
     on conflict (reseller_id, hour, status, shard) do update set n = order_counts.n + excluded.n`,
    [resellerId],
  );
  await c.query('update resellers set order_seq = order_seq + $2::bigint, ledger_seq = ledger_seq + $2::bigint where id = $1', [resellerId, n]);
  // A real history arrived over months and autovacuum has long since set its visibility
  // map; a bulk insert has none, and index-only scans would visit the heap for every entry.
  await c.query('vacuum analyze orders');
  await c.query('vacuum analyze ledger_entries');
  await c.query('analyze');
  await c.end();
}

function add(r: Omit<Row, 'ratio' | 'met'> & { better?: 'higher' | 'lower'; goalRatio?: number; goalAbs?: number }) {
  const ratio = r.value !== null && r.baselineValue ? r.value / r.baselineValue : null;
  let met: boolean | null = null;
  if (r.goalRatio !== undefined && ratio !== null) met = ratio >= r.goalRatio;
  if (r.goalAbs !== undefined && r.value !== null) met = r.value <= r.goalAbs;
  rows.push({ id: r.id, figure: r.figure, value: r.value, unit: r.unit, baseline: r.baseline, baselineValue: r.baselineValue, ratio, p50: r.p50, p99: r.p99, rssMb: r.rssMb, ...(r.cpuUs ? { cpuUs: r.cpuUs } : {}), goal: r.goal, met });
  console.log(`${r.id} ${r.figure}: ${r.value?.toFixed(1)} ${r.unit} vs ${r.baseline} ${r.baselineValue?.toFixed(1) ?? '-'}${ratio !== null ? ` (ratio ${ratio.toFixed(2)})` : ''}`);
}

async function bareServer(secret: string, productsFile: string): Promise<Started> {
  return startProcess(['--import', 'tsx', path.resolve('bench/baselines/bare-server.ts')], { BENCH_SECRET: secret, BENCH_PRODUCTS_FILE: productsFile }, /bare listening on \S+/);
}

async function benchStore(kind: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), `topup-bench-${kind}-`));
  const scratch = scratchDir(dataDir);
  let store: StoreConfig;
  let dropPg: (() => Promise<void>) | null = null;
  if (kind === 'sqlite') store = { kind, file: path.join(dataDir, 'bench.sqlite') };
  else {
    const name = `topup_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN);
    url.pathname = `/${name}`;
    store = { kind, url: url.toString() };
    dropPg = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const extra: Record<string, string> = kind === 'postgres' ? { REDIS_URL: REDIS } : {};
  let { svc, creds } = await startService(store, dataDir, extra);
  let worker: Started | null = null;
  let workerRss = 0;
  const resellerId = await prepare(store);
  const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL + Redis';
  try {
    // B2 first (the catalog), so the bare server can serve the very same bytes.
    const page = await fetch(`${creds.baseUrl}/products?limit=50`, {
      headers: (() => {
        const ts = String(Date.now());
        return { 'x-api-key': creds.apiKey, 'x-timestamp': ts, 'x-signature': sign(creds.apiSecret, ts) };
      })(),
    }).then((r) => r.text());
    const productsFile = path.join(dataDir, 'products.json');
    writeFileSync(productsFile, page);
    const bare = await bareServer(creds.apiSecret, productsFile);
    const bareUrl = /bare listening on (\S+)/.exec(bare.output())![1]!;
    try {
      let b1: Awaited<ReturnType<typeof cannon>> | null = null;
      if (wants('B1')) {
        const pair = await paired(
          () => cannon({ url: `${bareUrl}/api/v1/order`, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: bare }),
          () => cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: svc }),
        );
        const hmac = pair.base;
        b1 = pair.fig;
        add({ id: 'B1', figure: `POST /order, one hot reseller, ${CONNECTIONS} conns (${label}${pair.spread})`, value: b1.rps, unit: 'orders/s', baseline: 'bare Fastify + same HMAC', baselineValue: hmac.rps, p50: b1.p50, p99: b1.p99, rssMb: svc.peakRssMb(), cpuUs: pair.cpuUs, goal: kind === 'sqlite' ? 'ratio ≥ 0.5' : 'see pgbench row', goalRatio: kind === 'sqlite' ? 0.5 : undefined });
        if (pair.non2xx) throw new Error(`B1 ${label}: ${pair.non2xx} non-2xx answers`);

        const many = await addResellers(store, MANY_RESELLERS - 1, creds.baseUrl);
        const manyPair = await paired(
          () => cannon({ url: `${bareUrl}/api/v1/order`, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server: bare }),
          () => cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds: [creds, ...many], body: orderBody(), duration: ROUND_SECONDS, server: svc }),
        );
        if (manyPair.non2xx) throw new Error(`B1 ${MANY_RESELLERS} resellers ${label}: ${manyPair.non2xx} non-2xx answers`);
        const b1many = manyPair.fig;
        add({ id: 'B1', figure: `POST /order, ${MANY_RESELLERS} resellers, ${CONNECTIONS} conns (${label}${manyPair.spread})`, value: b1many.rps, unit: 'orders/s', baseline: 'bare Fastify + same HMAC', baselineValue: manyPair.base.rps, p50: b1many.p50, p99: b1many.p99, rssMb: svc.peakRssMb(), cpuUs: manyPair.cpuUs, goal: kind === 'sqlite' ? 'ratio ≥ 0.5' : '-', goalRatio: kind === 'sqlite' ? 0.5 : undefined });

        // B1 with a steady stream of refused requests (signed orders missing their fields:
        // VALIDATION_ERROR, recorded among the reseller's recent API errors) beside the orders,
        // with recording on (this service) against the same service and store with
        // API_ERROR_LOG=false, alternating rounds. Not wrong signatures: failed
        // authentications block their source address for the minute (docs/reseller-api.md),
        // and the orders come from the same address.
        {
          const off = await startService(store, dataDir, { ...extra, API_ERROR_LOG: 'false' });
          try {
            const withRefusals = async (baseUrl: string, server: Started) => {
              const [orders, refusals] = await Promise.all([
                cannon({ url: `${baseUrl}/order`, method: 'POST', creds, body: orderBody(), duration: ROUND_SECONDS, server }),
                cannon({ url: `${baseUrl}/order`, method: 'POST', creds, body: () => '{"ref_id":"bench-refused"}', duration: ROUND_SECONDS, connections: 4, overallRate: REFUSALS_PER_SECOND }),
              ]);
              if (refusals.ok) throw new Error(`B1 with refusals ${label}: ${refusals.ok} refused requests were accepted`);
              return orders;
            };
            const errPair = await paired(() => withRefusals(off.creds.baseUrl, off.svc), () => withRefusals(creds.baseUrl, svc));
            if (errPair.fig.non2xx || errPair.base.non2xx) throw new Error(`B1 with refusals ${label}: non-2xx orders`);
            add({ id: 'B1-err', figure: `POST /order, one hot reseller, ${CONNECTIONS} conns, with ${REFUSALS_PER_SECOND} refused requests/s beside it, recent API errors recorded (${label}${errPair.spread})`, value: errPair.fig.rps, unit: 'orders/s', baseline: 'the same with API_ERROR_LOG=false', baselineValue: errPair.base.rps, p50: errPair.fig.p50, p99: errPair.fig.p99, rssMb: svc.peakRssMb(), cpuUs: errPair.cpuUs, goal: 'ratio ≥ 0.95', goalRatio: 0.95 });
          } finally {
            await off.svc.stop();
          }
        }

        if (kind === 'postgres') {
          const pgb = pgbenchOrderTxn((store as { url: string }).url, resellerId);
          add({ id: 'B1-pg', figure: 'POST /order vs the same transaction in pgbench (PostgreSQL)', value: b1.rps, unit: 'orders/s', baseline: 'pgbench order transaction, 50 clients', baselineValue: pgb.tps, p50: b1.p50, p99: b1.p99, rssMb: svc.peakRssMb(), goal: 'ratio ≥ 1.0', goalRatio: 1.0 });
        }
      }

      if (wants('B2')) {
        const pair = await paired(
          () => cannon({ url: `${bareUrl}/api/v1/products?limit=50`, method: 'GET', creds, duration: ROUND_SECONDS, server: bare }),
          () => cannon({ url: `${creds.baseUrl}/products?limit=50`, method: 'GET', creds, duration: ROUND_SECONDS, server: svc }),
        );
        if (pair.non2xx) throw new Error(`B2 ${label}: ${pair.non2xx} non-2xx answers`);
        const { base: bareProducts, fig: b2 } = pair;
        add({ id: 'B2', figure: `GET /products page of 50 (${label}${pair.spread})`, value: b2.rps, unit: 'req/s', baseline: 'bare Fastify, same JSON', baselineValue: bareProducts.rps, p50: b2.p50, p99: b2.p99, rssMb: svc.peakRssMb(), cpuUs: pair.cpuUs, goal: 'ratio ≥ 0.7', goalRatio: 0.7 });
      }

      if (wants('B3', 'B4')) {
        // B3 and B4: the worker on, a sandbox supplier with no delay, callbacks to the bare
        // server. The ingestion-only runs above left fulfil jobs behind: drop them, so the
        // worker starts on this phase's orders only.
        await svc.stop();
        {
          const db = openDatabase(store);
          await db.db.deleteFrom('jobs').execute();
          await db.db.updateTable('resellers').set({ callback_url: `${bareUrl}/callback` }).where('id', '=', resellerId).execute();
          await db.close();
        }
        // B1 left the hot reseller's row with a long chain of dead versions (one update per
        // order) that every order and foreign-key check of this phase would walk; in
        // production autovacuum keeps up with it. Start the phase from a vacuumed store.
        if (store.kind === 'postgres') await vacuum(store.url);
        // Each store as it is meant to run: on SQLite the worker inside the service (one
        // writer: a worker process would wait on the service's write lock, and SQLite's busy
        // wait blocks its whole event loop); on PostgreSQL a `topup worker` of its own.
        const inProcess = kind === 'sqlite';
        const where = inProcess ? 'inside the service' : 'in its own process';
        const withWorker = await startService(store, dataDir, { ...extra, WORKER_IN_PROCESS: inProcess ? 'true' : 'false', SANDBOX_DELAY_MS: '0' });
        svc = withWorker.svc;
        creds = { ...creds, baseUrl: withWorker.creds.baseUrl };
        if (!inProcess) worker = await startWorker(store, dataDir, extra);
        // The warm-up second every other figure has (this service and worker have just
        // started: JIT, connection pools), at the same load, with orders of their own prefix:
        // B3 counts and measures only the orders placed after it.
        if (!SMOKE) {
          const warm = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b3w'), overallRate: B3_RATE, duration: 1, warmup: false });
          if (warm.non2xx) throw new Error(`B3 ${label} warm-up: ${warm.non2xx} non-2xx answers`);
        }
        const b3Load = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b3'), overallRate: B3_RATE, warmup: false });
        if (b3Load.non2xx) throw new Error(`B3 ${label}: ${b3Load.non2xx} non-2xx answers`);
        const b3 = await settleAndMeasure(store, 'b3', b3Load.ok);
        add({ id: 'B3', figure: `callback latency: terminal state → first attempt, ${B3_RATE} orders/s offered (${b3Load.rps.toFixed(0)} accepted/s; ${b3.settled}/${b3Load.ok} settled; worker ${where}) (${label})`, value: b3.firstAttempt.p99, unit: 'ms p99', baseline: '-', baselineValue: null, p50: b3.firstAttempt.p50, p99: b3.firstAttempt.p99, rssMb: svc.peakRssMb(), goal: 'p99 ≤ 100 ms', goalAbs: 100 });
        const b4Load = await cannon({ url: `${creds.baseUrl}/order`, method: 'POST', creds, body: orderBody('b4'), warmup: false });
        if (b4Load.non2xx) throw new Error(`B4 ${label}: ${b4Load.non2xx} non-2xx answers`);
        const b4 = await settleAndMeasure(store, 'b4', b4Load.ok);
        workerRss = worker?.peakRssMb() ?? 0;
        add({ id: 'B4', figure: `end to end: orders/s reaching a terminal state with the callback delivered (${b4Load.rps.toFixed(0)} accepted/s; ${b4.delivered}/${b4Load.ok} delivered; p50/p99 = order → callback answered, a backlog's wait where more are accepted than delivered; worker ${where}${worker ? `, its peak RSS ${workerRss.toFixed(0)} MB` : ''}) (${label})`, value: b4.deliveredPerSecond, unit: 'orders/s', baseline: 'B1 ingestion alone, one hot reseller', baselineValue: b1?.rps ?? null, p50: b4.endToEnd.p50, p99: b4.endToEnd.p99, rssMb: svc.peakRssMb(), goal: '-' });
      }
    } finally {
      await worker?.stop();
      worker = null;
      await bare.stop();
    }

    if (wants('B5')) {
      // B5: history at scale.
      await svc.stop();
      await seedHistory(store, resellerId, HISTORY_ROWS);
      // The banner (key and secret) is printed on the first start only: keep the credentials.
      const restarted = await startService(store, dataDir, extra);
      svc = restarted.svc;
      creds = { ...creds, baseUrl: restarted.creds.baseUrl };
      const deepPage = Math.floor(HISTORY_ROWS / 50);
      const deepFailedPage = Math.floor(HISTORY_ROWS / 4 / 50);
      const today = new Date().toISOString().slice(0, 10);
      const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      const figures = [
        ['GET /orders page 1', '/orders?limit=50'],
        [`GET /orders page ${deepPage} (deepest)`, `/orders?limit=50&page=${deepPage}`],
        ['GET /orders status=failed + 30-day range, page 1', `/orders?limit=50&status=failed&start_date=${monthAgo}&end_date=${today}`],
        // A quarter of the history failed (seedHistory): its last full page.
        [`GET /orders status=failed + 30-day range, page ${deepFailedPage} (deepest)`, `/orders?limit=50&page=${deepFailedPage}&status=failed&start_date=${monthAgo}&end_date=${today}`],
        ['GET /wallet-history page 1', '/wallet-history?limit=50'],
        [`GET /wallet-history page ${deepPage} (deepest)`, `/wallet-history?limit=50&page=${deepPage}`],
      ] as const;
      // The dashboard's Orders page reads the same history through /dashboard/v1 with a
      // session: its deepest page and a ref_id search must be as fast as its first page.
      const bearer = await openDashboardSession(store, resellerId);
      const dashboardUrl = creds.baseUrl.replace(/\/api\/v1$/, '/dashboard/v1');
      const requests = [
        ...figures.map(([name, q]) => ({ name, url: `${creds.baseUrl}${q}`, bearer: undefined })),
        { name: 'dashboard GET /orders page 1', url: `${dashboardUrl}/orders?limit=50`, bearer },
        { name: `dashboard GET /orders page ${deepPage} (deepest)`, url: `${dashboardUrl}/orders?limit=50&page=${deepPage}`, bearer },
        // A ref_id prefix as an integrator types one (11 matches), and a broad one (11,111 in 1,000,000).
        { name: 'dashboard GET /orders ref_id search (11 matches) + 30-day range', url: `${dashboardUrl}/orders?limit=50&ref_id=hist-99999&start_date=${monthAgo}&end_date=${today}`, bearer },
        { name: 'dashboard GET /orders ref_id search (1 in 90 orders match) + 30-day range', url: `${dashboardUrl}/orders?limit=50&ref_id=hist-99&start_date=${monthAgo}&end_date=${today}`, bearer },
      ];
      // The service has just restarted: one unmeasured second of each request first, not only
      // of the next one. With the first figure's own second alone, GET /orders page 1 (the
      // first) measured 26-47 ms p99 on PostgreSQL where the same request measured last in
      // the same run gave 15-17 ms: what it measured was the fresh process, not the query.
      const history = (r: (typeof requests)[number], duration: number, warmup?: false) => cannon({ url: r.url, method: 'GET', creds, bearer: r.bearer, connections: 10, duration, warmup });
      if (!SMOKE) for (const r of requests) await history(r, 1, false);
      for (const req of requests) {
        const r = await history(req, SMOKE ? 1 : 5);
        if (r.non2xx || r.errors) throw new Error(`B5 ${req.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors; the figure would be meaningless`);
        add({ id: 'B5', figure: `${req.name}, ${HISTORY_ROWS.toLocaleString('en')} orders (${label})`, value: r.p99, unit: 'ms p99', baseline: '-', baselineValue: null, p50: r.p50, p99: r.p99, rssMb: svc.peakRssMb(), goal: 'p99 ≤ 20 ms', goalAbs: 20 });
      }
    }
  } finally {
    await svc.stop();
    if (process.env.BENCH_KEEP_DB) {
      scratch.keep();
      console.log(`kept: ${store.kind === 'sqlite' ? store.file : store.url}`);
    } else {
      if (dropPg) await dropPg();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * A dashboard session for the reseller, written into the store as sign-in would (the bench
 * seeds its history the same way): the token's sha256 is what the service looks up.
 */
async function openDashboardSession(store: StoreConfig, resellerId: string): Promise<string> {
  const token = `rss_bench_${randomUUID()}`;
  const row = [createHash('sha256').update(token).digest('hex'), 'reseller', resellerId, Date.now(), Date.now() + 3_600_000];
  const insert = 'insert into sessions (token_hash, subject_kind, subject_id, created_at, expires_at) values ';
  if (store.kind === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(store.file);
    db.prepare(`${insert}(?, ?, ?, ?, ?)`).run(...row);
    db.close();
  } else {
    const c = new pg.Client({ connectionString: store.url });
    await c.connect();
    await c.query(`${insert}($1, $2, $3, $4, $5)`, row);
    await c.end();
  }
  return token;
}

/** pgbench running the order transaction of the service (insert, guarded debit, ledger, job). */
function pgbenchOrderTxn(url: string, resellerId: string): { tps: number } {
  const script = path.resolve('bench/baselines/order-txn.sql');
  const bin = ['/usr/lib/postgresql/15/bin/pgbench', 'pgbench'].find((b) => {
    try {
      execFileSync(b, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!bin) throw new Error('pgbench not found');
  const out = execFileSync(bin, ['-n', '-M', 'extended', '-c', String(CONNECTIONS), '-j', '2', '-T', String(DURATION), '-D', `rid=${resellerId}`, '-f', script, url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
  return { tps };
}

function writeReport() {
  mkdirSync(OUT_DIR, { recursive: true });
  const fmt = (n: number | null, d = 1) => (n === null ? '-' : n.toFixed(d));
  const lines = [
    '# Benchmarks',
    '',
    `Run: ${new Date().toISOString()} · mode: ${SMOKE ? 'smoke' : 'full'} · ${DURATION} s per figure · ${CONNECTIONS} connections · Node ${process.version}.`,
    'Each figure is measured beside its baseline in the same run; compare ratios, not absolute numbers (2 shared cores).',
    `B1 and B2 alternate with their bare baseline: ${PAIRED_ROUNDS} round(s) of ${ROUND_SECONDS} s each side (baseline, figure, baseline, figure, …); the row is the round with the median ratio, and every round's ratio is in the figure's text.`,
    'The service runs as its own process (`topup serve`, worker off: ingestion only); autocannon drives it from this process, after one unmeasured second of warm-up at the same load. B3 and B4 count the orders they placed: B3\'s warm-up second places orders of its own that it does not count or measure, and B4 follows B3 on the same warm service. B5 restarts the service on the seeded history and first runs each of its requests for one unmeasured second.',
    'CPU µs/request (B1, B2): CPU time of the serving process (all its threads, from /proc) over the measured part of the median round, per answered request; in brackets the bare baseline server\'s in the same round. It says what a request costs where a figure is bounded by CPU; on a shared machine it moves too, less than throughput (the bare server\'s has moved between ~30 and ~45 µs from run to run here).',
    '',
    '| id | figure | value | baseline | baseline value | ratio | p50 ms | p99 ms | peak RSS MB | CPU µs/request (baseline) | goal | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${r.figure} | ${fmt(r.value)} ${r.unit} | ${r.baseline} | ${fmt(r.baselineValue)} | ${fmt(r.ratio, 2)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.rssMb, 0)} | ${r.cpuUs ? `${fmt(r.cpuUs.figure, 0)} (${fmt(r.cpuUs.baseline, 0)})` : '-'} | ${r.goal} | ${r.met === null ? '-' : r.met ? 'yes' : '**no**'} |`),
    '',
    'B3/B4 run each store as it is meant to be run: on PostgreSQL the worker is its own `topup worker` process beside the service (WORKER_IN_PROCESS=false); on SQLite it runs inside the service (the default: one writer, and a second process would wait on its write lock). The sandbox supplier answers at no delay; callbacks go to a bare receiver. B3 offers 1,000 orders/s and reports the rate the service accepted. B3 is the store-recorded time from completed_at to the first attempt; B4 counts orders whose first callback attempt got a 2xx, over the time from the first order to the last delivery.',
    'Where a goal is not met, docs/architecture.md (Performance notes) says what bounds it.',
    '',
  ];
  writeFileSync(path.join(OUT_DIR, SMOKE ? 'benchmarks-smoke.md' : 'benchmarks.md'), lines.join('\n'));
  const json = `${JSON.stringify({ mode: SMOKE ? 'smoke' : 'full', at: new Date().toISOString(), rows }, null, 2)}\n`;
  writeFileSync(path.join(OUT_DIR, SMOKE ? 'benchmarks-smoke.json' : 'benchmarks.json'), json);
  // The latest run's machine form, whatever the mode (gitignored).
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', json);
}

const kinds = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const k of kinds) await benchStore(k);
writeReport();
console.log(`wrote ${OUT_DIR}/${SMOKE ? 'benchmarks-smoke' : 'benchmarks'}.{md,json}`);
