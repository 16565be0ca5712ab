import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { sign } from '../../src/domain/signature.js';
import { CONNECTIONS, DURATION, PAIRED_ROUNDS, WARMUP } from './config.js';
import type { Started } from './processes.js';

export interface Creds { baseUrl: string; apiKey: string; apiSecret: string; resellerId?: string }

/** One measured load, whichever client ran it. */
export interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  ok: number;
  /** The server's CPU µs per answered request over the measured part (null: no server given). */
  cpuUsPerRequest: number | null;
  /** The bench process's own CPU µs per answered request over the measured part. */
  clientCpuUs: number;
}

export const orderBody = (prefix = 'b') => () => JSON.stringify({ ref_id: `${prefix}-${randomUUID()}`, product_code: 'FF-100', target: '123456789' });

/**
 * CPU of the server and of this process over the measured part of a run: `start` when the
 * warm-up second ends (or at once without one), `per(n)` at the end.
 */
export function cpuMeter(server: Started | undefined) {
  let serverFrom = server?.cpuMs() ?? 0;
  let selfFrom = process.cpuUsage();
  return {
    start() {
      serverFrom = server?.cpuMs() ?? 0;
      selfFrom = process.cpuUsage();
    },
    per(n: number) {
      const self = process.cpuUsage(selfFrom);
      return {
        cpuUsPerRequest: server ? ((server.cpuMs() - serverFrom) * 1000) / Math.max(1, n) : null,
        clientCpuUs: (self.user + self.system) / Math.max(1, n),
      };
    },
  };
}

/**
 * One load run with autocannon (the bench's general client: open loop with `overallRate`,
 * any method). A second of warm-up at the same load comes first and is not measured (JIT,
 * caches, connection pools: the figures are steady state). B3 and B4 count what the run
 * wrote to the store (`warmup: false`): B3 runs its warm-up second as a load of its own,
 * and B4 follows B3 on the same warm service.
 */
export async function cannon(opts: { url: string; method: 'GET' | 'POST'; creds: Creds | Creds[]; bearer?: string; body?: () => string; connections?: number; duration?: number; overallRate?: number; warmup?: boolean; server?: Started; timeout?: number }): Promise<LoadRun> {
  const pool = Array.isArray(opts.creds) ? opts.creds : [opts.creds];
  let turn = 0;
  const warmup = opts.warmup !== false && WARMUP;
  const cpu = cpuMeter(opts.server);
  // The warm-up second is autocannon's first.
  const warmed = warmup ? setTimeout(() => cpu.start(), 1000) : null;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.duration ?? DURATION,
    ...(opts.timeout ? { timeout: opts.timeout } : {}),
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
          // A session (the web apps' reads) instead of an API v1 signature.
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
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts, ok, ...cpu.per(ok + result.non2xx) };
}

/**
 * Sides measured in alternating rounds (A, B, C, A, B, C, …): on a shared machine a slow
 * spell then lands on every side of a round instead of on one whole side of the comparison
 * (seen: the bare route's rate moving between 14k and 25k requests/s from one run to the
 * next). Answers each round's runs, side by side.
 */
export async function alternate<T>(sides: (() => Promise<T>)[], rounds = PAIRED_ROUNDS): Promise<T[][]> {
  const out: T[][] = [];
  for (let i = 0; i < rounds; i++) {
    const round: T[] = [];
    for (const side of sides) round.push(await side());
    out.push(round);
  }
  return out;
}

/**
 * A figure against its baseline over alternating rounds, compared round by round: the
 * round with the median ratio is the figure, every round's ratio goes beside it.
 */
export function medianPair(rounds: { base: LoadRun; fig: LoadRun }[]) {
  const withRatio = rounds.map((r) => ({ ...r, ratio: r.base.rps ? r.fig.rps / r.base.rps : 0 }));
  const median = [...withRatio].sort((a, b) => a.ratio - b.ratio)[Math.floor(withRatio.length / 2)]!;
  const spread = withRatio.length > 1 ? `; ${withRatio.length} alternating rounds, ratios ${withRatio.map((r) => r.ratio.toFixed(2)).join(' / ')}` : '';
  const cpuUs = { figure: median.fig.cpuUsPerRequest, baseline: median.base.cpuUsPerRequest };
  return { ...median, spread, cpuUs, non2xx: rounds.reduce((n, r) => n + r.base.non2xx + r.fig.non2xx, 0) };
}

/** A figure and its baseline alternated (baseline first in each round). */
export async function paired(baseline: () => Promise<LoadRun>, figure: () => Promise<LoadRun>) {
  const rounds = await alternate([baseline, figure]);
  return medianPair(rounds.map(([base, fig]) => ({ base: base!, fig: fig! })));
}

/** `autocannon, 50 conns, 4 s × 3 rounds` and the like, for a row's load column. */
export function loadText(client: 'autocannon' | 'raw client', connections: number, seconds: number, rounds?: number) {
  return `${client}, ${connections} conns, ${seconds} s${rounds && rounds > 1 ? ` × ${rounds} rounds` : ''}${WARMUP ? ' (+1 s warm-up)' : ''}`;
}
