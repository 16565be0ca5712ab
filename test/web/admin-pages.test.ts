import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { registerAccount } from '../support/dashboard.js';
import { operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { INITIAL_JS_BUDGET_BYTES, initialJsGzipBytes, lcpMs, writeBudgets } from './browser.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, newContext, operatorCredentials, screenshot, settled, signInOperator } from './admin-support.js';

/** Every console page in both languages (complete, accessible), sessions kept apart, CSRF, input errors by the field. */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console pages (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let creds: { email: string; password: string };
  const ids = { order: '', catalog: '' };
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind, { worker: true });
    browser = await launch();
    creds = await operatorCredentials(t);
    const ref = uniqueRef('page');
    ids.order = (await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789', price: 15000 })).body.data.order_id;
    await waitForTerminal(t.client, ref);
    const catalog = await t.platform.database.db.selectFrom('catalogs').select('id').executeTakeFirstOrThrow();
    ids.catalog = catalog.id;
    await registerAccount(t, 'Waiting Shop');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages = () => [
    ['home', '/admin/'], ['approvals', '/admin/approvals'], ['resellers', '/admin/resellers'], ['reseller', `/admin/resellers/${t.demo.resellerId}`],
    ['orders', '/admin/orders'], ['order', `/admin/orders/${ids.order}`], ['attention', '/admin/attention'],
    ['categories', '/admin/catalog/categories'], ['products', '/admin/catalog/products'], ['catalogs', '/admin/catalog/catalogs'],
    ['prices', `/admin/catalog/catalogs/${ids.catalog}`], ['supply', '/admin/supply'], ['supply-import', '/admin/supply/import'], ['audit', '/admin/audit'],
    ['operators', '/admin/operators'], ['account', '/admin/account'],
  ] as const;

  for (const lang of ['en', 'id'] as const) {
    it(`every page in ${lang}: no missing i18n key, no serious or critical axe violation${lang === 'en' ? '; screenshots' : ''}`, async () => {
      const ctx = await newContext(browser, t.origin, lang);
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto('/admin/sign-in');
      await checkPage(page, 'sign-in');
      if (lang === 'en' && kind === 'sqlite') await screenshot(page, 'admin-sign-in');
      await signInOperator(page, creds, lang);
      for (const [name, path] of pages()) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await checkPage(page, `${lang} ${name}`);
        if (lang === 'en' && kind === 'sqlite') await screenshot(page, `admin-${name}`);
      }
      expect(errors).toEqual([]);
      await ctx.close();
    }, 240_000);
  }

  it('the operator finds a shop\'s orders by its name, and the list shows names and order codes, not ids', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, creds);
    await page.goto('/admin/orders');
    const shop = page.getByRole('textbox', { name: 'Reseller' });
    await shop.fill('demo res');
    await page.getByRole('option', { name: /^Demo Reseller · / }).click();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('reseller_id') === t.demo.resellerId);
    const table = page.getByRole('table', { name: 'Orders' });
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
    const text = (await table.textContent()) ?? '';
    expect(text).toContain('Demo Reseller');
    expect(text).toMatch(/ORD-[0-9A-F]{12}/i);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    // Reloaded, the filter shows the shop by its name.
    await page.reload();
    await expect.poll(() => shop.inputValue()).toMatch(/^Demo Reseller · /);
    await ctx.close();
  });

  it('reports the budgets: initial JS gzipped (asserted), LCP of Home, Orders and a reseller', async () => {
    const js = initialJsGzipBytes('admin');
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, creds);
    await page.close();
    const lcp: Record<string, number | null> = {};
    for (const [name, url] of [['Home', '/admin/'], ['Orders', '/admin/orders'], ['Reseller', `/admin/resellers/${t.demo.resellerId}`]] as const) {
      const p = await ctx.newPage();
      await p.goto(url);
      await settled(p);
      lcp[name] = await lcpMs(p);
      await p.close();
    }
    await ctx.close();
    if (kind === 'sqlite') writeBudgets('admin', { browser: browser.version(), js, lcp });
    expect(js.files.length).toBeGreaterThan(0);
    expect(js.bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  }, 120_000);

  it('a reseller session reads no /admin/v1 data, and an operator session is no reseller session', async () => {
    const shop = await registerAccount(t);
    const shopCtx = await newContext(browser, t.origin);
    const s = await shopCtx.newPage();
    await s.goto('/dashboard/sign-in');
    await s.getByLabel('Email').fill(shop.email);
    await s.getByLabel('Password').fill(shop.password);
    await s.getByRole('button', { name: 'Sign in' }).click();
    await s.waitForURL((u) => !u.pathname.endsWith('/sign-in'));
    const fromShop = await s.evaluate(async () => {
      const r = await fetch('/admin/v1/resellers', { credentials: 'same-origin' });
      return { status: r.status, body: await r.json() };
    });
    expect(fromShop.status).toBe(401);
    expect(fromShop.body.data).toBeUndefined();
    await s.goto('/admin/resellers');
    await s.waitForURL('**/admin/sign-in?next=*');

    const opCtx = await newContext(browser, t.origin);
    const o = await opCtx.newPage();
    await signInOperator(o, creds);
    const fromOperator = await o.evaluate(async () => (await fetch('/dashboard/v1/me', { credentials: 'same-origin' })).status);
    expect(fromOperator).toBe(401);
    await o.goto('/dashboard/');
    await o.waitForURL('**/dashboard/sign-in?next=*');
    await shopCtx.close();
    await opCtx.close();
  }, 120_000);

  it('invites a reseller the operator created: the link, shown once, signs the shop in to its dashboard', async () => {
    const op = await operatorClient(t);
    const email = `invited-${uniqueRef('i')}@example.com`.toLowerCase();
    const created = await op.post('/resellers', { name: 'Invited Shop', email });
    expect(created.status).toBe(200);
    const resellerId = created.body.data.id as string;

    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, creds);
    await page.goto(`/admin/resellers/${resellerId}`);
    await settled(page);
    await page.getByRole('button', { name: 'Send an invitation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const link = await page.getByText('/dashboard/accept-invitation?token=').innerText();
    expect(link).toMatch(/\/dashboard\/accept-invitation\?token=/);
    await expect.poll(() => page.getByText('Open', { exact: true }).count()).toBeGreaterThan(0);

    const shopCtx = await newContext(browser, t.origin);
    const shop = await shopCtx.newPage();
    await shop.goto(new URL(link.trim()).pathname + new URL(link.trim()).search);
    await shop.getByLabel('Password').fill('invited passphrase 1');
    await shop.getByRole('button').last().click();
    await shop.waitForURL((u) => u.pathname === '/dashboard/' || u.pathname === '/dashboard');
    const me = await shop.evaluate(async () => (await (await fetch('/dashboard/v1/me', { credentials: 'same-origin' })).json()).data.email);
    expect(me).toBe(email);

    // Used once: the same link answers INVALID_INVITATION, and the console shows it used.
    const again = await (await fetch(`${t.origin}/dashboard/v1/auth/accept-invitation`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: new URL(link.trim()).searchParams.get('token'), password: 'another passphrase 2' }),
    })).json();
    expect(again.error).toBe('INVALID_INVITATION');
    await page.reload();
    await settled(page);
    await expect.poll(() => page.getByText('Used', { exact: true }).count()).toBeGreaterThan(0);
    await shopCtx.close();
    await ctx.close();
  }, 120_000);

  it('refuses a state change without the CSRF token, and shows bad input by its field', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    await signInOperator(page, creds);
    const before = (await t.platform.database.db.selectFrom('operators').select('id').execute()).length;
    const forged = await page.evaluate(async () => {
      const r = await fetch('/admin/v1/operators', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'forged@example.com', name: 'Forged' }) });
      return { status: r.status, body: await r.json() };
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toBe('CSRF_REJECTED');
    expect((await t.platform.database.db.selectFrom('operators').select('id').execute()).length).toBe(before);

    // The wallet form: a note is required, and the API's message lands under the Note field.
    await page.goto(`/admin/resellers/${t.demo.resellerId}`);
    await settled(page);
    const balance = await page.getByTestId('balance').innerText();
    await page.getByLabel('Amount (IDR)').fill('250');
    await page.getByRole('button', { name: 'Credit', exact: true }).last().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expectFieldError(page, 'Note');
    expect(await page.getByTestId('balance').innerText()).toBe(balance);

    // The whitelist: not an address.
    await page.getByLabel('IP address').fill('not-an-ip');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectFieldError(page, 'IP address');

    // Adding an operator with an email that is taken: by the email field.
    await page.goto('/admin/operators');
    await page.getByLabel('Email').fill(creds.email);
    await page.getByLabel('Name').fill('Twice');
    await page.getByRole('button', { name: 'Add operator' }).click();
    await expect.poll(() => page.locator('[role=alert], .mantine-InputWrapper-error').count()).toBeGreaterThan(0);
    await ctx.close();
  }, 120_000);
});

/** The input labelled so is marked invalid and described by an error message. */
async function expectFieldError(page: Page, label: string) {
  const input = page.getByLabel(label, { exact: true });
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const ids = describedBy.split(/\s+/).filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`#${id}`).innerText().catch(() => '')));
  expect(texts.join(' ').length).toBeGreaterThan(0);
}
