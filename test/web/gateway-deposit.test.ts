import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount } from '../support/dashboard.js';
import { startFakeMidtrans, type FakeMidtrans } from '../support/fake-midtrans.js';
import { operatorClient } from '../support/json-client.js';
import { recordSecret } from '../support/log-audit.js';
import { storeKinds } from '../support/stores.js';
import { signInOperator, operatorCredentials, newContext as adminContext } from './admin-support.js';
import { browserAvailable, checkPage, ensureWebBuilt, launch, newContext, screenshot, settled, watch } from './browser.js';

/**
 * Issue 36's gateway proof in Chromium: a shop picks a method, sees the fee and the total,
 * pays on the (fake) Midtrans page, comes back to the return page, which shows the credit,
 * and its wallet shows the new balance. Both languages, phone and desktop, axe clean.
 */
vi.setConfig({ testTimeout: 300_000 });

describe.skipIf(!browserAvailable).each(storeKinds())('gateway deposit in a browser (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeMidtrans;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuilt();
    fake = await startFakeMidtrans();
    recordSecret('midtrans server key', fake.serverKey);
    t = await startTestApp(kind, { env: { MIDTRANS_APP_URL: fake.url, MIDTRANS_API_URL: fake.url } });
    fake.notifyUrl = `${t.origin}/hooks/midtrans`;
    const op = await operatorClient(t);
    expect((await op.put('/payment-gateway', { server_key: fake.serverKey })).status).toBe(200);
    expect((await op.put('/payment-methods/qris', { enabled: true, min_amount: 10000, max_amount: 5000000, fee_bps: 70, fee_mode: 'pass' })).status).toBe(200);
    expect((await op.put('/payment-methods/bca_va', { enabled: true, min_amount: 10000, max_amount: 5000000, fee_fixed: 4000, fee_mode: 'absorb' })).status).toBe(200);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  for (const view of [{ lang: 'en', phone: false }, { lang: 'id', phone: true }] as const) {
    it(`a shop pays by gateway and sees the credit (${view.lang}, ${view.phone ? 'phone' : 'desktop'})`, async () => {
      const shop = await registerAccount(t);
      await approve(t, shop.id);
      const ctx = await newContext(browser, t.origin, view);
      const page = await ctx.newPage();
      const problems = watch(page);
      await page.goto('/dashboard/sign-in');
      await page.locator('input[name="email"]').fill(shop.email);
      await page.locator('input[name="password"]').fill(shop.password);
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((u) => !u.pathname.endsWith('/sign-in'));

      await page.goto('/dashboard/wallet/top-up?channel=gateway');
      await settled(page);
      await page.locator('input[name="amount"]').fill('100000');
      await page.getByRole('radio', { name: /QRIS/ }).check();
      await expect.poll(() => page.getByTestId('gateway-total').textContent()).toMatch(/100[.,]700/);
      await checkPage(page, `gateway pay ${view.lang}`);
      if (kind === 'sqlite') await screenshot(page, `gateway-pay-${view.lang}-${view.phone ? 'phone' : 'desktop'}`);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL((u) => u.href.startsWith(fake.url));
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/dashboard\/wallet\/deposits\/DEP-/);
      await expect.poll(() => page.getByTestId('deposit-state').textContent(), { timeout: 15_000 }).toBe(view.lang === 'en' ? 'Paid' : 'Lunas');
      await checkPage(page, `gateway return ${view.lang}`);
      if (kind === 'sqlite') await screenshot(page, `gateway-return-${view.lang}-${view.phone ? 'phone' : 'desktop'}`);

      await page.goto('/dashboard/wallet');
      await settled(page);
      await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/100[.,]000/);
      expect(problems).toEqual([]);
      await ctx.close();
    });
  }

  it('the console shows the payment with its notifications, and the settings (axe clean)', async () => {
    const creds = await operatorCredentials(t);
    const ctx = await adminContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, creds);
    await page.goto('/admin/deposits');
    await settled(page);
    await page.getByRole('button', { name: /^Notifications DEP-/ }).first().click();
    await expect.poll(() => page.getByText('Outcome: credited').count()).toBeGreaterThan(0);
    // axe reads colours as drawn: wait for the dialog's opening transition to end (full opacity).
    await expect.poll(() => page.getByRole('dialog').evaluate((el) => {
      let o = 1;
      for (let n: Element | null = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
      return o;
    })).toBe(1);
    await checkPage(page, 'console gateway payment');
    await page.keyboard.press('Escape');
    await page.goto('/admin/payment-gateway');
    await settled(page);
    await expect.poll(() => page.getByTestId('notification-url').textContent()).toMatch(/\/hooks\/midtrans$/);
    await checkPage(page, 'console gateway settings');
    if (kind === 'sqlite') await screenshot(page, 'admin-payment-gateway-settings');
    await ctx.close();
  });
});
