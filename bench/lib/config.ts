/**
 * The bench's settings: one run mode (`--smoke`: seconds, every code path; full: the
 * figures) and the environment's overrides. Every figure's row says the load it ran.
 */
export const SMOKE = process.argv.includes('--smoke');
/** Seconds a figure's load runs (B3, B4, B5, pgbench sides) and connections it holds. */
export const DURATION = SMOKE ? 2 : 10;
export const CONNECTIONS = 50;
/** Rounds of a figure against its baseline, and how long each side of a round lasts. */
export const PAIRED_ROUNDS = SMOKE ? 1 : 3;
export const ROUND_SECONDS = SMOKE ? 2 : 4;
/** One unmeasured second at the same load before each measured run (JIT, caches, pools). */
export const WARMUP = !SMOKE;
/** B5's seeded history: BENCH_HISTORY_ORDERS overrides (the rows say the count they ran). */
export const HISTORY_ORDERS = Number(process.env.BENCH_HISTORY_ORDERS ?? (SMOKE ? 20_000 : 10_000_000));
/** R1's orders a year, as daily aggregates (BENCH_REPORT_ORDERS overrides). */
export const REPORT_ORDERS = Number(process.env.BENCH_REPORT_ORDERS ?? (SMOKE ? 20_000 : 10_000_000));
export const PG_ADMIN = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const OUT_DIR = process.env.BENCH_OUT_DIR ?? 'docs';
export const MASTER_KEY = 'ef'.repeat(32);
export const MANY_RESELLERS = 100;
/** B1-err: refused requests a second beside the orders (each one recorded among the recent API errors). */
export const REFUSALS_PER_SECOND = 200;
/** B3's offered load (orders per second) and how long to wait for the backlog to settle. */
export const B3_RATE = 2000;
export const DRAIN_MS = SMOKE ? 20_000 : 120_000;
/** CLI start: alternating rounds of `node -e ''`, `topup --help` and a read-only command. */
export const CLI_ROUNDS = SMOKE ? 1 : 10;
/** BENCH_FIGURES=B3,B4 runs only those (for profiling one figure); all by default. */
export const FIGURES = new Set((process.env.BENCH_FIGURES ?? 'B1,B2,B3,B4,B5,R1,CLI').split(',').map((f) => f.trim().toUpperCase()));
export const wants = (...ids: string[]) => ids.some((id) => FIGURES.has(id));
export const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
