import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, waitForTerminal, type TestApp } from '../support/app.js';
import { ResellerClient } from '../support/client.js';
import { accountState, dashboardClient } from '../support/dashboard.js';
import { operatorClient } from '../support/json-client.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureWebBuilt, INITIAL_JS_BUDGET_BYTES, initialJsGzipBytes, launch, lcpMs, newContext, screenshot, settled, watch, writeBudgets } from './browser.js';

/**
 * Issue 23's proofs in Debian's Chromium against the whole service (real store, worker on):
 * a shop registers in the browser, the operator approves it through the operator API, the
 * shop sets itself up in the browser, an order placed through API v1 shows up, its
 * callbacks fail four times and the shop resends from the order's page.
 */
// A browser walks many pages per test: minutes, not the default 30 s.
vi.setConfig({ testTimeout: 300_000 });

describe.skipIf(!browserAvailable).each(storeKinds())('reseller dashboard in a browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];
  // The service's clock runs ahead on demand, so the callback retries (5, 10, 15 s apart) come at once.
  let ahead = 0;
  let failing = true;
  const receiver = startReceiver(() => ({ status: failing ? 500 : 200 }));
  const email = `shop-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  let resellerId = '';
  let api: ResellerClient;
  let orderId = '';

  beforeAll(async () => {
    ensureWebBuilt();
    t = await startTestApp(kind, { worker: true, overrides: { clock: { now: () => Date.now() + ahead } } });
    browser = await launch();
    ctx = await newContext(browser, t.origin);
    page = await ctx.newPage();
    problems = watch(page);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await (await receiver).close();
    await t?.close();
  });

  it('registers in the browser, then says the account awaits approval', async () => {
    await page.goto('/dashboard/register');
    await checkPage(page, 'register');
    await screenshot(page, 'register-desktop');
    // Bad input: the API's message by its field, nothing created.
    await page.getByLabel('Business name').fill('Nova Games');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.mantine-InputWrapper-error').allTextContents()).toEqual([expect.stringMatching(/password/i)]);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your account awaits approval' }).waitFor();
    await checkPage(page, 'registered');
    resellerId = await page.evaluate(() => fetch('/dashboard/v1/auth/session').then(async (r) => (await r.json()).data.reseller_id));
    expect(resellerId).toMatch(/\w/);
  });

  it('the operator approves, assigns the catalog and credits (operator API); Home shows it', async () => {
    const op = await operatorClient(t);
    expect((await op.post(`/resellers/${resellerId}/approve`, { tier: 'gold' })).status).toBe(200);
    const catalogs = await op.get('/catalogs');
    const demo = catalogs.body.data.catalogs.find((c: { name: string }) => c.name === 'Demo catalog');
    expect((await op.post(`/resellers/${resellerId}/catalogs/${demo.id}`, {})).status).toBe(200);
    expect((await op.post(`/resellers/${resellerId}/wallet/credit`, { amount: 1_000_000, note: 'opening' })).status).toBe(200);
    await page.goto('/dashboard/');
    await settled(page);
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^IDR\s1,000,000$/);
  });

  it('generates a key (secret shown once, masked after reload), adds an IP, sets the callback URL and sends a test callback', async () => {
    await page.goto('/dashboard/settings/api-keys');
    await checkPage(page, 'api keys');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('shown only this once').waitFor();
    const key = (await dialog.getByTestId('API key').textContent())!;
    const secret = (await dialog.getByTestId('API secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
    await page.reload();
    await settled(page);
    const body = (await page.locator('body').textContent())!;
    expect(body).not.toContain(secret);
    expect(body).not.toContain(key);
    expect(body).toContain(`${key.slice(0, 7)}…`);
    api = new ResellerClient(t.baseUrl, key, secret);

    await page.goto('/dashboard/settings/ip-whitelist');
    await checkPage(page, 'ip whitelist');
    const before = await accountState(t, resellerId);
    await page.getByLabel('IP address').fill('not-an-ip');
    await page.getByRole('button', { name: 'Add address' }).click();
    const error = page.locator('.mantine-InputWrapper-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/ip/i);
    expect(await accountState(t, resellerId)).toEqual(before);
    await page.getByLabel('IP address').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByRole('cell', { name: '127.0.0.1', exact: true }).waitFor();

    await page.goto('/dashboard/settings/callback-url');
    await checkPage(page, 'callback url');
    await page.getByLabel('Callback URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.mantine-InputWrapper-error').waitFor();
    expect(await accountState(t, resellerId)).toEqual(await accountState(t, resellerId));
    const r = await receiver;
    await page.getByLabel('Callback URL').fill(r.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Callback URL saved.').waitFor();
    failing = false;
    await page.getByRole('button', { name: 'Send a test callback' }).click();
    const result = page.getByTestId('test-callback-result');
    await result.getByText('Delivered').waitFor();
    expect(await result.textContent()).toContain('answer 200');
    failing = true;
  });

  it('an order placed through API v1 appears in Orders; its receiver fails four times; Resend Callback delivers', async () => {
    const placed = await api.post('/order', { ref_id: 'web-0001', product_code: 'FF-100', target: '12345678' });
    expect(placed.status, placed.text).toBe(200);
    orderId = placed.body.data.order_id;
    await waitForTerminal(api, 'web-0001');
    const attempts = async () => (await t.platform.database.db.selectFrom('callback_deliveries').select('attempts').where('order_id', '=', orderId).execute()).reduce((n, d) => n + Number(d.attempts), 0);
    for (let i = 0; i < 60 && (await attempts()) < 4; i++) {
      ahead += 16_000;
      t.platform.runner.wake();
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(await attempts()).toBe(4);

    await page.goto('/dashboard/orders?ref_id=web-');
    await checkPage(page, 'orders');
    await page.getByRole('link', { name: placed.body.data.order_code }).click();
    await page.getByRole('heading', { name: `Order ${placed.body.data.order_code}` }).waitFor();
    await checkPage(page, 'order detail');
    failing = false;
    await page.getByRole('button', { name: 'Resend Callback' }).click();
    await page.getByText('A new callback round was scheduled.').waitFor();
    await expect
      .poll(async () => {
        t.platform.runner.wake();
        await page.reload();
        await settled(page);
        return page.getByTestId('callback-round').allTextContents();
      }, { timeout: 15_000 })
      .toEqual([expect.stringMatching(/Round 1.*Failed/s), expect.stringMatching(/Round 2.*Delivered.*answer 200/s)]);
    const rounds = await page.getByTestId('callback-round').allTextContents();
    expect(rounds[0]!.match(/answer 500/g)).toHaveLength(4);
    // The timeline in words: no event code, amounts as money.
    const timeline = (await page.locator('.mantine-Timeline-root').textContent())!;
    expect(timeline).not.toMatch(/callback_round|callback_attempt|refunded_to_wallet|\bsucceeded\b/);
    expect(timeline).toMatch(/IDR\s[\d,]+ was taken from the wallet; the balance is now IDR\s[\d,]+\./);
    expect(timeline).toContain('Your receiver answered HTTP 500');
    await screenshot(page, 'order-detail-desktop');
  });

  it("bad input in the other forms: the API's message by its field, nothing changed", async () => {
    const before = await accountState(t, resellerId);
    await page.goto('/dashboard/settings/password');
    await settled(page);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('another long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    const current = page.locator('.mantine-InputWrapper-root', { has: page.getByLabel('Current password') }).locator('.mantine-InputWrapper-error');
    await current.waitFor();
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    const fresh = page.locator('.mantine-InputWrapper-root', { has: page.getByLabel('New password') }).locator('.mantine-InputWrapper-error');
    await fresh.waitFor();
    expect(await fresh.textContent()).toMatch(/new_password/);
    expect(await accountState(t, resellerId)).toEqual(before);

    // A filter the API refuses (end before start) is shown by that field, in the URL as typed.
    await page.goto('/dashboard/orders?start_date=2026-03-10&end_date=2026-03-01');
    await settled(page);
    const dateError = page.locator('.mantine-InputWrapper-error').first();
    await dateError.waitFor();
    expect(await dateError.textContent()).toMatch(/date/);
  });

  it('on a phone the navigation is a burger menu', async () => {
    const c = await newContext(browser, t.origin, { phone: true });
    await c.addCookies(await ctx.cookies());
    const p = await c.newPage();
    await p.goto('/dashboard/');
    await settled(p);
    // Closed, the navigation sits off-screen to the left.
    const right = async () => (await p.getByRole('link', { name: 'Wallet' }).boundingBox())!.x + 200;
    await expect.poll(right).toBeLessThanOrEqual(0);
    await p.getByRole('button', { name: 'Open navigation' }).click();
    await p.getByRole('link', { name: 'Wallet' }).click();
    await p.getByRole('heading', { name: 'Wallet' }).waitFor();
    await c.close();
  });

  it('a second reseller sees nothing of the first: its order URL answers not found', async () => {
    const other = await newContext(browser, t.origin);
    const p = await other.newPage();
    const c = dashboardClient(t);
    const email2 = `other-${randomBytes(4).toString('hex')}@example.com`;
    expect((await c.post('/auth/register', { name: 'Other', email: email2, password })).status).toBe(200);
    await p.goto('/dashboard/sign-in');
    await p.getByLabel('Email').fill(email2);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Home' }).waitFor();
    await p.goto(`/dashboard/orders/${orderId}`);
    await p.getByRole('heading', { name: 'Not found' }).waitFor();
    await p.goto('/dashboard/orders');
    await settled(p);
    expect(await p.locator('body').textContent()).not.toContain('web-0001');
    await other.close();
  });

  it('CSRF: a state-changing request without the token, or from another origin, is refused', async () => {
    const before = await accountState(t, resellerId);
    const statuses = await page.evaluate(async () => {
      const noToken = await fetch('/dashboard/v1/whitelist', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ip: '198.51.100.7' }) });
      return [noToken.status, (await noToken.json()).error];
    });
    expect(statuses).toEqual([403, 'CSRF_REJECTED']);
    // Another site's page posting with the shop's cookie (SameSite=Strict keeps it away anyway).
    const session = (await ctx.cookies()).find((c) => c.name === 'topup_dashboard_session')!;
    const cross = await fetch(`${t.origin}/dashboard/v1/whitelist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${session.name}=${session.value}`, origin: 'https://evil.example', 'x-csrf-token': 'x' },
      body: JSON.stringify({ ip: '198.51.100.8' }),
    });
    expect(cross.status).toBe(403);
    expect(await accountState(t, resellerId)).toEqual(before);
  });

  it('every page in both languages: no missing key, no serious or critical axe violation; screenshots', async () => {
    const pages: [string, string][] = [
      ['home', '/dashboard/'],
      ['orders', '/dashboard/orders'],
      ['order', `/dashboard/orders/${orderId}`],
      ['wallet', '/dashboard/wallet'],
      ['products', '/dashboard/products'],
      ['api-keys', '/dashboard/settings/api-keys'],
      ['ip-whitelist', '/dashboard/settings/ip-whitelist'],
      ['callback-url', '/dashboard/settings/callback-url'],
      ['password', '/dashboard/settings/password'],
      ['developers', '/dashboard/developers'],
      ['api-errors', '/dashboard/api-errors'],
    ];
    const publicPages: [string, string][] = [
      ['sign-in', '/dashboard/sign-in'],
      ['register', '/dashboard/register'],
      ['accept-invitation', '/dashboard/accept-invitation?token=abc'],
    ];
    const cookies = await ctx.cookies();
    for (const lang of ['en', 'id'] as const) {
      for (const phone of [false, true]) {
        const c = await newContext(browser, t.origin, { lang, phone });
        await c.addCookies(cookies);
        const p = await c.newPage();
        const issues = watch(p);
        for (const [name, url] of pages) {
          await p.goto(url);
          await checkPage(p, `${name} (${lang}${phone ? ', phone' : ''})`);
          if (kind === 'sqlite' && lang === 'en') await screenshot(p, `${name}-${phone ? 'phone' : 'desktop'}`);
          if (kind === 'sqlite' && lang === 'id' && !phone && name === 'home') await screenshot(p, 'home-id-desktop');
        }
        await c.clearCookies();
        for (const [name, url] of publicPages) {
          await p.goto(url);
          await checkPage(p, `${name} (${lang}${phone ? ', phone' : ''})`);
          if (kind === 'sqlite' && lang === 'en') await screenshot(p, `${name}-${phone ? 'phone' : 'desktop'}`);
        }
        expect(issues).toEqual([]);
        await c.close();
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('session expiry sends to sign-in and back where the person was; sign-out ends the session', async () => {
    const c = await newContext(browser, t.origin);
    const p = await c.newPage();
    await p.goto('/dashboard/wallet?type=credit');
    await p.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(p.url()).searchParams.get('next')).toBe('/wallet?type=credit');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Wallet' }).waitFor();
    expect(p.url()).toBe(`${t.origin}/dashboard/wallet?type=credit`);
    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await p.evaluate(() => fetch('/dashboard/v1/me').then((r) => r.status)))).toBe(401);
    await c.close();
  });

  it('reports the budgets: initial JS gzipped, LCP of Home and Orders', async () => {
    const js = initialJsGzipBytes();
    const lcp: Record<string, number | null> = {};
    for (const [name, url] of [['Home', '/dashboard/'], ['Orders', '/dashboard/orders']] as const) {
      const p = await ctx.newPage();
      await p.goto(url);
      await settled(p);
      lcp[name] = await lcpMs(p);
      await p.close();
    }
    if (kind === 'sqlite') writeBudgets('dashboard', { browser: browser.version(), js, lcp });
    expect(js.bytes).toBeGreaterThan(0);
    expect(js.bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });
});
