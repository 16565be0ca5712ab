import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { JsonClient } from '../support/json-client.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureWebBuilt, launch, newContext, watch } from './browser.js';

/**
 * Issue 40's proof in Chromium: a shop and an operator who forgot their password ask for a
 * link on the sign-in page, open the link taken from the email the SMTP server received,
 * and set a new password that then signs them in; the operator then reads the outbox on the
 * console's Messages page.
 */
vi.setConfig({ testTimeout: 180_000 });

describe.skipIf(!browserAvailable).each(storeKinds())('forgot password in a browser (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  const smtp = new SmtpSink();

  beforeAll(async () => {
    ensureWebBuilt();
    await smtp.start();
    t = await startTestApp(kind, { worker: true, env: { SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@topup.example' } });
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp.stop();
  });

  /** The path and query of the newest reset link emailed to `email` (the service's own origin in the test). */
  const emailedLink = async (email: string, app: 'dashboard' | 'admin') => {
    await expect.poll(() => smtp.to(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const text = smtp.to(email).at(-1)!.text;
    const link = new RegExp(`https?://[^\\s"]+/${app}/reset-password\\?token=[A-Za-z0-9_-]+`).exec(text)![0];
    const u = new URL(link);
    return `${u.pathname}${u.search}`;
  };

  const flow = async (page: Page, app: 'dashboard' | 'admin', email: string, words: { forgot: string; send: string; sent: RegExp; newPassword: string; set: string; done: RegExp }) => {
    await page.goto(`/${app}/sign-in`);
    await page.getByRole('link', { name: words.forgot }).click();
    await checkPage(page, `${app} forgot password`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: words.send }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(words.sent);
    await page.goto(await emailedLink(email, app));
    await checkPage(page, `${app} reset password`);
    await page.getByLabel(words.newPassword).fill('a fresh password 42');
    await page.getByRole('button', { name: words.set }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(words.done);
  };

  it('a shop resets its password from the emailed link and signs in with it', async () => {
    const shop = await registerAccount(t, 'Browser shop');
    const ctx = await newContext(browser, t.origin);
    const page = await ctx.newPage();
    const problems = watch(page);
    await flow(page, 'dashboard', shop.email, {
      forgot: 'Forgot password?', send: 'Email me a link', sent: /link is on its way/, newPassword: 'New password', set: 'Set the password', done: /Your password is set/,
    });
    expect((await dashboardClient(t).signIn(shop.email, 'a fresh password 42')).status).toBe(200);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('an operator does the same in Indonesian in the console', async () => {
    const created = await t.platform.operator.operators.create(`browser-op-${kind}@example.com`, 'Browser operator');
    const ctx = await newContext(browser, t.origin, { lang: 'id' });
    const page = await ctx.newPage();
    const problems = watch(page);
    await flow(page, 'admin', created.email, {
      forgot: 'Lupa kata sandi?', send: 'Kirimkan tautan', sent: /tautan sedang dikirim/, newPassword: 'Kata sandi baru', set: 'Simpan kata sandi', done: /telah disimpan/,
    });
    expect((await new JsonClient(`${t.origin}/admin/v1`).signIn(created.email, 'a fresh password 42')).status).toBe(200);

    // Signed in, the operator finds the reset messages on the Messages page, sent, their links withheld.
    await page.goto('/admin/sign-in');
    await page.getByLabel('Email').fill(created.email);
    await page.getByLabel('Kata sandi').fill('a fresh password 42');
    await page.getByRole('button', { name: 'Masuk' }).click();
    await page.getByRole('link', { name: 'Pesan', exact: true }).click();
    await checkPage(page, 'admin messages');
    const row = page.getByRole('row').filter({ hasText: created.email }).filter({ hasText: 'Reset your password' });
    await expect.poll(() => row.first().textContent()).toMatch(/Reset your password.*Terkirim/);
    await row.first().getByRole('button', { name: 'Baca' }).click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toMatch(/withheld/);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
