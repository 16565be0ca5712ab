import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, newContext, operatorCredentials, screenshot, settled, signInOperator } from './admin-support.js';

/**
 * The console's Reports page (issue 38): filters kept in the URL, totals, a chart and a
 * table, the CSV of the same view downloaded and read back; English and Indonesian, phone
 * and desktop, axe-clean.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console: profit report (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let creds: { email: string; password: string };
  const day = Date.UTC(2026, 10, 18, 5, 0); // 2026-11-18 12:00 in Jakarta
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    const repo = new FulfilmentRepo(t.platform.database.db, t.platform.database.dialect);
    for (const [i, cost] of [12_000, 13_000, 14_000].entries()) {
      const r = await t.client.post('/order', { ref_id: uniqueRef('rep'), product_code: 'FF-100', target: '123456789' });
      expect(r.status, r.text).toBe(200);
      await repo.succeed(r.body.data.order_id, `SN-${i}`, day + i * 86_400_000, undefined, { cost });
    }
    creds = await operatorCredentials(t);
    const ctx = await newContext(browser, t.origin);
    page = await ctx.newPage();
    await signInOperator(page, creds);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('filters through the URL, shows totals, chart and table, and downloads the same view as CSV', async () => {
    await page.goto('/admin/reports');
    await settled(page);
    await page.getByRole('heading', { name: 'Profit and loss' }).waitFor();
    await page.getByLabel('From').fill('2026-11-17');
    await page.getByLabel('To').fill('2026-11-20');
    await page.getByLabel('Break down by').selectOption('product');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/from=2026-11-17&to=2026-11-20&granularity=day&group_by=product/);
    await settled(page);
    const prices = await t.platform.database.db.selectFrom('orders').select('price').execute();
    const revenue = prices.reduce((s, p) => s + Number(p.price), 0);
    const fmt = (n: number) => `Rp ${n.toLocaleString('en-US')}`.replace(/\u00a0/g, ' ');
    const text = (s: string) => s.replace(/\s+/g, ' ');
    expect(text(await page.getByTestId('total-revenue').innerText())).toContain(fmt(revenue).replace('Rp ', ''));
    expect(text(await page.getByTestId('total-cost').innerText())).toContain('39,000');
    expect(await page.getByTestId('profit-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await page.getByRole('row').filter({ hasText: 'FF-100' }).waitFor();
    await checkPage(page, 'reports (en)');
    if (kind === 'sqlite') await screenshot(page, 'admin-reports');

    // The URL alone restores the view (a shared link, a reload).
    await page.goto('/admin/reports?from=2026-11-17&to=2026-11-20&granularity=week&group_by=tier');
    await settled(page);
    expect(await page.getByLabel('Period').inputValue()).toBe('week');
    await page.getByRole('row').filter({ hasText: 'gold' }).waitFor();

    // The CSV link carries the same filters; the file is read back.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('profit-2026-11-17-2026-11-20-week-tier.csv');
    const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n').map((l) => l.split(','));
    expect(lines[0]!.slice(0, 7)).toEqual(['period_start', 'group_by', 'key', 'name', 'delivered', 'revenue', 'cost']);
    // Weeks from Monday 2026-11-16, cut to the range: 17th (18th and 19th delivered), then nothing after the 22nd.
    expect(lines.slice(1)).toEqual([['2026-11-17', 'tier', 'gold', 'gold', '3', String(revenue), '39000', '0', String(revenue - 39_000), expect.any(String), String(revenue - 39_000), '0', '0', '0', '0', '0']]);
  });

  it('reads in Indonesian on a phone', async () => {
    const ctx = await newContext(browser, t.origin, 'id');
    const phone = await ctx.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await signInOperator(phone, creds, 'id');
    await phone.goto('/admin/reports?from=2026-11-17&to=2026-11-20&group_by=supplier');
    await settled(phone);
    await phone.getByRole('heading', { name: 'Laba rugi' }).waitFor();
    await phone.getByText('Margin kotor').first().waitFor();
    await checkPage(phone, 'reports (id, phone)');
    if (kind === 'sqlite') await screenshot(phone, 'admin-reports-phone-id');
    await ctx.close();
  });
});
