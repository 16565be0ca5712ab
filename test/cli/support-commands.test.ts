import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, storeEnv, topup } from '../support/cli.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient } from '../support/dashboard.js';

/** Each command is a new process (a second or more on a busy machine). */
const SLOW = { timeout: 180_000 };

// SQLite only: every command starts a process; the services behind them run on both stores in test/admin/*.
describe.each(['sqlite'] as const)('topup reseller-invite, supply-refresh, per-product sandbox (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  /** The real CLI as an operator runs it, on the test's store. */
  const run = (...args: string[]) => topup(storeEnv(t.store, { PUBLIC_BASE_URL: 'https://desk.example' }), ...args);
  const json = jsonOf;

  const statuses = async () => Object.fromEntries((await t.client.get('/products?limit=100')).body.data.products.map((p: any) => [p.code, p.status]));

  it('reseller-invite prints a link once; the reseller accepts it in the dashboard; audited as cli', SLOW, async () => {
    const r = await t.platform.operator.resellers.create({ name: 'Phone Shop', email: 'phone-shop@example.com', approve: true }, 'cli');
    const out = json(await run('reseller-invite', 'phone-shop@example.com', '--json'));
    expect(out).toMatchObject({ reseller_id: r.id, email: 'phone-shop@example.com', token: expect.stringMatching(/^inv_/) });
    expect(out.link).toBe(`https://desk.example/dashboard/accept-invitation?token=${out.token}`);
    const ok = await dashboardClient(t).post('/auth/accept-invitation', { token: out.token, password: 'phone shop password' });
    expect(ok.status, ok.text).toBe(200);
    const missing = await run('reseller-invite', 'nobody@example.com');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no reseller');
    const { entries } = await t.platform.core.repos.audit.list({ targetId: r.id, action: 'reseller.invite', limit: 10, offset: 0 });
    expect(entries.map((e) => e.operatorId)).toEqual(['cli']);
  });

  it('sandbox switches one product, supply-refresh makes status follow at once', SLOW, async () => {
    const before = await statuses();
    const set = json(await run('sandbox', 'out-of-stock', 'add', '--product', 'ML-86', '--json'));
    // The operator API's names (GET /admin/v1/sandbox), not the code's.
    expect(set.out_of_stock).toEqual(['ml-86']);
    expect(set.products).toContainEqual({ product_code: 'ML-86', sku: 'ml-86', out_of_stock: true, availability_check: 'ok' });
    const refreshed = json(await run('supply-refresh', '--json'));
    expect(refreshed).toMatchObject({ availability_check_failed: false, routes_checked: 8 });
    expect(refreshed.routes.find((x: any) => x.product_code === 'ML-86').available).toBe(false);
    expect(await statuses()).toEqual({ ...before, 'ML-86': 'inactive' });
  });

  it('sandbox clears one product by SKU, and supply-refresh prints what it found', SLOW, async () => {
    const before = { ...(await statuses()), 'ML-86': 'active' };
    const human = await run('sandbox', 'out-of-stock', 'remove', '--sku', 'ml-86');
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/ML-86\s+ml-86\s+out_of_stock=false availability_check=ok/);
    const text = await run('supply-refresh');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('supply refreshed at');
    expect(await statuses()).toEqual(before);

  });

  it('sandbox refuses a switch without one target, and clearing what is not set', SLOW, async () => {
    const usage = await run('sandbox', 'out-of-stock', 'add', '--sku', 'x', '--product', 'Y');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('usage: topup sandbox');
    const notSet = await run('sandbox', 'broken-availability', 'remove', '--product', 'FF-100');
    expect(notSet.status).toBe(1);
    expect(notSet.stderr).toContain('not in');
  });
});
