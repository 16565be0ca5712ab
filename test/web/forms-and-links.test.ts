import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount, type Account } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, ensureWebBuilt, launch, newContext, settled } from './browser.js';
import { operatorCredentials, signInOperator } from './admin-support.js';

/**
 * Issue 39: a form that loads its values is not editable until they arrive and saves what
 * the person typed after; every address the menus link to opens its page when loaded
 * directly.
 */
vi.setConfig({ testTimeout: 180_000 });

describe.skipIf(!browserAvailable).each(storeKinds())('forms and links in a browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let shop: Account;
  beforeAll(async () => {
    ensureWebBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    shop = await registerAccount(t, 'Forms Shop');
    await approve(t, shop.id);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signInShop = async (page: Page) => {
    await page.goto('/dashboard/sign-in');
    await page.getByLabel('Email').fill(shop.email);
    await page.getByLabel('Password').fill(shop.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/sign-in'));
  };

  it('the callback URL is read-only until its saved value loads, and Save stores what was typed after', async () => {
    const saved = 'https://93.184.216.34/saved-callback';
    expect((await shop.client.put('/me/callback-url', { callback_url: saved })).status).toBe(200);
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInShop(page);

    // The account's values (GET /me) are held back until the test lets them through.
    const held: Route[] = [];
    await page.route('**/dashboard/v1/me', (route) => {
      if (route.request().method() === 'GET') held.push(route);
      else void route.continue();
    });
    await page.goto('/dashboard/settings/callback-url');
    const field = page.getByLabel('Callback URL');
    await field.waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await field.isEditable()).toBe(false);
    expect(await page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(false);
    // Typing meets a field that takes nothing.
    await field.pressSequentially('https://typed-too-early.example', { timeout: 1_000 }).catch(() => undefined);

    const release = held.splice(0);
    await page.unroute('**/dashboard/v1/me');
    for (const r of release) await r.continue().catch(() => undefined);
    await expect.poll(() => field.inputValue()).toBe(saved);
    expect(await field.isEditable()).toBe(true);

    const typed = 'https://93.184.216.34/typed-after-load';
    await field.fill(typed);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Callback URL saved.').waitFor();
    expect((await shop.client.get('/me')).body.data.callback_url).toBe(typed);
    // The refetch after saving leaves what was typed on the screen.
    await settled(page);
    expect(await field.inputValue()).toBe(typed);
    await ctx.close();
  });

  /** Every href of the app's main navigation, section entries included. */
  const menuHrefs = (page: Page) =>
    page.getByRole('navigation', { name: 'Main navigation' }).locator('a[href]').evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);

  const opensEach = async (page: Page, hrefs: string[]) => {
    for (const href of hrefs) {
      await page.goto(href);
      const heading = page.getByRole('heading', { level: 1 }).first();
      await heading.waitFor();
      expect({ href, heading: await heading.textContent() }).not.toEqual({ href, heading: 'Not found' });
      await page.reload();
      await heading.waitFor();
      expect({ href, heading: await heading.textContent() }).not.toEqual({ href, heading: 'Not found' });
    }
  };

  it('every dashboard menu address opens its page when loaded directly or reloaded', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInShop(page);
    await expect.poll(() => menuHrefs(page)).toEqual(expect.arrayContaining(['/dashboard/settings', '/dashboard/settings/api-keys', '/dashboard/orders']));
    const hrefs = await menuHrefs(page);
    await opensEach(page, hrefs);
    await page.goto('/dashboard/settings');
    await page.waitForURL('**/dashboard/settings/api-keys');
    await ctx.close();
  });

  it('every console menu address opens its page when loaded directly or reloaded', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, await operatorCredentials(t));
    await expect.poll(() => menuHrefs(page)).toEqual(expect.arrayContaining(['/admin/catalog', '/admin/catalog/categories', '/admin/supply']));
    const hrefs = await menuHrefs(page);
    await opensEach(page, hrefs);
    await page.goto('/admin/catalog');
    await page.waitForURL('**/admin/catalog/categories');
    await ctx.close();
  });
});
