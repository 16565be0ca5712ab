import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { WEB_DIST } from '../../src/http/routes/web-app.js';
import type { TestApp } from '../support/app.js';

/**
 * What the operator console's browser suites need: Debian's Chromium, a context per
 * person, and the per-page checks (no missing i18n key, axe-core). Kept apart from the
 * dashboard's browser helpers so the two suites can change independently.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const browserAvailable = existsSync(CHROMIUM) || process.env.REQUIRE_ALL_SUITES === '1';

export const launch = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

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
  return t.platform.operator.operators.create(`op-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`, 'Test operator');
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

export async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__missingI18nKeys ?? []);
}

const axeSource = readFileSync(join(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core in the page: the serious and critical violations (WCAG 2 A/AA and best practice). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  return result.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id} (${v.impact}): ${v.nodes.join(', ')}`);
}

export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('.mantine-Loader-root').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
}

export async function checkPage(page: Page, what: string) {
  await settled(page);
  expect(await missingKeys(page), `${what}: missing i18n keys`).toEqual([]);
  expect(await axeViolations(page), `${what}: axe`).toEqual([]);
}

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

export async function screenshot(page: Page, name: string) {
  await settled(page);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
