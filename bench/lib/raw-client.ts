import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { sign } from '../../src/domain/signature.js';
import { CONNECTIONS, SMOKE, WARMUP } from './config.js';
import { cpuMeter, type Creds, type LoadRun } from './load.js';
import type { Started } from './processes.js';

/**
 * A closed-loop load client on raw sockets, for POST /order: each connection sends one
 * request, waits for its answer, sends the next (keep-alive, no pipelining). Requests are
 * built and signed before the run (fresh ref_ids, valid signatures, one block of bytes per
 * connection), and an answer is read for its status line and content-length only. It
 * spends a fraction of autocannon's CPU per request, and on a 2-core machine the client's
 * CPU is taken from the service.
 */

/** Latency histogram buckets of 10 µs, up to 10 s (slower answers count in the last). */
const BUCKET_US = 10;
const BUCKETS = 1_000_000;
/** Requests a second assumed where none was measured yet (a fast bare route's). */
const FIRST_GUESS = SMOKE ? 5_000 : 60_000;
/** Requests a second a target answered last time (sizes the next run's pre-built requests). */
const lastRate = new Map<string, number>();

export async function rawLoad(opts: { url: string; creds: Creds | Creds[]; body: () => string; seconds: number; connections?: number; server?: Started }): Promise<LoadRun> {
  const url = new URL(opts.url);
  const pool = Array.isArray(opts.creds) ? opts.creds : [opts.creds];
  const connections = opts.connections ?? CONNECTIONS;
  const warmupMs = WARMUP ? 1000 : 0;
  const total = warmupMs / 1000 + opts.seconds;
  // Enough for the highest rate seen at this URL with a margin (a bare route's rate the
  // first time: building late costs CPU inside the measured part); a connection that runs
  // out builds more on the spot (counted: `builtLate`).
  const perConn = Math.ceil(((lastRate.get(opts.url) ?? FIRST_GUESS) * 1.3 * total) / connections) + 16;
  let turn = 0;
  const build = (n: number) => {
    const parts: string[] = [];
    const ends: number[] = [];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const c = pool[turn++ % pool.length]!;
      const body = opts.body();
      const ts = String(Date.now());
      const req = `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-api-key: ${c.apiKey}\r\nx-timestamp: ${ts}\r\nx-signature: ${sign(c.apiSecret, ts, body)}\r\n\r\n${body}`;
      parts.push(req);
      at += Buffer.byteLength(req);
      ends.push(at);
    }
    return { bytes: Buffer.from(parts.join('')), ends };
  };
  const prebuilt = Array.from({ length: connections }, () => build(perConn));

  const hist = new Uint32Array(BUCKETS);
  let measuring = !warmupMs;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let builtLate = 0;
  let stopping = false;
  const cpu = cpuMeter(opts.server);

  const sockets: net.Socket[] = [];
  const runConnection = (own: { bytes: Buffer; ends: number[] }) =>
    new Promise<void>((resolve) => {
      let next = 0;
      let sentAt = 0;
      let pending: Buffer | null = null;
      const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
      sockets.push(socket);
      const send = () => {
        if (stopping) return socket.end(resolve);
        if (next === own.ends.length) {
          own = build(64);
          next = 0;
          builtLate += 64;
        }
        const from = next ? own.ends[next - 1]! : 0;
        sentAt = performance.now();
        socket.write(own.bytes.subarray(from, own.ends[next++]));
      };
      socket.on('connect', send);
      socket.on('error', () => {
        errors++;
        resolve();
      });
      socket.on('close', () => resolve());
      socket.on('data', (chunk: Buffer) => {
        const buf: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
        const headEnd = buf.indexOf('\r\n\r\n');
        if (headEnd < 0) return void (pending = buf);
        const lenAt = buf.indexOf('content-length:');
        const length = lenAt >= 0 && lenAt < headEnd ? parseInt(buf.toString('latin1', lenAt + 15, buf.indexOf('\r\n', lenAt)), 10) : 0;
        if (buf.length < headEnd + 4 + length) return void (pending = buf);
        pending = null;
        if (measuring) {
          // "HTTP/1.1 200": the status's first digit is byte 9.
          if (buf[9] === 0x32) ok++;
          else non2xx++;
          hist[Math.min(BUCKETS - 1, Math.floor(((performance.now() - sentAt) * 1000) / BUCKET_US))]!++;
        }
        send();
      });
    });

  const done = Promise.all(prebuilt.map(runConnection));
  if (warmupMs) await sleep(warmupMs);
  measuring = true;
  cpu.start();
  const from = performance.now();
  await sleep(opts.seconds * 1000);
  measuring = false;
  const seconds = (performance.now() - from) / 1000;
  const used = cpu.per(ok + non2xx);
  stopping = true;
  // An answer still awaited after 5 s is not waited for.
  const cut = setTimeout(() => sockets.forEach((s) => s.destroy()), 5000);
  await done;
  clearTimeout(cut);
  const rps = ok / seconds;
  lastRate.set(opts.url, Math.max(rps, lastRate.get(opts.url) ?? 0));
  if (builtLate) console.log(`raw client: ${builtLate} requests built during the run (${opts.url})`);
  return { rps, p50: percentile(hist, 50), p99: percentile(hist, 99), non2xx, errors, ok, ...used };
}

/** The p-th percentile of the histogram, in ms. */
function percentile(hist: Uint32Array, p: number): number {
  let n = 0;
  for (const c of hist) n += c;
  const rank = Math.ceil((p / 100) * n);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen >= rank && rank > 0) return ((i + 1) * BUCKET_US) / 1000;
  }
  return 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
