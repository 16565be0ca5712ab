import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WEB_DIST } from '../../src/http/routes/web-app.js';
import type { TestApp } from '../support/app.js';

/**
 * The operator console's browser helpers: a context per person and the operator's sign-in.
 * Chromium, the per-page checks (no missing i18n key, axe-core) and screenshots are the
 * dashboard suite's (browser.ts).
 */
export { browserAvailable, checkPage, launch, screenshot, settled } from './browser.js';

/** The suites test the built apps; a checkout without them gets them built. */
export function ensureAdminBuilt() {
  if (!existsSync(join(WEB_DIST, 'admin', 'index.html')) || !existsSync(join(WEB_DIST, 'dashboard', 'index.html'))) {
    execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit', cwd: join(import.meta.dirname, '..', '..') });
  }
}

export async function newContext(browser: Browser, origin: string, lang: 'en' | 'id' = 'en'): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 }, locale: lang === 'id' ? 'id-ID' : 'en-GB', timezoneId: 'Asia/Jakarta' });
  await ctx.addInitScript((l) => localStorage.setItem('topup.lang', l), lang);
  return ctx;
}

/** The installation's first operator (as `topup serve` prints it once), or a new one. */
export async function operatorCredentials(t: TestApp): Promise<{ email: string; password: string }> {
  const first = await t.platform.operator.operators.ensureFirst();
  if (first) return first;
  return t.platform.operator.operators.create(`op-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`, 'Test operator', undefined, ['owner']);
}

const SIGN_IN = { en: { email: 'Email', password: 'Password', submit: 'Sign in', nav: 'Main navigation' }, id: { email: 'Email', password: 'Kata sandi', submit: 'Masuk', nav: 'Navigasi utama' } };

export async function signInOperator(page: Page, creds: { email: string; password: string }, lang: 'en' | 'id' = 'en') {
  const w = SIGN_IN[lang];
  await page.goto('/admin/sign-in');
  await page.getByLabel(w.email).fill(creds.email);
  await page.getByLabel(w.password).fill(creds.password);
  await page.getByRole('button', { name: w.submit }).click();
  await page.getByRole('navigation', { name: w.nav }).waitFor();
}
