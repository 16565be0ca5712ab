import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../support/app.js';
import { REDIS_URL, storeKinds } from '../support/stores.js';
import { closedPort } from '../support/ports.js';

const get = async (t: TestApp, path: string) => {
  const r = await fetch(`${t.origin}${path}`);
  return { status: r.status, body: await r.json() as any };
};

describe.each(storeKinds())('/livez and /readyz (%s)', (kind) => {
  const apps: TestApp[] = [];
  const start = async (opts: Parameters<typeof startTestApp>[1] = {}) => {
    const t = await startTestApp(kind, { seed: false, ...opts });
    apps.push(t);
    return t;
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close().catch(() => {})));
  });

  it('a healthy process is live and ready, and says what it checked', async () => {
    const t = await start();
    expect(await get(t, '/livez')).toEqual({ status: 200, body: { status: 'ok' } });
    // The old name keeps its old body (documented as an alias of /livez).
    expect(await get(t, '/healthz')).toEqual({ status: 200, body: { success: true, data: { status: 'ok' } } });
    expect(await get(t, '/readyz')).toEqual({
      status: 200, body: { status: 'ready', checks: { store: 'ok', migrations: 'ok', redis: 'not configured', worker: 'not in this process' } },
    });
  });

  it('not ready when the store is gone; still live', async () => {
    const t = await start();
    if (kind === 'sqlite') t.platform.database.sqlite!.close();
    else await t.store.drop(); // drop database … with (force): its connections end too
    const r = await get(t, '/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'not_ready', failed: expect.arrayContaining(['store', 'migrations']) });
    expect(r.body.checks.store).not.toBe('ok');
    expect((await get(t, '/livez')).status).toBe(200);
  });

  it('not ready when a migration is pending (an older store under this build)', async () => {
    const t = await start();
    await sql`delete from kysely_migration where name = '019_orders_ref_prefix'`.execute(t.platform.database.db);
    const r = await get(t, '/readyz');
    expect(r.status).toBe(503);
    expect(r.body.failed).toEqual(['migrations']);
    expect(r.body.checks.migrations).toBe('pending: 019_orders_ref_prefix');
    expect(r.body.checks.store).toBe('ok');
  });

  it('not ready when the in-process worker\'s heartbeat is stale', async () => {
    let skew = 0;
    const t = await start({ worker: true, overrides: { clock: { now: () => Date.now() + skew } } });
    expect((await get(t, '/readyz')).body.checks.worker).toBe('ok');
    // A stuck claim loop stops turning: here it is stopped, and time moves past two leases.
    await t.platform.runner.stop();
    skew = 60_000;
    const r = await get(t, '/readyz');
    expect(r.status).toBe(503);
    expect(r.body.failed).toEqual(['worker']);
    expect(r.body.checks.worker).toMatch(/^heartbeat \d+ ms old \(stale after 10000 ms\)$/);
  });

  it.runIf(REDIS_URL)('ready with Redis answering; with Redis on a port where none listens still ready, reported degraded (body, metric)', async () => {
    const up = await start({ env: { REDIS_URL } });
    const fine = await get(up, '/readyz');
    expect(fine.body.checks.redis).toBe('ok');
    expect(fine.body.degraded).toBeUndefined();
    const down = await start({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    // Every server loses Redis at once and serves on (rate limits per process): a proxy
    // that took them out of rotation would take the whole API down.
    const r = await get(down, '/readyz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', degraded: ['redis'] });
    expect(r.body.failed).toBeUndefined();
    expect(r.body.checks.redis).toMatch(/^not connected \(\w+\); rate limits are counted per process$/);
    const metrics = await down.platform.prometheus!.registry.metrics();
    expect(metrics).toContain('topup_dependency_degraded{dependency="redis"} 1');
    expect(await up.platform.prometheus!.registry.metrics()).toContain('topup_dependency_degraded{dependency="redis"} 0');
  });
});
