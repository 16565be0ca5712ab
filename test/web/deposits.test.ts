import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, registerAccount, type Account } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { operatorCredentials, signInOperator } from './admin-support.js';
import { browserAvailable, checkPage, ensureWebBuilt, launch, newContext, screenshot, settled, watch } from './browser.js';

vi.setConfig({ testTimeout: 300_000 });

/**
 * Issue 36 in Chromium on both stores: a shop asks for a bank deposit in the dashboard, the
 * operator imports a statement containing the transfer in the console, and the shop sees its
 * balance grow and the deposit in its ledger. Both languages, phone and desktop, axe clean.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('deposits in a browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let op: JsonClient;
  let shop: Account;
  let accountId = '';
  let creds: { email: string; password: string };
  beforeAll(async () => {
    ensureWebBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    op = await operatorClient(t);
    creds = await operatorCredentials(t);
    const acc = await op.post('/bank-accounts', { bank: 'BCA', number: '1234567890', holder: 'PT Topup Nusantara', active: true });
    accountId = acc.body.data.id;
    await op.request('PUT', `/bank-accounts/${accountId}/statement-mapping`, { date: 'Tanggal', description: 'Keterangan', amount: 'Jumlah', decimal: ',', delimiter: 'semicolon' });
    shop = await registerAccount(t, 'Nova Games');
    await approve(t, shop.id);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signInShop(page: Page, lang: 'en' | 'id') {
    await page.goto('/dashboard/sign-in');
    await page.getByLabel('Email').fill(shop.email);
    await page.getByLabel(lang === 'id' ? 'Kata sandi' : 'Password').fill(shop.password);
    await page.getByRole('button', { name: lang === 'id' ? 'Masuk' : 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/sign-in'));
  }

  it('a shop asks for a deposit, the operator imports the statement, the shop sees its balance grow', async () => {
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    const problems = watch(page);
    await signInShop(page, 'en');
    await page.goto('/dashboard/wallet');
    await page.getByRole('link', { name: 'Top up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Top up' }).waitFor();
    await settled(page);
    await page.getByLabel('Amount to add').fill('150000');
    await page.getByLabel('Name on the account you pay from').fill('Budi Santoso');
    await page.getByRole('button', { name: 'Get transfer details' }).click();
    const ticket = page.getByTestId('deposit-ticket');
    await ticket.waitFor();
    const payableText = (await page.getByTestId('deposit-payable').textContent())!;
    const payable = Number(payableText.replace(/\D/g, ''));
    expect(payable).toBeGreaterThan(150_000);
    expect(payable).toBeLessThan(151_000);
    await expect.poll(() => page.getByTestId('deposit-countdown').textContent()).toMatch(/Time left: 2[34]h/);
    await ticket.getByText('Petunjuk (Bahasa Indonesia)').waitFor();
    const depositId = (await ticket.getByText(/^DEP-/).first().textContent())!.trim();
    await checkPage(page, 'top up (ticket)');
    await screenshot(page, 'top-up-desktop');

    // The operator imports the bank's statement in the console.
    const opCtx = await newContext(browser, t.origin);
    const o = await opCtx.newPage();
    const opProblems = watch(o);
    await signInOperator(o, creds);
    await o.goto('/admin/deposits');
    await o.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    await settled(o);
    const fmt = (n: number) => `${n.toLocaleString('de-DE')},00`;
    await o.getByLabel('Or paste the CSV').fill([
      'Tanggal;Keterangan;Jumlah',
      `27/11/2026;TRSF E-BANKING CR 2711/FTSCY/WS95031 ${depositId} BUDI SANTOSO;${fmt(payable)} CR`,
      `27/11/2026;TRSF E-BANKING CR SALAH NOMINAL;${fmt(99_999)} CR`,
      `27/11/2026;BIAYA ADM;${fmt(15_000)} DB`,
    ].join('\n'));
    await o.getByRole('button', { name: 'Preview' }).click();
    const preview = o.getByRole('table', { name: 'Preview' });
    await preview.getByRole('row').filter({ hasText: depositId }).filter({ hasText: 'Matched' }).waitFor();
    await preview.getByRole('row').filter({ hasText: 'SALAH NOMINAL' }).filter({ hasText: 'Unmatched' }).waitFor();
    await checkPage(o, 'console deposits (preview)');
    await o.evaluate(() => window.scrollTo(0, 0));
    await screenshot(o, 'admin-deposits-preview');
    await o.getByRole('button', { name: 'Apply' }).click();
    await o.getByTestId('statement-applied').filter({ hasText: '1 matched' }).waitFor();
    await o.getByRole('table', { name: 'Unmatched money' }).getByText('SALAH NOMINAL').waitFor();
    await expect.poll(() => o.getByTestId('deposits-today').textContent()).toContain('150,000');
    await checkPage(o, 'console deposits (applied)');
    await o.evaluate(() => window.scrollTo(0, 0));
    await screenshot(o, 'admin-deposits');
    await o.goto('/admin/deposit-settings');
    await o.getByRole('heading', { level: 1, name: 'Deposit settings' }).waitFor();
    await o.getByRole('table', { name: 'Bank accounts' }).getByText('1234567890').waitFor();
    await checkPage(o, 'console deposit settings');
    await screenshot(o, 'admin-deposit-settings');

    // The shop sees the credit.
    await page.goto('/dashboard/wallet');
    await settled(page);
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/150,000/);
    await page.getByRole('cell', { name: `Deposit ${depositId}`, exact: true }).waitFor();
    await checkPage(page, 'wallet with the deposit');
    await screenshot(page, 'wallet-deposit-desktop');
    expect(problems).toEqual([]);
    expect(opProblems).toEqual([]);
    await ctx.close();
    await opCtx.close();
  });

  it('in Indonesian on a phone: the low-balance banner, Top up with a ticket, the console pages', async () => {
    expect((await shop.client.request('PUT', '/low-balance', { threshold: 1_000_000 })).status).toBe(200);
    const ctx = await newContext(browser, t.origin, { lang: 'id', phone: true });
    const page = await ctx.newPage();
    const problems = watch(page);
    await signInShop(page, 'id');
    const banner = page.getByTestId('low-balance-banner');
    await banner.waitFor();
    await banner.getByRole('link', { name: 'Isi saldo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Isi saldo' }).waitFor();
    await settled(page);
    await page.getByLabel('Nominal deposit').fill('50000');
    await page.getByLabel('Nama pemilik rekening pengirim').fill('Siti');
    await page.getByRole('button', { name: 'Minta detail transfer' }).click();
    await page.getByTestId('deposit-ticket').getByText('Transfer tepat', { exact: true }).waitFor();
    await checkPage(page, 'isi saldo (tiket, ponsel)');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'top-up-phone-id');
    await page.getByRole('button', { name: 'Batalkan tiket ini' }).click();
    await page.getByTestId('deposit-ticket').getByText('Dibatalkan').waitFor();
    await page.goto('/dashboard/settings/low-balance');
    await page.getByRole('heading', { level: 1, name: 'Saldo rendah' }).waitFor();
    await checkPage(page, 'saldo rendah');
    expect(problems).toEqual([]);
    await ctx.close();

    const opCtx = await newContext(browser, t.origin, { lang: 'id', phone: true });
    const o = await opCtx.newPage();
    await signInOperator(o, creds, 'id');
    await o.goto('/admin/deposits');
    await o.getByRole('heading', { level: 1, name: 'Deposit' }).waitFor();
    await checkPage(o, 'deposit (konsol, ponsel)');
    await screenshot(o, 'admin-deposits-phone-id');
    await o.goto('/admin/deposit-settings');
    await o.getByRole('heading', { level: 1, name: 'Pengaturan deposit' }).waitFor();
    await checkPage(o, 'pengaturan deposit');
    await opCtx.close();
  });
});
