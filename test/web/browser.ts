import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { WEB_DIST } from '../../src/http/routes/web-app.js';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Whether the browser suites run: without Chromium they are skipped, except under
 * REQUIRE_ALL_SUITES=1 (CI), where they run and fail.
 */
export const browserAvailable = existsSync(CHROMIUM) || process.env.REQUIRE_ALL_SUITES === '1';

export const launch = (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
};

/** The suites test the built app; a checkout without one (no `npm ci` yet) gets it built. */
export function ensureWebBuilt() {
  if (!existsSync(join(WEB_DIST, 'dashboard', 'index.html'))) {
    execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit', cwd: join(import.meta.dirname, '..', '..') });
  }
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function newContext(browser: Browser, origin: string, opts: { lang?: 'en' | 'id'; phone?: boolean } = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    baseURL: origin,
    viewport: opts.phone ? PHONE : DESKTOP,
    locale: opts.lang === 'id' ? 'id-ID' : 'en-GB',
    timezoneId: 'Asia/Jakarta',
    isMobile: opts.phone ?? false,
    hasTouch: opts.phone ?? false,
  });
  await ctx.addInitScript((lang) => localStorage.setItem('topup.lang', lang), opts.lang ?? 'en');
  return ctx;
}

/** Every page's console errors, page errors and failed requests: the tests expect none unless told. */
export function watch(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return problems;
}

export async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as { __missingI18nKeys?: string[] }).__missingI18nKeys ?? []);
}

const axeSource = readFileSync(join(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core in the page: the serious and critical violations (WCAG 2 A/AA rules). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Injected through the DevTools protocol's evaluate, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  return result.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id} (${v.impact}): ${v.nodes.join(', ')}`);
}

/** Waits for the page's content (no loader left) after navigation. */
export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('.mantine-Loader-root').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
}

/** Checks a page in the current language: no missing key, no serious/critical axe violation. */
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

export type WebApp = 'dashboard' | 'admin';

/** Initial JavaScript of an app: index.html's entry script and every module it preloads, gzipped. */
export function initialJsGzipBytes(app: WebApp = 'dashboard'): { bytes: number; files: string[] } {
  const dir = join(WEB_DIST, app);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(new RegExp(`(?:src|href)="/${app}/(assets/[^"]+\\.js)"`, 'g'))].map((m) => m[1]!);
  const bytes = files.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0);
  return { bytes, files };
}

/** The initial-JS budget of each app, gzipped: asserted (a size, not a timing). */
export const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

/** Largest contentful paint of a page load, from the browser's PerformanceObserver. */
export async function lcpMs(page: Page): Promise<number | null> {
  return page.evaluate(
    () =>
      new Promise<number | null>((resolve) => {
        let last: number | null = null;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = e.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(last), 300);
      }),
  );
}

const BUDGETS_DOC = join(import.meta.dirname, '..', '..', 'docs', 'web-budgets.md');
const BUDGET_SUITES: Record<WebApp, string> = { dashboard: 'test/web/dashboard.test.ts', admin: 'test/web/admin-pages.test.ts' };

/**
 * Writes one app's section of docs/web-budgets.md (its measurements: initial JS, LCP of
 * named pages) and keeps the other app's section as its own suite last wrote it.
 */
export function writeBudgets(app: WebApp, m: { browser: string; js: { bytes: number; files: string[] }; lcp: Record<string, number | null> }) {
  const ms = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} ms`);
  const section = [
    `## /${app}/ (${BUDGET_SUITES[app]})`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} (Chromium ${m.browser}, service on SQLite in the same process as the test runner, load average ${loadavg()[0]!.toFixed(1)}).`,
    '',
    '| Budget | Goal | Measured |',
    '|---|---|---|',
    `| Initial JavaScript of /${app}/, gzipped (${m.js.files.length} files) | ≤ ${INITIAL_JS_BUDGET_BYTES / 1024} KB (asserted) | ${(m.js.bytes / 1024).toFixed(1)} KB |`,
    ...Object.entries(m.lcp).map(([page, v]) => `| Largest contentful paint, ${page} | report | ${ms(v)} |`),
  ].join('\n');
  const old = existsSync(BUDGETS_DOC) ? readFileSync(BUDGETS_DOC, 'utf8') : '';
  const sections: Record<WebApp, string | null> = { dashboard: null, admin: null };
  for (const part of old.split(/^(?=## \/)/m).slice(1)) {
    const which = /^## \/(dashboard|admin)\//.exec(part)?.[1] as WebApp | undefined;
    if (which) sections[which] = part.trimEnd();
  }
  sections[app] = section;
  const head = [
    '# Web budgets',
    '',
    'Written by the browser suites of both apps, each its own section. The initial JavaScript',
    'budget is asserted there (a size); LCP is reported only: on this machine it is dominated by',
    'its load, so compare runs only at a similar load average.',
  ].join('\n');
  const body = (['dashboard', 'admin'] as const).map((a) => sections[a]).filter((x) => x !== null);
  writeFileSync(BUDGETS_DOC, [head, ...body].join('\n\n') + '\n');
}
