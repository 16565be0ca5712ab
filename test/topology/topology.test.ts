import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sign } from '../../src/domain/signature.js';
import { totpCode } from '../../src/domain/two-factor.js';
import { recordSecret } from '../support/log-audit.js';
import { createTestStore, POSTGRES_URL, REDIS_URL, type TestStore } from '../support/stores.js';
import { freePort } from '../support/ports.js';
import { composeService, startTopup, type Proc } from './compose-processes.js';

/**
 * compose.yaml's topology as processes: two `topup serve` (worker off) and one `topup
 * worker`, the commands and environment read from compose.yaml, on one PostgreSQL database
 * and one Redis (a redis-server of this test's own, which its last test stops). Only what is an address on this one host is set here: the store and
 * Redis URLs, the listen address and ports, the data folder. The test's client stands in
 * for the proxy: it spreads requests over both servers and, like Caddy's lb_try_duration,
 * tries the other server when a connection is refused (the request never left).
 */
const LISTENING = /topup listening on \S+/;
const WORKING = /topup worker \S+ running/;
const MASTER_KEY = 'cd'.repeat(32);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a Redis answers PING on this port. */
const pong = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1');
  socket.setTimeout(1000, () => socket.destroy());
  socket.on('connect', () => socket.write('PING\r\n'));
  socket.on('data', (d) => {
    resolve(d.toString().startsWith('+PONG'));
    socket.destroy();
  });
  socket.on('close', () => resolve(false));
  socket.on('error', () => resolve(false));
});

/** A redis-server of the test's own, without persistence (as compose's), so it can be stopped. */
async function privateRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 20_000;
  while (!(await pong(port))) {
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, child };
}

interface Answer { status: number; body: any; server: number; headers: http.IncomingHttpHeaders }

describe.skipIf(!POSTGRES_URL || !REDIS_URL)('compose topology as processes (PostgreSQL + Redis)', () => {
  let store: TestStore;
  let db: pg.Pool;
  const ports: { api: number; metrics: number }[] = [];
  const servers: (Proc | null)[] = [null, null];
  let worker: Proc | null = null;
  let workerMetrics = 0;
  let key = '';
  let secret = '';
  let resellerId = '';
  let opToken = '';
  let redis: { url: string; child: ChildProcess } | null = null;
  const product = 'FF-100';

  const envOf = (service: 'api-1' | 'api-2' | 'worker', port: number, metricsPort: number) => {
    const s = composeService(service, { MASTER_KEY, POSTGRES_PASSWORD: 'unused' });
    // Addresses of this host; everything else is compose.yaml's.
    return { args: s.args, env: { ...s.env, DATABASE_URL: store.url, REDIS_URL: redis!.url, HOST: '127.0.0.1', PORT: String(port), METRICS_HOST: '127.0.0.1', METRICS_PORT: String(metricsPort), DATA_DIR: store.dataDir } };
  };
  const startServer = async (i: 0 | 1) => {
    const { args, env } = envOf(i === 0 ? 'api-1' : 'api-2', ports[i]!.api, ports[i]!.metrics);
    servers[i] = await startTopup(args, env, LISTENING);
    return servers[i]!;
  };
  const startWorker = async () => {
    const { args, env } = envOf('worker', 0, workerMetrics);
    worker = await startTopup(args, env, WORKING);
    return worker;
  };

  /** One signed API v1 request on a connection of its own. */
  function call(server: number, method: 'GET' | 'POST', p: string, body?: unknown, creds = { key, secret }): Promise<Answer> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const ts = String(Date.now());
    const headers: Record<string, string> = { 'x-api-key': creds.key, 'x-timestamp': ts, 'x-signature': sign(creds.secret, ts, payload) };
    if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: ports[server]!.api, path: `/api/v1${p}`, method, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, server, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(payload || undefined);
    });
  }

  /**
   * What the proxy does: a refused connection (the server is down) is tried on the other
   * server. A connection reset before any answer (one still in the kernel's accept queue
   * when the stopping server closed its listener) is what a reseller's client sees then:
   * it retries with the same ref_id, which is always safe (`resets` counts them).
   */
  let resets = 0;
  async function viaProxy(first: number, method: 'GET' | 'POST', p: string, body?: unknown): Promise<Answer & { afterReset?: true }> {
    let reset = false;
    for (let tries = 0; ; tries++) {
      const server = (first + tries) % 2;
      try {
        const a = await call(server, method, p, body);
        return reset ? { ...a, afterReset: true } : a;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ECONNRESET') {
          resets++;
          reset = true;
        } else if (code !== 'ECONNREFUSED' || tries > 200) throw e;
        if (tries % 2 === 1) await sleep(25);
      }
    }
  }

  async function admin(server: number, method: string, p: string, body?: unknown) {
    const r = await fetch(`http://127.0.0.1:${ports[server]!.api}/admin/v1${p}`, {
      method, headers: { authorization: `Bearer ${opToken}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: await r.json() as any };
  }

  const orderRows = async () => (await db.query<{ id: string; ref_id: string; status: string }>('select id, ref_id, status from orders where reseller_id = $1', [resellerId])).rows;
  async function allSettled(refIds: string[], timeoutMs = 150_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = (await orderRows()).filter((r) => refIds.includes(r.ref_id));
      if (rows.length === refIds.length && rows.every((r) => r.status !== 'processing')) return rows;
      if (Date.now() > deadline) throw new Error(`orders still processing: ${rows.filter((r) => r.status === 'processing').length} of ${refIds.length} (${rows.length} found)`);
      await sleep(100);
    }
  }
  /** Each order submitted upstream once, debited once, never refunded (they all succeed). */
  async function fulfilledOnce(orderIds: string[]) {
    const subs = await db.query<{ reference: string; submissions: number }>('select reference, submissions from sandbox_orders where reference = any($1)', [orderIds]);
    expect(subs.rows).toHaveLength(orderIds.length);
    expect(subs.rows.filter((r) => Number(r.submissions) !== 1)).toEqual([]);
    const entries = await db.query<{ order_id: string; type: string; n: string }>('select order_id, type, count(*) as n from ledger_entries where order_id = any($1) group by order_id, type', [orderIds]);
    expect(entries.rows.filter((r) => r.type !== 'order_debit' || r.n !== '1')).toEqual([]);
    expect(entries.rows).toHaveLength(orderIds.length);
  }

  beforeAll(async () => {
    store = await createTestStore('postgres');
    redis = await privateRedis();
    db = new pg.Pool({ connectionString: store.url, max: 2 });
    for (let i = 0; i < 2; i++) ports.push({ api: await freePort(), metrics: await freePort() });
    workerMetrics = await freePort();
    // The first server migrates and creates the first operator (compose: api-2 waits for api-1).
    const first = await startServer(0);
    const email = /Email:\s+(\S+)/.exec(first.output())?.[1];
    const password = /Password:\s+(\S+)/.exec(first.output())?.[1];
    if (!email || !password) throw new Error(`no first operator in:\n${first.output()}`);
    recordSecret('first operator password', password);
    await startServer(1);
    await startWorker();
    // Production seeds nothing: the demo reseller comes from `topup seed`, with the same environment.
    const seed = envOf('api-1', ports[0]!.api, 0);
    const seeded = await startTopup(['seed'], { ...seed.env, METRICS_PORT: 'off' }, /API secret:\s+\S+/);
    await seeded.exited;
    key = /API key:\s+(\S+)/.exec(seeded.output())![1]!;
    secret = /API secret:\s+(\S+)/.exec(seeded.output())![1]!;
    recordSecret('topology API secret', secret);
    resellerId = (await db.query<{ reseller_id: string }>('select reseller_id from api_keys limit 1')).rows[0]!.reseller_id;
    const signIn = await fetch(`http://127.0.0.1:${ports[1]!.api}/admin/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    opToken = ((await signIn.json()) as any).data.token;
    recordSecret('operator session', opToken);
    // Production requires two-factor sign-in of an owner: the operator enrols before anything else works.
    expect((await admin(1, 'POST', `/resellers/${resellerId}/wallet/credit`, { amount: 1, note: 'before enrolling' })).body.error).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const enrol = await admin(0, 'POST', '/auth/two-factor/enrolment', {});
    expect(enrol.status).toBe(200);
    recordSecret('topology TOTP secret', enrol.body.data.secret);
    const confirmed = await admin(1, 'POST', '/auth/two-factor/enrolment/confirm', { code: totpCode(enrol.body.data.secret, Date.now()) });
    expect(confirmed.status).toBe(200);
    // Enough money for every order below, credited through the other server.
    // Each at FOUR_EYES_THRESHOLD (10 million by default): applied at once, no second operator needed.
    for (let i = 0; i < 10; i++) expect((await admin(1, 'POST', `/resellers/${resellerId}/wallet/credit`, { amount: 10_000_000, note: `topology test ${i}` })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    for (const p of [...servers, worker]) p?.child.kill('SIGKILL');
    redis?.child.kill('SIGKILL');
    await db?.end();
    await store?.drop();
  });

  it('the processes run what compose.yaml says: servers without the worker, on one store and Redis', () => {
    const api = composeService('api-1', { MASTER_KEY, POSTGRES_PASSWORD: 'x' });
    expect(api.args).toEqual(['serve']);
    expect(api.env).toMatchObject({ NODE_ENV: 'production', WORKER_IN_PROCESS: 'false' });
    expect(composeService('worker', { MASTER_KEY, POSTGRES_PASSWORD: 'x' }).args).toEqual(['worker']);
    expect(api.env.TRUSTED_PROXIES).toBeTruthy();
  });

  it('orders placed alternately on both servers are fulfilled once each', async () => {
    const refs = Array.from({ length: 20 }, (_, i) => `alt-${i}`);
    const answers = await Promise.all(refs.map((ref, i) => call(i % 2, 'POST', '/order', { ref_id: ref, product_code: product, target: '123456789' })));
    expect(answers.map((a) => a.status)).toEqual(refs.map(() => 200));
    const rows = await allSettled(refs);
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    await fulfilledOnce(rows.map((r) => r.id));
    expect(new Set(answers.map((a) => a.server))).toEqual(new Set([0, 1]));
    // A ref_id taken on one server is taken on the other.
    expect((await call(1, 'POST', '/order', { ref_id: 'alt-0', product_code: product, target: '123456789' })).body.error).toBe('DUPLICATE_REF_ID');
  }, 120_000);

  it('shares the rate limit across servers (one count in Redis)', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await call(i % 2, 'GET', '/balance');
      expect(r.status).toBe(200);
      remaining.push(Number(r.headers['x-ratelimit-remaining']));
    }
    // Each request, whichever server took it, spent one of the same count; a new minute's
    // window (at most once in 8 quick requests) starts the count again.
    const steps = remaining.slice(1).map((v, i) => v - remaining[i]!);
    expect(steps.filter((d) => d !== -1).length).toBeLessThanOrEqual(1);
    expect(steps.filter((d) => d === -1).length).toBeGreaterThanOrEqual(6);
  });

  it('a catalog change made on one server applies on the other', async () => {
    expect((await admin(0, 'PATCH', `/products/${product}`, { enabled: false })).status).toBe(200);
    try {
      const r = await call(1, 'POST', '/order', { ref_id: 'while-disabled', product_code: product, target: '123456789' });
      expect(r.body.error).toBe('PRODUCT_NOT_FOUND');
    } finally {
      expect((await admin(1, 'PATCH', `/products/${product}`, { enabled: true })).status).toBe(200);
    }
    expect((await call(0, 'POST', '/order', { ref_id: 'enabled-again', product_code: product, target: '123456789' })).status).toBe(200);
  });

  it('restarting one server under a steady order load (SIGTERM, drain, start) loses no request and no order', async () => {
    let stop = false;
    let n = 0;
    const answers: Answer[] = [];
    const errors: string[] = [];
    const loop = async (lane: number) => {
      while (!stop) {
        const ref = `load-${lane}-${n++}`;
        try {
          answers.push({ ...(await viaProxy(n % 2, 'POST', '/order', { ref_id: ref, product_code: product, target: '123456789' })), body: ref });
        } catch (e) {
          errors.push(`${ref}: ${(e as Error).message}`);
        }
      }
    };
    const lanes = [0, 1, 2, 3].map(loop);
    await sleep(1000);
    const before = answers.length;
    servers[0]!.child.kill('SIGTERM');
    expect(await servers[0]!.exited).toBe(0);
    await startServer(0);
    const afterRestart = answers.length;
    await sleep(1500);
    stop = true;
    await Promise.all(lanes);
    expect(errors).toEqual([]);
    // Every order is accepted; after a reset, the retry may learn that the first try was taken.
    expect(answers.filter((a) => a.status !== 200 && !((a as { afterReset?: true }).afterReset && a.status === 409))).toEqual([]);
    expect(resets).toBeLessThanOrEqual(4);
    expect(before).toBeGreaterThan(0);
    // The restarted server took orders again.
    expect(answers.slice(afterRestart).some((a) => a.server === 0)).toBe(true);
    const refs = answers.map((a) => a.body as string);
    const rows = await allSettled(refs);
    expect(rows).toHaveLength(refs.length);
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    await fulfilledOnce(rows.map((r) => r.id));
  }, 300_000);

  it('a killed worker (SIGKILL) leaves no job behind: another one resumes every order', async () => {
    const refs = Array.from({ length: 20 }, (_, i) => `kill-${i}`);
    const answers = await Promise.all(refs.map((ref, i) => call(i % 2, 'POST', '/order', { ref_id: ref, product_code: product, target: '123456789' })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Killed while it holds jobs under its lease: those must come back without it.
    const deadline = Date.now() + 30_000;
    while (Number((await db.query<{ n: string }>('select count(*) as n from jobs where locked_by is not null')).rows[0]!.n) === 0) {
      if (Date.now() > deadline) throw new Error('the worker claimed none of the jobs');
      await sleep(10);
    }
    worker!.child.kill('SIGKILL');
    await worker!.exited;
    const stuck = (await orderRows()).filter((r) => refs.includes(r.ref_id) && r.status === 'processing');
    expect(stuck.length).toBeGreaterThan(0);
    await startWorker();
    const rows = await allSettled(refs);
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    await fulfilledOnce(rows.map((r) => r.id));
  }, 240_000);

  it('a key change made on one server applies on the other', async () => {
    const keyId = (await db.query<{ id: string }>('select id from api_keys where reseller_id = $1', [resellerId])).rows[0]!.id;
    const issued = await admin(1, 'POST', `/resellers/${resellerId}/api-keys`, { revoke_previous: 'now' });
    expect(issued.status).toBe(200);
    recordSecret('rotated API secret', issued.body.data.api_secret);
    const next = { key: issued.body.data.api_key, secret: issued.body.data.api_secret };
    expect((await call(0, 'GET', '/balance', undefined, next)).status).toBe(200);
    for (const server of [0, 1]) expect((await call(server, 'GET', '/balance')).body.error).toBe('INVALID_API_KEY');
    // And back: revoked on server 0, refused on server 1.
    const nextId = (await db.query<{ id: string }>('select id from api_keys where reseller_id = $1 and revoked_at is null', [resellerId])).rows[0]!.id;
    expect(nextId).not.toBe(keyId);
    expect((await admin(0, 'DELETE', `/resellers/${resellerId}/api-keys/${nextId}`)).status).toBe(200);
    expect((await call(1, 'GET', '/balance', undefined, next)).body.error).toBe('INVALID_API_KEY');
  });

  it('each process serves its own metrics on its own listener', async () => {
    for (const port of [ports[0]!.metrics, ports[1]!.metrics, workerMetrics]) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(text).toContain('topup_jobs_ready');
    }
    const api = await (await fetch(`http://127.0.0.1:${ports[1]!.metrics}/metrics`)).text();
    expect(api).toMatch(/topup_orders_placed_total\{result="accepted"\} [1-9]/);
    const w = await (await fetch(`http://127.0.0.1:${workerMetrics}/metrics`)).text();
    expect(w).toMatch(/topup_orders_settled_total\{state="success",failure_code="none"\} [1-9]/);
  });

  // Last: it stops this test's Redis.
  it('Redis stopped under load: every server stays ready (Redis reported degraded) and keeps accepting orders', async () => {
    const readyz = async (port: number) => {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: r.status, body: await r.json() as any };
    };
    // The key test above revoked every key: a live one for this load.
    const issued = await admin(0, 'POST', `/resellers/${resellerId}/api-keys`, { revoke_previous: 'now' });
    expect(issued.status).toBe(200);
    recordSecret('redis-gone API secret', issued.body.data.api_secret);
    key = issued.body.data.api_key;
    secret = issued.body.data.api_secret;
    const probes = [ports[0]!.api, ports[1]!.api, ports[0]!.metrics, ports[1]!.metrics, workerMetrics];
    for (const port of probes) expect(await readyz(port)).toMatchObject({ status: 200, body: { status: 'ready', checks: { redis: 'ok' } } });
    let stop = false;
    let n = 0;
    const answers: Answer[] = [];
    const errors: string[] = [];
    const loop = async (lane: number) => {
      while (!stop) {
        const ref = `redis-gone-${lane}-${n++}`;
        try {
          answers.push({ ...(await viaProxy(n % 2, 'POST', '/order', { ref_id: ref, product_code: product, target: '123456789' })), body: ref });
        } catch (e) {
          errors.push(`${ref}: ${(e as Error).message}`);
        }
      }
    };
    const lanes = [0, 1, 2, 3].map(loop);
    await sleep(500);
    redis!.child.kill('SIGKILL');
    await new Promise((r) => redis!.child.once('exit', r));
    const stoppedAt = answers.length;
    // Each probe, as the proxy's health check would ask it, sees the loss as degraded: ready.
    const seen: { status: number; body: any }[] = [];
    for (const port of probes) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const r = await readyz(port);
        seen.push(r);
        if (r.body.degraded?.includes('redis')) break;
        if (Date.now() > deadline) throw new Error(`port ${port} never reported Redis degraded: ${JSON.stringify(r.body)}`);
        await sleep(100);
      }
    }
    await sleep(1000);
    stop = true;
    await Promise.all(lanes);
    expect(seen.filter((r) => r.status !== 200 || r.body.status !== 'ready')).toEqual([]);
    for (const port of probes) {
      const r = await readyz(port);
      expect(r).toMatchObject({ status: 200, body: { status: 'ready', degraded: ['redis'] } });
      expect(r.body.checks.redis).toMatch(/^not connected/);
    }
    // Orders went on through both servers after Redis was gone.
    expect(errors).toEqual([]);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(new Set(answers.slice(stoppedAt).map((a) => a.server))).toEqual(new Set([0, 1]));
    // Reported in each server's log and metrics too.
    for (const i of [0, 1]) {
      expect(servers[i]!.output()).toContain('redis lost');
      expect(await (await fetch(`http://127.0.0.1:${ports[i]!.metrics}/metrics`)).text()).toContain('topup_dependency_degraded{dependency="redis"} 1');
    }
    const rows = await allSettled(answers.map((a) => a.body as string));
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    await fulfilledOnce(rows.map((r) => r.id));
  }, 240_000);
});
