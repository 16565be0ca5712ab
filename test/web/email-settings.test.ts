import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { registerAccount, type Account } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';
import { operatorCredentials, signInOperator } from './admin-support.js';
import { browserAvailable, checkPage, ensureWebBuilt, launch, newContext, screenshot, watch } from './browser.js';

/**
 * Issue 40: each person chooses the language of their email and turns the optional
 * messages off, in the dashboard (Settings → Email) and in the console (Account); what the
 * page saves is what the API then answers.
 */
vi.setConfig({ testTimeout: 180_000 });

describe.skipIf(!browserAvailable).each(storeKinds())('email settings in a browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let shop: Account;

  beforeAll(async () => {
    ensureWebBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    shop = await registerAccount(t, 'Email shop');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a shop on a phone turns the callback digest off and chooses Indonesian', async () => {
    const ctx = await newContext(browser, t.origin, { phone: true });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto('/dashboard/sign-in');
    await page.getByLabel('Email').fill(shop.email);
    await page.getByLabel('Password').fill(shop.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/sign-in'));
    await page.goto('/dashboard/settings/email');
    await checkPage(page, 'dashboard email settings');
    const digest = page.getByRole('checkbox', { name: /daily summary of the callbacks/ });
    await expect.poll(() => digest.isChecked()).toBe(true);
    await digest.click();
    await expect.poll(async () => (await shop.client.get('/me/notifications')).body.data.enabled).toEqual({ callback_failed: true, callback_digest: false, deposit_credited: true, low_balance: true });
    await page.getByRole('textbox', { name: 'Language of your email' }).click();
    await page.getByRole('option', { name: 'Bahasa Indonesia' }).click();
    await expect.poll(async () => (await shop.client.get('/me/language')).body.data.language).toBe('id');
    if (kind === 'sqlite') await screenshot(page, 'dashboard-email-settings-phone');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('an operator turns alerts off in the console, in Indonesian', async () => {
    const creds = await operatorCredentials(t);
    const ctx = await newContext(browser, t.origin, { lang: 'id' });
    const page = await ctx.newPage();
    const problems = watch(page);
    await signInOperator(page, creds, 'id');
    await page.goto('/admin/account');
    await checkPage(page, 'console account with email settings');
    const alerts = page.getByRole('checkbox', { name: /^Peringatan:/ });
    await expect.poll(() => alerts.isChecked()).toBe(true);
    await alerts.click();
    const muted = async () => (await t.platform.database.db.selectFrom('operators').select('muted_messages').where('email', '=', creds.email).executeTakeFirstOrThrow()).muted_messages;
    await expect.poll(muted).toBe('["operator_alert"]');
    if (kind === 'sqlite') await screenshot(page, 'admin-account-email-settings');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
