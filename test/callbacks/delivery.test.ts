import { createHmac } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postCallback } from '../../src/adapters/callback-http.js';
import { DeliverCallback } from '../../src/services/deliver-callback.js';
import type { PreparedCallback } from '../../src/store/callbacks-repo.js';
import { verifyCallback } from '../../src/receiver.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { startReceiver, type Behaviour } from '../support/receiver.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

const PAYLOAD_FIELDS = ['failure_code', 'failure_reason', 'message', 'order_code', 'price', 'product_code', 'product_name', 'ref_id', 'serial_number', 'status'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
}

describe.each(storeKinds())('order callbacks (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { worker: true });
  });
  afterAll(async () => t?.close());

  const setCallbackUrl = (url: string | null) => t.platform.database.db.updateTable('resellers').set({ callback_url: url }).where('id', '=', t.demo.resellerId).execute();

  /** The worker stopped, callbacks pointed at a receiver, one order placed: `body` drives its jobs by hand. */
  async function withStoppedWorker(behaviour: Behaviour, body: (rx: Awaited<ReturnType<typeof startReceiver>>, orderId: string) => Promise<void>) {
    const rx = await startReceiver(behaviour);
    await setCallbackUrl(rx.url);
    await t.platform.runner.stop();
    try {
      const ref = uniqueRef();
      await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      const orderId = (await t.platform.database.db.selectFrom('orders').select('id').where('ref_id', '=', ref).executeTakeFirstOrThrow()).id;
      await body(rx, orderId);
    } finally {
      t.platform.runner.start();
      await setCallbackUrl(null);
      await rx.close();
    }
  }

  /** Callbacks pointed at a receiver, one order placed and its first callback received. */
  async function withDeliveredOrder(body: (rx: Awaited<ReturnType<typeof startReceiver>>, ref: string) => Promise<void>) {
    const rx = await startReceiver();
    await setCallbackUrl(rx.url);
    try {
      const ref = uniqueRef();
      await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      await until(() => rx.received.length >= 1 || undefined);
      await body(rx, ref);
    } finally {
      await setCallbackUrl(null);
      await rx.close();
    }
  }

  it('delivers the spec payload, signed over body + timestamp, with a stable callback id', async () => {
    const rx = await startReceiver();
    await setCallbackUrl(rx.url);
    try {
      const ok = uniqueRef();
      await t.client.post('/order', { ref_id: ok, product_code: 'FF-100', target: '123456789' });
      const bad = uniqueRef();
      await t.client.post('/order', { ref_id: bad, product_code: 'FF-100', target: '7000000001' });
      await until(() => rx.received.length >= 2 || undefined);
      for (const r of rx.received) {
        const body = JSON.parse(r.rawBody);
        expect(Object.keys(body).sort()).toEqual(PAYLOAD_FIELDS);
        expect(body).not.toHaveProperty('order_id');
        const ts = r.headers['x-timestamp'] as string;
        expect(Math.abs(Date.now() - Number(ts))).toBeLessThan(60_000);
        const expected = createHmac('sha256', t.demo.apiSecret).update(r.rawBody + ts).digest('hex');
        expect(r.headers['x-signature']).toBe(expected);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['user-agent']).toMatch(/topup/);
        expect(r.headers['x-callback-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(verifyCallback({ rawBody: r.rawBody, headers: r.headers, secret: t.demo.apiSecret })).toEqual({ ok: true });
      }
      const byRef = Object.fromEntries(rx.received.map((r) => [JSON.parse(r.rawBody).ref_id, JSON.parse(r.rawBody)]));
      const okStatus = (await t.client.get(`/order-status?ref_id=${ok}`)).body.data;
      expect(byRef[ok]).toMatchObject({ status: 'success', order_code: okStatus.order_code, product_code: 'FF-100', product_name: '100 Diamonds', price: 15000, serial_number: okStatus.serial_number, failure_code: null, failure_reason: null });
      expect(byRef[bad]).toMatchObject({ status: 'failed', serial_number: null, failure_code: 'SUPPLIER_MAINTENANCE' });
      expect(typeof byRef[bad].failure_reason).toBe('string');

      // Delivery log, and a resend: a new round with a new callback id; completed_at unchanged.
      const orderId = okStatus.order_id;
      const log = await t.platform.callbacks.log(orderId);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(log[0]!.attempt_log[0]).toMatchObject({ attempt: 1, http_status: 200, error: null, response_snippet: 'answer 200' });
      await t.platform.resendCallback.execute(orderId);
      await until(() => rx.received.length >= 3 || undefined);
      expect(rx.received[2]!.headers['x-callback-id']).not.toBe(rx.received.find((r) => JSON.parse(r.rawBody).ref_id === ok)!.headers['x-callback-id']);
      expect((await t.client.get(`/order-status?ref_id=${ok}`)).body.data.completed_at).toBe(okStatus.completed_at);
    } finally {
      await setCallbackUrl(null);
      await rx.close();
    }
  });

  it('refused orders (checker, supplier gate) never produce a callback', async () => {
    const rx = await startReceiver();
    await setCallbackUrl(rx.url);
    try {
      const r = await t.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '4040404040' });
      expect(r.body.error).toBe('INVALID_ID');
      await sleep(300);
      expect(rx.received).toHaveLength(0);
    } finally {
      await setCallbackUrl(null);
      await rx.close();
    }
  });

  it('with an injected clock: four attempts 5, 10, 15 s apart, durable across a restart, then resend', async () => {
    await withStoppedWorker(() => ({ status: 500 }), async (rx, orderId) => {
      // Finish the order by hand (the worker is stopped) so its callback job exists.
      await t.platform.jobHandlers.fulfil_order!({ id: 0, kind: 'fulfil_order', payload: { orderId }, attempts: 0, runAt: Date.now() });
      let now = Date.now();
      const make = () =>
        new DeliverCallback({
          callbacks: t.platform.callbacks, secrets: t.platform.secrets, send: postCallback,
          clock: { now: () => now }, ids: t.platform.ids, money: (m) => m, allowPrivateTargets: true,
        });
      const job = { id: 0, kind: 'deliver_callback', payload: { orderId }, attempts: 0, runAt: now };
      const r1 = await make().handle(job);
      expect(r1).toEqual({ status: 'retry', retryAt: now + 5000 });
      // Run early: the stored schedule wins.
      expect(await make().handle(job)).toEqual({ status: 'retry', retryAt: now + 5000 });
      now += 5000;
      const r2 = await make().handle(job); // a "restarted" worker continues with attempt 2
      expect(r2).toEqual({ status: 'retry', retryAt: now + 10_000 });
      now += 10_000;
      expect(await make().handle(job)).toEqual({ status: 'retry', retryAt: now + 15_000 });
      now += 15_000;
      expect(await make().handle(job)).toEqual({ status: 'done' });
      expect(await make().handle(job)).toEqual({ status: 'done' });
      expect(rx.received).toHaveLength(4);
      expect(rx.received.map((r) => r.headers['x-callback-attempt'])).toEqual(['1', '2', '3', '4']);
      expect(new Set(rx.received.map((r) => r.headers['x-callback-id'])).size).toBe(1);
      const log = await t.platform.callbacks.log(orderId);
      expect(log[0]).toMatchObject({ status: 'failed', attempts: 4 });
      expect(log[0]!.attempt_log.map((a) => a.http_status)).toEqual([500, 500, 500, 500]);

      // Resend after permanent failure: a new round; this time the receiver succeeds on attempt 2.
      let calls = 0;
      const rx2 = await startReceiver(() => ({ status: ++calls === 1 ? 503 : 204 }));
      await setCallbackUrl(rx2.url);
      const { round } = await t.platform.resendCallback.execute(orderId);
      expect(round).toBe(2);
      const job2 = { ...job, payload: { orderId, round } };
      expect((await make().handle(job2)).status).toBe('retry');
      now += 5000;
      expect(await make().handle(job2)).toEqual({ status: 'done' });
      now += 60_000;
      expect(await make().handle(job2)).toEqual({ status: 'done' });
      expect(rx2.received).toHaveLength(2);
      expect((await t.platform.callbacks.log(orderId))[1]).toMatchObject({ round: 2, status: 'delivered', attempts: 2 });
      await rx2.close();
    });
  });

  /** The order's fulfil_order row, leased to `holder` as a claim would. */
  async function leaseFulfilJob(orderId: string, holder: string) {
    const { db } = t.platform.database;
    const row = await db.selectFrom('jobs').select('id').where('kind', '=', 'fulfil_order').where('payload', 'like', `{"orderId":"${orderId}"%`).executeTakeFirstOrThrow();
    const lease = { holder, until: Date.now() + 60_000 };
    await db.updateTable('jobs').set({ locked_by: holder, locked_until: lease.until, attempts: 1 }).where('id', '=', row.id).execute();
    return { id: Number(row.id), lease };
  }

  it('settling hands the callback what the store holds: its target and an open delivery; the settling and the attempt finish their own job rows', async () => {
    await withStoppedWorker(() => ({ status: 204 }), async (rx, orderId) => {
      const { db } = t.platform.database;
      const { id, lease } = await leaseFulfilJob(orderId, 'test-worker');
      const outcome = await t.platform.jobHandlers.fulfil_order!({ id, kind: 'fulfil_order', payload: { orderId }, attempts: 0, runAt: Date.now(), lease });
      // The settling statement (PostgreSQL) or transaction (SQLite) removed the fulfil job's row: the runner writes nothing more.
      expect(outcome).toMatchObject({ status: 'done', written: true });
      expect(await db.selectFrom('jobs').select('id').where('id', '=', id).execute()).toEqual([]);
      const [callback] = outcome.status === 'done' ? (outcome.handoff ?? []) : [];
      expect(callback).toMatchObject({ kind: 'deliver_callback', payload: { orderId } });
      expect(await db.selectFrom('jobs').select(['locked_by', 'group_key']).where('id', '=', callback!.id).executeTakeFirst()).toEqual({ locked_by: 'test-worker', group_key: `reseller:${t.demo.resellerId}` });
      const prepared = callback!.prepared as PreparedCallback;
      expect(prepared.target).toEqual(await t.platform.callbacks.target(orderId));
      const stored = await db.selectFrom('callback_deliveries').selectAll().where('order_id', '=', orderId).execute();
      expect(stored.map((d) => ({ ...d, attempts: Number(d.attempts), next_attempt_at: Number(d.next_attempt_at), created_at: Number(d.created_at), updated_at: Number(d.updated_at) }))).toEqual([prepared.delivery]);
      // The attempt goes out on what was prepared, with the stored delivery's id, and deletes its own job row.
      expect(await t.platform.jobHandlers.deliver_callback!({ id: callback!.id, kind: 'deliver_callback', payload: callback!.payload, attempts: 0, runAt: Date.now(), lease, prepared })).toEqual({ status: 'done', written: true });
      expect(await db.selectFrom('jobs').select('id').where('id', '=', callback!.id).execute()).toEqual([]);
      expect(rx.received.map((r) => r.headers['x-callback-id'])).toEqual([stored[0]!.id]);
      expect(JSON.parse(rx.received[0]!.rawBody)).toMatchObject({ status: 'success', serial_number: prepared.target.order.serialNumber });
    });
  });

  it('a handed-off callback that waited for its reseller\'s slots reads its target again but keeps the delivery it was handed', async () => {
    await withStoppedWorker(() => ({ status: 204 }), async (rx, orderId) => {
      const { db } = t.platform.database;
      const { id, lease } = await leaseFulfilJob(orderId, 'test-worker');
      const outcome = await t.platform.jobHandlers.fulfil_order!({ id, kind: 'fulfil_order', payload: { orderId }, attempts: 0, runAt: Date.now(), lease });
      const [callback] = outcome.status === 'done' ? (outcome.handoff ?? []) : [];
      const prepared = callback!.prepared as PreparedCallback;
      // While it waited, the reseller moved its callback URL.
      const moved = await startReceiver();
      try {
        await setCallbackUrl(moved.url);
        expect(await t.platform.jobHandlers.deliver_callback!({ id: callback!.id, kind: 'deliver_callback', payload: callback!.payload, attempts: 0, runAt: Date.now(), lease, prepared, waited: true })).toEqual({ status: 'done', written: true });
        expect(rx.received).toEqual([]);
        expect(moved.received.map((r) => r.headers['x-callback-id'])).toEqual([prepared.delivery.id]);
        expect(await db.selectFrom('callback_deliveries').select(['id', 'status', 'attempts']).where('order_id', '=', orderId).execute()).toEqual([
          { id: prepared.delivery.id, status: 'delivered', attempts: 1 },
        ]);
      } finally {
        await moved.close();
      }
    });
  });

  it('a failed attempt leaves its job row due at the next attempt, unleased, in the transaction that recorded it; another holder\'s row is left alone', async () => {
    await withStoppedWorker(() => ({ status: 500 }), async (_rx, orderId) => {
      const { db } = t.platform.database;
      const { id, lease } = await leaseFulfilJob(orderId, 'test-worker');
      const outcome = await t.platform.jobHandlers.fulfil_order!({ id, kind: 'fulfil_order', payload: { orderId }, attempts: 0, runAt: Date.now(), lease });
      const [callback] = outcome.status === 'done' ? (outcome.handoff ?? []) : [];
      // A worker that lost its lease (the row is someone else's now) must not touch the row.
      const taken = { holder: 'new-owner', until: Date.now() + 60_000 };
      await db.updateTable('jobs').set({ locked_by: taken.holder, locked_until: taken.until }).where('id', '=', callback!.id).execute();
      const late = await t.platform.jobHandlers.deliver_callback!({ id: callback!.id, kind: 'deliver_callback', payload: callback!.payload, attempts: 0, runAt: Date.now(), lease });
      expect(late).toMatchObject({ status: 'retry', written: true });
      expect(await db.selectFrom('jobs').select(['locked_by', 'locked_until']).where('id', '=', callback!.id).executeTakeFirst()).toEqual({ locked_by: 'new-owner', locked_until: taken.until });
      // The owner's attempt 2 is not due yet; after it (forced due) the row is rescheduled at attempt 3, unleased.
      await db.updateTable('callback_deliveries').set({ next_attempt_at: Date.now() - 1 }).where('order_id', '=', orderId).execute();
      const r2 = await t.platform.jobHandlers.deliver_callback!({ id: callback!.id, kind: 'deliver_callback', payload: callback!.payload, attempts: 1, runAt: Date.now(), lease: taken });
      expect(r2).toMatchObject({ status: 'retry', written: true });
      const row = await db.selectFrom('jobs').select(['locked_by', 'locked_until', 'run_at', 'last_error']).where('id', '=', callback!.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ locked_by: null, locked_until: null, run_at: r2.status === 'retry' ? r2.retryAt : -1, last_error: null });
      const [delivery] = await t.platform.callbacks.log(orderId);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 2 });
      expect(Number(delivery!.next_attempt_at)).toBe(Number(row.run_at));
      await db.deleteFrom('jobs').where('id', '=', callback!.id).execute();
    });
  });

  it('a callback job of an order that is not terminal sends nothing and opens no delivery', async () => {
    await withStoppedWorker(() => ({ status: 204 }), async (rx, orderId) => {
      const handle = t.platform.jobHandlers.deliver_callback!;
      expect(await handle({ id: 0, kind: 'deliver_callback', payload: { orderId }, attempts: 0, runAt: Date.now() })).toEqual({ status: 'done' });
      expect(rx.received).toHaveLength(0);
      expect(await t.platform.callbacks.log(orderId)).toEqual([]);
    });
  });

  it('resellers read their delivery log and resend through API v1, never another reseller’s', async () => {
    await withDeliveredOrder(async (rx, ref) => {
      const log = await until(async () => {
        const r = await t.client.get(`/callbacks?ref_id=${ref}`);
        return r.body.data?.deliveries?.[0]?.status === 'delivered' ? r : undefined;
      });
      expect(log.body.data.deliveries[0]).toMatchObject({ round: 1, status: 'delivered', attempts: 1, url: rx.url });
      expect(log.body.data.deliveries[0].attempt_log[0]).toMatchObject({ attempt: 1, http_status: 200, error: null });
      const resent = await t.client.post('/callbacks/resend', { ref_id: ref });
      expect(resent.status, resent.text).toBe(200);
      expect(resent.body.data).toMatchObject({ ref_id: ref, round: 2 });
      await until(() => rx.received.length >= 2 || undefined);
      expect((await t.client.post('/callbacks/resend', { ref_id: 'nope' })).body.error).toBe('PRODUCT_NOT_FOUND');
      expect((await t.client.post('/callbacks/resend', { ref_id: ref, extra: 1 })).body.error).toBe('VALIDATION_ERROR');
      expect((await t.client.get('/callbacks')).body.error).toBe('REF_ID_REQUIRED');
      const other = await createReseller(t.platform, t.baseUrl, { balance: 100_000 });
      expect((await other.client.get(`/callbacks?ref_id=${ref}`)).status).toBe(404);
      expect((await other.client.post('/callbacks/resend', { ref_id: ref })).status).toBe(404);
    });
  });

  it('resends asked at once are one round each, each delivered once with its own callback id', async () => {
    await withDeliveredOrder(async (rx, ref) => {
      const orderId = (await t.client.get(`/order-status?ref_id=${ref}`)).body.data.order_id as string;
      // Before any of their jobs runs: the rounds must not be read from the deliveries made so far only.
      const rounds = await Promise.all([1, 2, 3].map(() => t.platform.resendCallback.execute(orderId)));
      expect(rounds.map((r) => r.round).sort()).toEqual([2, 3, 4]);
      await until(() => rx.received.length >= 4 || undefined);
      await sleep(300);
      expect(rx.received).toHaveLength(4);
      expect(new Set(rx.received.map((r) => r.headers['x-callback-id'])).size).toBe(4);
      const log = await until(async () => {
        const l = await t.platform.callbacks.log(orderId);
        return l.every((d) => d.status === 'delivered') ? l : undefined;
      });
      expect(log.map((d) => [d.round, d.attempts])).toEqual([[1, 1], [2, 1], [3, 1], [4, 1]]);
    });
  });

  it('resend is refused for a processing order (API v1 keeps its documented 400 VALIDATION_ERROR)', async () => {
    const ref = uniqueRef();
    await t.platform.runner.stop();
    try {
      const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
      await expect(t.platform.resendCallback.execute(placed.body.data.order_id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
      const v1 = await t.client.post('/callbacks/resend', { ref_id: ref });
      expect(v1.status, v1.text).toBe(400);
      expect(v1.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
      expect(v1.body.message).toContain('this order is processing');
    } finally {
      t.platform.runner.start();
    }
    await waitForTerminal(t.client, ref);
  });
});

describe('callback HTTP: timeouts, redirects and SSRF', () => {
  const headers = { 'content-type': 'application/json' };

  it('a receiver that hangs is cut at the timeout', async () => {
    const rx = await startReceiver(() => 'hang');
    try {
      const r = await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true });
      expect(r.httpStatus).toBeNull();
      expect(r.error).toMatch(/no answer within 5000 ms/);
      expect(r.durationMs).toBeGreaterThanOrEqual(4900);
    } finally {
      await rx.close();
    }
  });

  /** A raw HTTP/1.1 receiver: `onRequest(n, socket)` answers (or not) the n-th request, over all connections. */
  async function rawReceiver(onRequest: (n: number, socket: net.Socket) => void) {
    let requests = 0;
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let buffered = '';
      socket.on('data', (d) => {
        buffered += d.toString('latin1');
        // Each request is headers + a body of content-length bytes ('{}' here).
        for (;;) {
          const end = buffered.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
          if (buffered.length < end + 4 + length) return;
          buffered = buffered.slice(end + 4 + length);
          onRequest(++requests, socket);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/callback`,
      connections: () => connections,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((r) => server.close(r));
      },
    };
  }
  const ok = (socket: net.Socket) => socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');

  it('callbacks to one receiver share a kept-open connection', async () => {
    const rx = await rawReceiver((_n, socket) => ok(socket));
    try {
      for (let i = 0; i < 3; i++) expect(await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true })).toMatchObject({ httpStatus: 204, error: null });
      expect(rx.connections()).toBe(1);
    } finally {
      await rx.close();
    }
  });

  it('a kept-open connection the receiver dropped unanswered: the callback goes again on a new connection, in the same attempt', async () => {
    // The second request arrives on the kept-open connection, which the receiver then
    // closes without an answer (an idle timeout meeting our write); the third, on a new
    // connection, is answered.
    const rx = await rawReceiver((n, socket) => (n === 2 ? socket.destroy() : ok(socket)));
    try {
      expect(await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true })).toMatchObject({ httpStatus: 204 });
      expect(await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true })).toMatchObject({ httpStatus: 204, error: null });
      expect(rx.connections()).toBe(2);
    } finally {
      await rx.close();
    }
  });

  it('a new connection dropped unanswered is a failed attempt (no second try)', async () => {
    const rx = await rawReceiver((_n, socket) => socket.destroy());
    try {
      const r = await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true });
      expect(r).toMatchObject({ httpStatus: null });
      expect(r.error).toBeTruthy();
      expect(rx.connections()).toBe(1);
    } finally {
      await rx.close();
    }
  });

  it('a redirect is a failure and is never followed', async () => {
    const elsewhere = await startReceiver();
    const rx = await startReceiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    try {
      const r = await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 5000, allowPrivate: true });
      expect(r.httpStatus).toBe(302);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await rx.close();
      await elsewhere.close();
    }
  });

  it('private, loopback, link-local and metadata targets are refused unless allowed, also after DNS', async () => {
    const rx = await startReceiver();
    try {
      for (const url of [
        rx.url,
        `http://localhost:${rx.port}/x`,
        `http://localhost.:${rx.port}/x`, // a name that resolves to 127.0.0.1 through DNS
        `http://[::1]:${rx.port}/x`,
        `http://127.1:${rx.port}/x`,
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/cb',
        'http://[fd00:ec2::254]/',
        'ftp://example.com/cb',
        'http://user:pw@example.com/cb',
      ]) {
        const r = await postCallback({ url, body: '{}', headers, timeoutMs: 2000, allowPrivate: false });
        expect(r.httpStatus, url).toBeNull();
        expect(r.error, url).toMatch(/private|reserved|localhost|http or https|credentials/);
      }
      expect(rx.received).toHaveLength(0);
      const allowed = await postCallback({ url: rx.url, body: '{}', headers, timeoutMs: 2000, allowPrivate: true });
      expect(allowed.httpStatus).toBe(200);
    } finally {
      await rx.close();
    }
  });
});

describe('verifyCallback (receiver helper)', () => {
  const secret = 'ts_secret';
  const body = '{"ref_id":"a","status":"success"}';
  const now = 1_800_000_000_000;
  const ts = String(now);
  it('accepts body+timestamp and timestamp-only signatures, refuses the rest', () => {
    const sig = (m: string) => createHmac('sha256', secret).update(m).digest('hex');
    expect(verifyCallback({ rawBody: body, headers: { 'x-timestamp': ts, 'x-signature': sig(body + ts) }, secret, now })).toEqual({ ok: true });
    expect(verifyCallback({ rawBody: body, headers: { 'x-timestamp': ts, 'x-signature': sig(ts) }, secret, now })).toEqual({ ok: true });
    expect(verifyCallback({ rawBody: body + ' ', headers: { 'x-timestamp': ts, 'x-signature': sig(body + ts) }, secret, now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyCallback({ rawBody: body, headers: { 'x-timestamp': ts, 'x-signature': sig(body + ts) }, secret, now: now + 301_000 })).toEqual({ ok: false, reason: 'timestamp_expired' });
    expect(verifyCallback({ rawBody: body, headers: {}, secret, now })).toEqual({ ok: false, reason: 'missing_headers' });
  });

  it('reads header names in any case, from a plain object or a fetch Headers', () => {
    const signature = createHmac('sha256', secret).update(body + ts).digest('hex');
    for (const headers of [
      { 'X-Timestamp': ts, 'X-Signature': signature },
      { 'X-TIMESTAMP': ts, 'x-Signature': [signature] },
      new Headers({ 'X-Timestamp': ts, 'X-Signature': signature }),
    ]) {
      expect(verifyCallback({ rawBody: body, headers, secret, now })).toEqual({ ok: true });
    }
    expect(verifyCallback({ rawBody: body, headers: new Headers({ 'X-Timestamp': ts }), secret, now })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyCallback({ rawBody: body, headers: new Headers({ 'X-Timestamp': ts, 'X-Signature': '0'.repeat(64) }), secret, now })).toEqual({ ok: false, reason: 'bad_signature' });
  });
});
