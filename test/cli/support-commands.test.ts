import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient } from '../support/dashboard.js';

const BIN = path.resolve('bin/topup.js');
/** Each command is a new node + tsx process (a second or more on a busy machine). */
const SLOW = { timeout: 180_000 };

// SQLite only: every command starts a process; the services behind them run on both stores in test/admin/*.
describe.each(['sqlite'] as const)('topup reseller-invite, supply-refresh, per-product sandbox (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  function topup(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const env = { ...process.env, NODE_ENV: 'test', DATA_DIR: t.store.dataDir, DATABASE_URL: t.store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent', REDIS_URL: '', PUBLIC_BASE_URL: 'https://desk.example' };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }
  const json = (r: { status: number | null; stdout: string; stderr: string }) => {
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const statuses = async () => Object.fromEntries((await t.client.get('/products?limit=100')).body.data.products.map((p: any) => [p.code, p.status]));

  it('reseller-invite prints a link once; the reseller accepts it in the dashboard; audited as cli', SLOW, async () => {
    const r = await t.platform.operator.resellers.create({ name: 'Phone Shop', email: 'phone-shop@example.com', approve: true }, 'cli');
    const out = json(await topup('reseller-invite', 'phone-shop@example.com', '--json'));
    expect(out).toMatchObject({ reseller_id: r.id, email: 'phone-shop@example.com', token: expect.stringMatching(/^inv_/) });
    expect(out.link).toBe(`https://desk.example/dashboard/accept-invitation?token=${out.token}`);
    const ok = await dashboardClient(t).post('/auth/accept-invitation', { token: out.token, password: 'phone shop password' });
    expect(ok.status, ok.text).toBe(200);
    const missing = await topup('reseller-invite', 'nobody@example.com');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no reseller');
    const { entries } = await t.platform.core.repos.audit.list({ targetId: r.id, action: 'reseller.invite', limit: 10, offset: 0 });
    expect(entries.map((e) => e.operatorId)).toEqual(['cli']);
  });

  it('sandbox switches one product, supply-refresh makes status follow at once', SLOW, async () => {
    const before = await statuses();
    const set = json(await topup('sandbox', 'out-of-stock', 'add', '--product', 'ML-86', '--json'));
    // The operator API's names (GET /admin/v1/sandbox), not the code's.
    expect(set.out_of_stock).toEqual(['ml-86']);
    expect(set.products).toContainEqual({ product_code: 'ML-86', sku: 'ml-86', out_of_stock: true, availability_check: 'ok' });
    const refreshed = json(await topup('supply-refresh', '--json'));
    expect(refreshed).toMatchObject({ availability_check_failed: false, routes_checked: 8 });
    expect(refreshed.routes.find((x: any) => x.product_code === 'ML-86').available).toBe(false);
    expect(await statuses()).toEqual({ ...before, 'ML-86': 'inactive' });
  });

  it('sandbox clears one product by SKU, and supply-refresh prints what it found', SLOW, async () => {
    const before = { ...(await statuses()), 'ML-86': 'active' };
    const human = await topup('sandbox', 'out-of-stock', 'remove', '--sku', 'ml-86');
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/ML-86\s+ml-86\s+out_of_stock=false availability_check=ok/);
    const text = await topup('supply-refresh');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('supply refreshed at');
    expect(await statuses()).toEqual(before);

  });

  it('sandbox refuses a switch without one target, and clearing what is not set', SLOW, async () => {
    const usage = await topup('sandbox', 'out-of-stock', 'add', '--sku', 'x', '--product', 'Y');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('usage: topup sandbox');
    const notSet = await topup('sandbox', 'broken-availability', 'remove', '--product', 'FF-100');
    expect(notSet.status).toBe(1);
    expect(notSet.stderr).toContain('not in');
  });
});
