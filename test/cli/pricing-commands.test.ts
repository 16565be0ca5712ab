import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { recordSecret } from '../support/log-audit.js';
import { startFakeDigiflazz, type FakeDigiflazz } from '../support/fake-digiflazz.js';
import { jsonOf, storeEnv, topup as runTopup } from '../support/cli.js';

/** Each command is a new node + tsx process (a second or more on a busy machine). */
const SLOW = { timeout: 180_000 };

// SQLite only: every command starts a process; the services behind them run on both stores in test/fulfilment/digiflazz-pricing.test.ts.
describe.each(['sqlite'] as const)('topup supplier-import and supplier-below-cost (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeDigiflazz;
  beforeAll(async () => {
    fake = await startFakeDigiflazz({ products: [{ buyer_sku_code: 'CLI-1', product_name: 'FF 50 Diamonds', price: 7_000, unlimited_stock: true }] });
    recordSecret('Digiflazz API key', fake.apiKey);
    t = await startTestApp(kind);
    await t.platform.operator.supply.addDigiflazz({ name: 'Digiflazz', username: fake.username, apiKey: fake.apiKey, baseUrl: fake.url }, 'cli');
    await t.platform.operator.priceSync.run('Digiflazz', 'cli');
    await t.platform.operator.marginRules.create('category', 'free-fire', { step: 100, tiers: { gold: { percentBp: 1000 } } }, 'cli');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const topup = (...args: string[]) => runTopup(storeEnv(t.store), ...args);
  const json = jsonOf;
  const product = () => t.platform.database.db.selectFrom('products').select('code').where('code', '=', 'CLI-1').execute();

  it('previews by default (nothing changes), imports with --apply, and again updates rather than duplicates', SLOW, async () => {
    const preview = json(await topup('supplier-import', 'Digiflazz', '--sku', 'CLI-1', '--category', 'free-fire', '--catalog', 'Demo catalog', '--json'));
    expect(preview).toMatchObject({ applied: false, lines: [{ sku: 'CLI-1', action: 'create', cost: 7_000, prices: { gold: 7_700, platinum: null }, rule: { scope: 'category' } }] });
    expect(await product()).toEqual([]);
    const human = await topup('supplier-import', 'Digiflazz', '--sku', 'CLI-1', '--category', 'free-fire', '--catalog', 'Demo catalog', '--apply');
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toContain('CLI-1: create product CLI-1 "FF 50 Diamonds" (free-fire); route cost 7000');
    expect(human.stdout).toContain('applied');
    expect(await product()).toHaveLength(1);
    const again = json(await topup('supplier-import', 'Digiflazz', '--sku', 'CLI-1', '--category', 'free-fire', '--catalog', 'Demo catalog', '--apply', '--json'));
    expect(again).toMatchObject({ applied: true, lines: [{ action: 'update' }] });
    expect(again.lines[0].pricesBefore).toMatchObject({ gold: 7_700 });
    expect(await product()).toHaveLength(1);
    const { entries } = await t.platform.core.repos.audit.list({ action: 'supplier.import', limit: 10, offset: 0 });
    expect(entries.map((e) => e.operatorId)).toEqual(['cli', 'cli']);
    const usage = await topup('supplier-import', 'Digiflazz', '--sku', 'CLI-1');
    expect(usage.status).not.toBe(0);
    expect(usage.stderr).toContain('usage: topup supplier-import');
  });

  it('supplier-below-cost sets the policy (audited); an unknown one is refused', SLOW, async () => {
    expect(json(await topup('supplier-below-cost', 'Digiflazz', 'reprice', '--json'))).toMatchObject({ name: 'Digiflazz', below_cost_policy: 'reprice' });
    const bad = await topup('supplier-below-cost', 'Digiflazz', 'sometimes');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('below_cost_policy must be one of reprice, disable_route');
  });
});
