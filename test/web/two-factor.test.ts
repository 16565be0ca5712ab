import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/domain/two-factor.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { registerAccount } from '../support/dashboard.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, newContext, screenshot } from './admin-support.js';
import { newContext as dashboardContext } from './browser.js';

/** The code of the next time step: the enrolment took this step's, and no code works twice. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

/**
 * Two-factor sign-in in the browser, with production's rule (OPERATOR_2FA_REQUIRED=roles):
 * the owner is sent to Security, enrols with the key shown, keeps the recovery codes, and
 * signs in again with a code. A shop turns it on for itself on the dashboard.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('two-factor sign-in in the browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let owner: { email: string; password: string };
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind, { env: { OPERATOR_2FA_REQUIRED: 'roles' } });
    owner = (await t.platform.operator.operators.ensureFirst())!;
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signInWithPassword = async (page: Page, who: { email: string; password: string }, app: 'admin' | 'dashboard') => {
    await page.goto(`/${app}/sign-in`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('an owner is sent to Security, enrols with the key shown, and signs in with a code', async () => {
    const page = await (await newContext(browser, t.origin)).newPage();
    await signInWithPassword(page, owner, 'admin');
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/security');
    await page.getByText('Your roles require two-factor sign-in').waitFor();
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await checkPage(page, 'admin security enrol');
    await screenshot(page, 'admin-security-enrol');

    await page.getByLabel('Code').fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = (await page.getByTestId('recovery-codes').innerText()).trim().split('\n');
    expect(codes).toHaveLength(10);
    await checkPage(page, 'admin recovery codes');
    await screenshot(page, 'admin-security-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByTestId('two-factor-state').filter({ hasText: 'On' }).waitFor();

    // The rest of the console opens now.
    await page.goto('/admin/resellers');
    await page.getByRole('heading', { name: 'Resellers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/resellers');
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL(/\/admin\/sign-in/);

    // Password, then the second step.
    await signInWithPassword(page, owner, 'admin');
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    await checkPage(page, 'admin sign-in code');
    await screenshot(page, 'admin-sign-in-code');
    await page.getByLabel('Code').fill(nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.goto('/admin/security');
    await page.getByText('Unused recovery codes: 10').waitFor();
    // Where this operator is signed in, and the history (item 4): this browser, twice.
    const sessions = page.getByTestId('sessions');
    await sessions.getByText('This session').waitFor();
    expect(await sessions.innerText()).toContain('Chrome on Linux');
    expect(await page.getByTestId('sign-ins').locator('tbody tr').count()).toBe(2);
    await checkPage(page, 'admin security');
    await screenshot(page, 'admin-security');
    await page.context().close();
  }, 120_000);

  it('a shop turns it on for itself on the dashboard (phone, Indonesian)', async () => {
    const shop = await registerAccount(t);
    const ctx = await dashboardContext(browser, t.origin, { phone: true, lang: 'id' });
    const page = await ctx.newPage();
    await page.goto('/dashboard/sign-in');
    await page.getByLabel('Email').fill(shop.email);
    await page.getByLabel('Kata sandi').fill(shop.password);
    await page.getByRole('button', { name: 'Masuk' }).click();
    await page.getByRole('heading', { name: 'Beranda' }).waitFor();
    await page.goto('/dashboard/settings/security');
    await page.getByRole('button', { name: 'Aktifkan verifikasi dua langkah' }).click();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    await checkPage(page, 'dashboard security enrol (id, phone)');
    await screenshot(page, 'security-phone');
    await page.getByLabel('Kode').fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Aktifkan', exact: true }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await checkPage(page, 'dashboard recovery codes (id, phone)');
    await ctx.close();
  }, 120_000);
});
