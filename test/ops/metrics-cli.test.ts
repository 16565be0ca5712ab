import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { load } from 'js-yaml';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';
import { createTestStore, type TestStore } from '../support/stores.js';

describe('topup serve and worker: the metrics listener', () => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.drop();
  });

  it('opens on METRICS_PORT and says where; /metrics is not on the API port', async () => {
    const store = await createTestStore('sqlite');
    stores.push(store);
    const { child, output } = await startServerProcess({ DATA_DIR: store.dataDir, DATABASE_URL: store.url, METRICS_PORT: '0' });
    try {
      const url = /topup metrics on (\S+)/.exec(output())?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const text = await (await fetch(url!)).text();
      expect(text).toContain('topup_http_request_duration_seconds');
      const api = /topup listening on (http:\/\/\S+?)\/api\/v1/.exec(output())![1]!;
      expect((await fetch(`${api}/metrics`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);

  it('`topup worker` has no API port: its probes are on the metrics listener, and compose.yaml\'s healthcheck uses them', async () => {
    const store = await createTestStore('sqlite');
    stores.push(store);
    const { child, output } = await startServerProcess({ DATA_DIR: store.dataDir, DATABASE_URL: store.url, METRICS_PORT: '0' }, 'worker');
    const origin = /topup metrics on (http:\/\/\S+)\/metrics/.exec(output())![1]!;
    const port = new URL(origin).port;
    // compose.yaml's own check, run as Docker runs it: in the worker's environment.
    const compose = load(readFileSync('compose.yaml', 'utf8')) as { services: { worker: { healthcheck: { test: string[] } } } };
    const [kind, cmd, ...args] = compose.services.worker.healthcheck.test;
    expect([kind, cmd]).toEqual(['CMD', 'node']);
    const healthcheck = () => spawnSync(process.execPath, args, { env: { ...process.env, METRICS_PORT: port }, encoding: 'utf8', timeout: 30_000 }).status;
    try {
      expect((await fetch(`${origin}/livez`)).status).toBe(200);
      const ready = await fetch(`${origin}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { store: 'ok', migrations: 'ok', redis: 'not configured' } });
      expect(healthcheck()).toBe(0);
      expect((await fetch(`${origin}/api/v1/products`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    expect(healthcheck()).toBe(1);
  }, 90_000);

  it('a taken METRICS_PORT stops the start with one line naming it', async () => {
    const store = await createTestStore('sqlite');
    stores.push(store);
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const r = spawnSync(process.execPath, [path.resolve('bin/topup.js'), 'serve'], {
        env: { ...process.env, PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'error', REDIS_URL: '', DATA_DIR: store.dataDir, DATABASE_URL: store.url, METRICS_PORT: String(port) },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`topup: cannot listen for metrics on 127.0.0.1:${port}: the port is already in use`);
      expect(r.stderr).toContain('METRICS_PORT');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  }, 90_000);
});
