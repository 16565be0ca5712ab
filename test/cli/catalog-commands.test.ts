import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeEnv, topupSync } from '../support/cli.js';
import { startTestApp, type TestApp } from '../support/app.js';


/** The real `topup` CLI as a child process, on the test app's store (SQLite: several processes may share the file). */
// Each command starts a process and the platform (seconds on a busy machine), hence the long timeout.
describe('catalog CLI commands (sqlite)', { timeout: 180_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  const topup = (...args: string[]) => {
    const r = topupSync(storeEnv(t.store, { NODE_ENV: 'production' }), ...args);
    return { ...r, json: () => JSON.parse(r.stdout) };
  };

  it('sets up a game from the shell through the services; the reseller sees it over API v1; every change audited as "cli"', () => {
    const form = JSON.stringify([{ name: 'uid', label: 'UID', role: 'account_id', type: 'text' }]);
    const cat = topup('category-add', 'honkai', 'Honkai Star Rail', '--type', 'game', '--form', form, '--checker', 'false', '--json');
    expect(cat.status, cat.stderr).toBe(0);
    expect(cat.json()).toMatchObject({ slug: 'honkai', type: 'game', form: [{ name: 'uid', required: true }] });

    const prod = topup('product-add', 'HSR-60', '60 Oneiric Shards', '--category', 'honkai', '--limit-gated', 'true', '--json');
    expect(prod.status, prod.stderr).toBe(0);
    expect(prod.json()).toMatchObject({ code: 'HSR-60', kind: 'instant', limitGated: true, enabled: true });

    const cat2 = topup('catalog-add', 'CLI catalog', '--json');
    expect(cat2.status, cat2.stderr).toBe(0);
    const price = topup('price-set', 'CLI catalog', 'HSR-60', 'gold', '16000', '--json');
    expect(price.status, price.stderr).toBe(0);
    expect(price.json()).toMatchObject({ product_code: 'HSR-60', tier: 'gold', price: 16000 });
    const assign = topup('catalog-assign', 'CLI catalog', 'demo-reseller@example.com', '--json');
    expect(assign.status, assign.stderr).toBe(0);
    expect(assign.json().catalog_ids).toContain(cat2.json().id);

    const sup = topup('supplier-add-sandbox', 'sandbox-cli', '--json');
    expect(sup.status, sup.stderr).toBe(0);
    expect(sup.json()).toMatchObject({ name: 'sandbox-cli', adapter: 'sandbox' });
    const route = topup('route-add', 'HSR-60', 'sandbox-cli', 'hsr-60', '1', '14000');
    expect(route.status, route.stderr).toBe(0);
  });

  it('the reseller sees the new product at the CLI price, and the audit log names "cli"', async () => {
    const products = (await t.client.get('/products?category_slug=honkai')).body.data.products;
    expect(products).toEqual([expect.objectContaining({ code: 'HSR-60', price: 16000, status: 'active', category: 'Honkai Star Rail' })]);
    const rows = await t.platform.database.db.selectFrom('audit_log').select(['operator_id', 'action']).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['category.create', 'product.create', 'catalog.create', 'catalog.prices.set', 'reseller.catalog.assign', 'supplier.create', 'route.create']);
    expect(new Set(rows.map((r) => r.operator_id))).toEqual(new Set(['cli']));
  });

  it('refuses bad input with a message (exit 1) and usage mistakes with the usage (exit 2), changing nothing', async () => {
    const count = async () => Number((await t.platform.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const badForm = topup('category-add', 'bad-game', 'Bad', '--type', 'game', '--form', '[]');
    expect(badForm.status).toBe(1);
    expect(badForm.stderr).toMatch(/exactly one field with role account_id/);
    const badPrice = topup('price-set', 'CLI catalog', 'HSR-60', 'gold', '16000.5');
    expect(badPrice.status).toBe(1);
    expect(badPrice.stderr).toMatch(/decimal/);
    const dup = topup('catalog-add', 'CLI catalog');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    expect(topup('category-add', 'x').status).toBe(2);
    expect(topup('product-add', 'A', 'B', '--category', 'free-fire', '--limit-gated', 'maybe').status).toBe(2);
    expect(topup('category-add', 'x', 'X', '--type', 'game', '--form', '{oops').stderr).toMatch(/--form is not JSON/);
    expect(await count()).toBe(before);
  });
});
