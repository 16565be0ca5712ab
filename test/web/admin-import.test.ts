import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';
import { startFakeDigiflazz, type FakeDigiflazz } from '../support/fake-digiflazz.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, newContext, operatorCredentials, settled, signInOperator } from './admin-support.js';

/**
 * The console's import page (Supply → Import SKUs): pick synced Digiflazz SKUs, preview
 * the products and tier prices the margin rule gives, apply; and the Needs attention page
 * lists what a sync did when a cost reached a price, resolved from there.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('console: import supplier SKUs and attention items (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let fake: FakeDigiflazz;
  let creds: { email: string; password: string };
  const db = () => t.platform.database.db;
  beforeAll(async () => {
    ensureAdminBuilt();
    fake = await startFakeDigiflazz({
      products: [
        { buyer_sku_code: 'WB-1', product_name: 'FF 70 Diamonds', price: 9_000, unlimited_stock: true },
        { buyer_sku_code: 'WB-2', product_name: 'FF 140 Diamonds', price: 18_000, unlimited_stock: true, seller_product_status: false },
      ],
    });
    recordSecret('Digiflazz API key', fake.apiKey);
    t = await startTestApp(kind);
    browser = await launch();
    creds = await operatorCredentials(t);
    const op = t.platform.operator;
    await op.supply.addDigiflazz({ name: 'Digiflazz', username: fake.username, apiKey: fake.apiKey, baseUrl: fake.url }, 'cli');
    await op.priceSync.run('Digiflazz', 'cli');
    await op.marginRules.create('category', 'free-fire', { step: 500, tiers: { gold: { percentBp: 1000 }, platinum: { percentBp: 800 }, diamond: { percentBp: 500 } } }, 'cli');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('picks SKUs, previews prices and warnings, applies exactly that; the page passes the i18n and axe checks', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInOperator(page, creds);
    await page.goto('/admin/supply');
    await page.getByRole('link', { name: 'Import SKUs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import supplier SKUs' }).waitFor();
    await page.getByLabel('Pick WB-1').waitFor();
    await page.getByLabel('Category').selectOption('free-fire');
    await page.getByLabel('Catalog').selectOption({ label: 'Demo catalog' });
    await page.getByLabel('Pick WB-1').check();
    await page.getByLabel('Pick WB-2').check();
    await page.getByRole('button', { name: 'Preview (2)' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Inactive or out of stock').waitFor();
    const rowA = preview.getByRole('row').filter({ hasText: 'WB-1' });
    await expect.poll(() => rowA.textContent()).toContain('New product');
    const text = (await rowA.textContent()) ?? '';
    // 9 000 + 10 % = 9 900 → 10 000; + 8 % = 9 720 → 10 000; + 5 % = 9 450 → 9 500.
    expect(text.replace(/\s+/g, ' ')).toMatch(/10[.,]000.*10[.,]000.*9[.,]500/);
    await checkPage(page, 'import preview');
    // Previewing changed nothing.
    expect(await db().selectFrom('products').select('code').where('code', 'in', ['WB-1', 'WB-2']).execute()).toEqual([]);

    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: '2 SKU(s) imported.' }).waitFor();
    const prices = await db().selectFrom('catalog_prices').select(['product_code', 'tier', 'price']).where('product_code', '=', 'WB-1').orderBy('tier').execute();
    expect(prices.map((p) => [p.tier, Number(p.price)])).toEqual([['diamond', 9_500], ['gold', 10_000], ['platinum', 10_000]]);
    expect(await db().selectFrom('product_routes').select('supplier_sku').where('supplier_sku', 'in', ['WB-1', 'WB-2']).execute()).toHaveLength(2);

    // Once more: the same SKU is an update, never a second product.
    await page.getByLabel('Pick WB-2').uncheck();
    await page.getByRole('button', { name: 'Preview (1)' }).click();
    await preview.getByRole('row').filter({ hasText: 'WB-1' }).filter({ hasText: 'Update' }).waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  it('a sync that takes a route out of service shows on Needs attention and on the home page; resolving it clears it', async () => {
    fake.products.get('WB-1')!.price = 9_500; // diamond's price
    const report = await t.platform.operator.priceSync.run('Digiflazz', 'cli');
    expect(report.belowCost.map((b) => b.action)).toEqual(['route_disabled']);
    const ctx = await newContext(browser, t.origin, 'id');
    const page = await ctx.newPage();
    await signInOperator(page, creds, 'id');
    await page.goto('/admin/');
    await settled(page);
    await page.getByText('Harga dan rute untuk diperiksa').waitFor();
    await page.goto('/admin/attention');
    const row = page.getByRole('row').filter({ hasText: 'WB-1' });
    await row.getByText('route taken out of service').waitFor();
    await checkPage(page, 'attention items (id)');
    await row.getByRole('button', { name: 'Selesaikan' }).click();
    await page.getByText('Tidak ada yang perlu diperiksa.').waitFor();
    const items = await db().selectFrom('attention_items').select(['resolved_at', 'resolved_by']).execute();
    expect(items).toHaveLength(1);
    expect(items[0]!.resolved_at).not.toBeNull();
    await ctx.close();
  }, 180_000);
});
