import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ResellerClient } from '../support/client.js';
import { JsonClient } from '../support/json-client.js';

const BIN = path.resolve('bin/topup.js');

/** Starts `topup serve` as a new user would and collects its output until it listens. */
function serve(dataDir: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', METRICS_PORT: 'off', NODE_ENV: 'development', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', MASTER_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (/topup listening on \S+/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

describe('quick start, as a new user runs it', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('serve creates the data folder, seeds the demo, prints credentials once, and the printed example places an order', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'topup-qs-')), 'data');
    dirs.push(path.dirname(dataDir));
    const { child, output } = await serve(dataDir);
    children.push(child);
    expect(existsSync(path.join(dataDir, 'topup.sqlite'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'master.key'))).toBe(true);
    const baseUrl = /TOPUP_BASE_URL=(\S+)/.exec(output)![1]!;
    const apiKey = /TOPUP_API_KEY=(\S+)/.exec(output)![1]!;
    const apiSecret = /TOPUP_API_SECRET=(\S+)/.exec(output)![1]!;
    const body = /BODY='([^']+)'/.exec(output)![1]!;
    const client = new ResellerClient(baseUrl, apiKey, apiSecret);
    const placed = await client.post('/order', body);
    expect(placed.status, placed.text).toBe(200);
    const ref = JSON.parse(body).ref_id;
    // The sandbox settles it after its default delay (200 ms), through the worker in serve.
    await vi.waitFor(async () => {
      const status = await client.get(`/order-status?ref_id=${ref}`);
      expect(status.status).toBe(200);
      expect(status.body.data.status).toBe('success');
    }, { timeout: 15_000, interval: 100 });

    // The first operator is printed once and signs in to the operator API.
    const opEmail = /Email:\s+(\S+)/.exec(output)![1]!;
    const opPassword = /Password:\s+(\S+)/.exec(output)![1]!;
    const origin = new URL(baseUrl).origin;
    const operator = new JsonClient(`${origin}/admin/v1`);
    expect((await operator.signIn(opEmail, opPassword)).status).toBe(200);
    expect((await operator.get('/me')).body.data.email).toBe(opEmail);

    // The web UI the README promises (built by `npm ci`'s prepare): / leads to the dashboard.
    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    expect(root.headers.get('location')).toBe('/dashboard/');
    const page = await fetch(`${origin}/dashboard/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root"><\/div>/);

    // Operator commands: callback URL (SSRF rules), resend and the delivery log by ORD- code.
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const cliEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', NODE_ENV: 'production', MASTER_KEY: readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim() };
    const refused = spawnSync(process.execPath, [BIN, 'callback-url', 'demo-reseller@example.com', 'http://169.254.169.254/x'], { env: cliEnv, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/private or reserved/);
    const okUrl = spawnSync(process.execPath, [BIN, 'callback-url', 'demo-reseller@example.com', 'https://93.184.216.34/cb'], { env: cliEnv, encoding: 'utf8' });
    expect(okUrl.status, okUrl.stderr).toBe(0);
    const code = placed.body.data.order_code;
    const resend = spawnSync(process.execPath, [BIN, 'resend-callback', code, '--json'], { env: cliEnv, encoding: 'utf8' });
    expect(JSON.parse(resend.stdout)).toMatchObject({ order_id: placed.body.data.order_id, round: 2 });
    const log = spawnSync(process.execPath, [BIN, 'callback-log', code], { env: cliEnv, encoding: 'utf8' });
    expect(log.status, log.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(log.stdout))).toBe(true);

    // A restart on the same data folder keeps everything and prints no secret again. Its
    // sandbox takes ten minutes, so an order placed now is still processing when it stops.
    const again = await serve(dataDir, { SANDBOX_DELAY_MS: '600000' });
    children.push(again.child);
    expect(again.output).not.toContain(apiSecret);
    expect(again.output).not.toContain(opPassword);
    expect(again.output).not.toContain('First operator created');
    const url2 = /topup listening on (\S+)/.exec(again.output)![1]!;
    const client2 = new ResellerClient(url2, apiKey, apiSecret);
    const status2 = await client2.get(`/order-status?ref_id=${ref}`);
    expect(status2.body.data.order_id).toBe(placed.body.data.order_id);
    const pendingBody = JSON.stringify({ ...JSON.parse(body), ref_id: `${ref}-pending` });
    const pending = await client2.post('/order', pendingBody);
    expect(pending.status, pending.text).toBe(200);
    again.child.kill('SIGTERM');
    await new Promise((r) => again.child.once('exit', r));
    const store = new SQLite(path.join(dataDir, 'topup.sqlite'), { readonly: true });
    expect((store.prepare('select status from orders where id = ?').get(pending.body.data.order_id) as { status: string }).status).toBe('processing');
    store.close();
    // No callback of an order still processing can be resent.
    const refusedResend = spawnSync(process.execPath, [BIN, 'resend-callback', pending.body.data.order_code, '--json'], { env: cliEnv, encoding: 'utf8' });
    expect(refusedResend.status).toBe(1);
  }, 120_000); // two server starts and several CLI processes; slow on a loaded machine

  it('migrate runs on its own and is idempotent; bad config lists every problem', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'topup-mig-'));
    dirs.push(dataDir);
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    const first = spawnSync(process.execPath, [BIN, 'migrate'], { env, encoding: 'utf8' });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('001_initial');
    const second = spawnSync(process.execPath, [BIN, 'migrate'], { env, encoding: 'utf8' });
    expect(second.stdout).toContain('up to date');
    const sandbox = spawnSync(process.execPath, [BIN, 'sandbox', '--mode', 'maintenance', '--out-of-stock', 'ff-100,ml-86', '--json'], { env, encoding: 'utf8' });
    expect(sandbox.status, sandbox.stderr).toBe(0);
    expect(JSON.parse(sandbox.stdout)).toMatchObject({ mode: 'maintenance', outOfStock: ['ff-100', 'ml-86'], availabilityBroken: false, brokenAvailability: [] });
    expect(spawnSync(process.execPath, [BIN, 'sandbox', '--mode', 'sideways'], { env, encoding: 'utf8' }).status).toBe(2);
    const bad = spawnSync(process.execPath, [BIN, 'migrate'], { env: { ...env, PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'production', MASTER_KEY: '' }, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('PORT');
    expect(bad.stderr).toContain('DATABASE_URL');
    expect(bad.stderr).toContain('MASTER_KEY');
  }, 120_000);
});
