import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';
import { createPlatform } from '../../src/main.js';
import { LISTENER_NAME, PostgresVersionFeed } from '../../src/store/postgres-version-feed.js';

const waitFor = (check: () => void, timeout = 5000) => vi.waitFor(check, { timeout, interval: 5 });

/**
 * PostgreSQL's cache versions held between announced changes: requests skip the read
 * while nothing happened, and never use versions the feed cannot vouch for.
 */
describe.each(storeKinds().filter((k) => k === 'postgres'))('cache versions heard, not read (%s)', (kind) => {
  let t: TestApp;
  let other: TestApp; // a second server on the same store
  let feed: PostgresVersionFeed;
  beforeAll(async () => {
    t = await startTestApp(kind);
    other = await startTestApp(kind, { store: t.store, seed: false });
    feed = t.platform.versionFeed!;
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const ffPrice = async (client: TestApp['client']) =>
    (await client.get('/products?limit=100')).body.data.products.find((p: any) => p.code === 'FF-100').price as number;
  const bumpPrice = (app: TestApp) =>
    app.platform.database.db.updateTable('catalog_prices').set((eb) => ({ price: eb('price', '+', 1) })).where('product_code', '=', 'FF-100').execute();

  it('listens once the HTTP app is ready, not before: a process that serves no requests (`topup worker`) opens no connection for it', async () => {
    const idle = await createPlatform(t.platform.config);
    try {
      const listeners = async () =>
        (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${LISTENER_NAME}`.execute(t.platform.database.db)).rows[0]!.n;
      const before = await listeners();
      idle.startBackground(); // what `topup worker` runs
      await new Promise((r) => setTimeout(r, 200));
      expect(idle.versionFeed!.listening).toBe(false);
      expect(await listeners()).toBe(before);
      await idle.app.ready();
      expect(idle.versionFeed!.listening).toBe(true);
      expect(await listeners()).toBe(before + 1);
    } finally {
      await idle.close();
    }
  });

  it('listens from start-up, and a request that touches no table reads no versions', async () => {
    expect(feed.listening).toBe(true);
    const r = await createReseller(t.platform, t.baseUrl);
    // The first requests read: the pool was used since the last read (this reseller made,
    // its key and catalog loaded into the caches).
    for (let i = 0; i < 3; i++) await ffPrice(r.client);
    const reads = feed.reads;
    for (let i = 0; i < 20; i++) await ffPrice(r.client);
    expect(feed.reads).toBe(reads);
  });

  it('a change through this server applies to its very next request, announced or not', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await ffPrice(r.client);
    await bumpPrice(t); // no wait: the pool's use alone makes the next request read
    expect(await ffPrice(r.client)).toBe(before + 1);
  });

  it('a change by another server or by plain SQL applies once announced; reads stop again after', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await ffPrice(r.client);
    await ffPrice(r.client);
    const [reads, heard] = [feed.reads, feed.notifications];
    await bumpPrice(other);
    await waitFor(() => expect(feed.notifications).toBe(heard + 1));
    expect(feed.fresh()).toBeNull();
    expect(await ffPrice(r.client)).toBe(before + 1);
    expect(feed.reads).toBe(reads + 1);
    // The catalog reloaded through the pool, so one more read; then none.
    await ffPrice(r.client);
    const settled = feed.reads;
    expect(await ffPrice(r.client)).toBe(before + 1);
    expect(feed.reads).toBe(settled);

    const sqlClient = new pg.Client({ connectionString: t.store.url });
    await sqlClient.connect();
    try {
      await sqlClient.query(`update catalog_prices set price = price + 1 where product_code = 'FF-100'`);
      await waitFor(() => expect(feed.notifications).toBe(heard + 2));
      expect(await ffPrice(r.client)).toBe(before + 2);
      // One transaction bumping the version many times is announced once.
      await sqlClient.query('begin');
      for (let i = 0; i < 5; i++) await sqlClient.query(`update catalog_prices set price = price + 1 where product_code = 'FF-100'`);
      await sqlClient.query('commit');
      await waitFor(() => expect(feed.notifications).toBe(heard + 3));
      expect(await ffPrice(r.client)).toBe(before + 7);
    } finally {
      await sqlClient.end();
    }
  });

  it('while the listening connection is down every request reads (no staleness), and it comes back', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    const before = await ffPrice(r.client);
    const admin = new pg.Client({ connectionString: t.store.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`,
        [LISTENER_NAME],
      );
      expect(killed.rowCount).toBe(2); // this server's listener and the other's
      await waitFor(() => expect(feed.listening).toBe(false));
      const heard = feed.notifications;
      await bumpPrice(other);
      expect(await ffPrice(r.client)).toBe(before + 1); // unannounced, and seen at once
      expect(feed.notifications).toBe(heard);
      const reads = feed.reads;
      await ffPrice(r.client);
      expect(feed.reads).toBe(reads + 1);
      // Back after its retry (1 s): reads stop again once one is held.
      await waitFor(() => expect(feed.listening).toBe(true));
      await ffPrice(r.client);
      await ffPrice(r.client);
      const held = feed.reads;
      await ffPrice(r.client);
      expect(feed.reads).toBe(held);
    } finally {
      await admin.end();
    }
  });
});

/** A TCP relay to PostgreSQL that can go silent: neither side hears the other, nothing closes. */
async function silenceableRelay(target: URL) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((down) => {
    const up = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [down, up]) {
      sockets.add(s);
      s.on('error', () => {});
    }
    down.on('data', (b) => silent || up.write(b));
    up.on('data', (b) => silent || down.write(b));
    down.on('close', () => up.destroy());
    up.on('close', () => down.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    silence: (on: boolean) => void (silent = on),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(storeKinds().filter((k) => k === 'postgres'))('cache-version listener health (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a listening connection that stops answering without closing is dropped by its heartbeat, then listened again', async () => {
    const relay = await silenceableRelay(new URL(t.store.url));
    const drops: string[] = [];
    const feed = new PostgresVersionFeed(t.platform.database.pool!, relay.url, {
      heartbeatMs: 50,
      retryMs: 20,
      openTimeoutMs: 1000,
      onDrop: (err) => drops.push((err as Error).message),
    });
    try {
      await feed.start();
      expect(feed.listening).toBe(true);
      await feed.read();
      expect(feed.fresh()).not.toBeNull();
      relay.silence(true);
      await waitFor(() => expect(feed.listening).toBe(false));
      expect(feed.fresh()).toBeNull();
      expect(drops[0]).toMatch(/stopped answering/);
      relay.silence(false);
      await waitFor(() => expect(feed.listening).toBe(true));
      // Back, but what it held was read before: it reads again before vouching.
      expect(feed.fresh()).toBeNull();
      await feed.read();
      expect(feed.fresh()).not.toBeNull();
    } finally {
      await feed.stop();
      await relay.close();
    }
  });

  it('does not vouch while a connection of this process is checked out, nor before it listens', async () => {
    const feed = new PostgresVersionFeed(t.platform.database.pool!, t.store.url);
    try {
      await feed.read();
      expect(feed.fresh()).toBeNull(); // not listening yet
      await feed.start();
      await feed.read();
      expect(feed.fresh()).toEqual(await feed.read());
      const client = await t.platform.database.pool!.connect();
      expect(feed.fresh()).toBeNull();
      client.release();
      expect(feed.fresh()).toBeNull(); // it may have committed a change: read again first
      await feed.read();
      expect(feed.fresh()).not.toBeNull();
    } finally {
      await feed.stop();
    }
    expect(feed.listening).toBe(false);
  });
});
