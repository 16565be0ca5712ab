import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { sign } from '../../src/domain/signature.js';
import { recordSecret } from '../support/log-audit.js';
import { startServerProcess } from '../support/server-process.js';

const seconds = (text: string, directive: string) => {
  const m = new RegExp(`^\\s*${directive}\\s+(\\d+)s\\s*$`, 'm').exec(text);
  if (!m) throw new Error(`deploy/Caddyfile has no ${directive}`);
  return Number(m[1]);
};

describe('graceful stop of `topup serve` (SIGTERM): drain, then close, then the worker', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'topup-drain-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SHUTDOWN_DRAIN_MS: 5 s in production, none elsewhere (Ctrl-C stops at once); the proxy sees the 503 within it', () => {
    expect(parseConfig({ NODE_ENV: 'production', MASTER_KEY: 'ab'.repeat(32) }).shutdownDrainMs).toBe(5000);
    expect(parseConfig({ NODE_ENV: 'development' }).shutdownDrainMs).toBe(0);
    expect(parseConfig({ NODE_ENV: 'test' }).shutdownDrainMs).toBe(0);
    expect(parseConfig({ SHUTDOWN_DRAIN_MS: '250' }).shutdownDrainMs).toBe(250);
    expect(() => parseConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS must be an integer from 0 to 600000/);
    // Caddy takes a server out of rotation at its first failed check: one interval plus one
    // check's timeout after the drain began, at the latest. That must come before the close.
    const caddy = readFileSync('deploy/Caddyfile', 'utf8');
    const drainMs = parseConfig({ NODE_ENV: 'production', MASTER_KEY: 'ab'.repeat(32) }).shutdownDrainMs;
    expect((seconds(caddy, 'health_interval') + seconds(caddy, 'health_timeout')) * 1000).toBeLessThan(drainMs);
    expect(caddy).toMatch(/^\s*health_uri \/readyz\s*$/m);
    // compose's grace period leaves room for the drain and the close after it.
    const compose = load(readFileSync('compose.yaml', 'utf8')) as { 'x-topup': { stop_grace_period: string } };
    expect(Number(/^(\d+)s$/.exec(compose['x-topup'].stop_grace_period)![1]) * 1000).toBeGreaterThan(2 * drainMs);
  });

  it('answers /readyz 503 "draining" and still serves requests until the drain ends, then exits 0', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '5000' });
    const out = server.output();
    const base = /topup listening on (http:\/\/\S+)\/api\/v1/.exec(out)![1]!;
    const key = /API key:\s+(\S+)/.exec(out)![1]!;
    const secret = /API secret:\s+(\S+)/.exec(out)![1]!;
    recordSecret('drain test API secret', secret);
    const order = (ref: string) => {
      const body = JSON.stringify({ ref_id: ref, product_code: 'FF-100', target: '123456789' });
      const ts = String(Date.now());
      return fetch(`${base}/api/v1/order`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-timestamp': ts, 'x-signature': sign(secret, ts, body) } });
    };
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    server.child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      const check = () => /topup draining: /.test(server.output()) && resolve();
      server.child.stdout!.on('data', check);
      check();
    });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', failed: ['shutdown'], checks: { shutdown: 'draining' } });
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    // What the proxy still sends meanwhile is served as usual.
    const placed = await order('during-drain');
    expect(placed.status).toBe(200);
    expect(await exited).toBe(0);
  }, 60_000);
});
