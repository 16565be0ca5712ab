import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../src/domain/operator-roles.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, newContext, signInOperator } from './admin-support.js';

/**
 * The console shows each operator what its roles allow, from the session's permissions:
 * a viewer sees no wallet actions, and a support operator who follows a link to a
 * reseller's wallet is told which roles may use it.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console by role (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind);
    await t.platform.operator.operators.ensureFirst();
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A browser page signed in as a new operator holding `roles`. */
  const signedInAs = async (roles: OperatorRole[]): Promise<Page> => {
    const o = await t.platform.operator.operators.create(`${roles.join('-')}-${kind}-${Date.now()}@example.com`, roles.join(' '), undefined, roles);
    const page = await (await newContext(browser, t.origin)).newPage();
    await signInOperator(page, o);
    return page;
  };
  const walletActions = (page: Page) => [
    page.getByRole('button', { name: /^(Credit|Debit)$/ }),
    page.getByRole('radio', { name: /^(Credit|Debit)$/ }),
    page.getByLabel(/^Amount/),
  ];

  it('a viewer sees the balance and history but no credit or debit, and no approvals entry', async () => {
    const page = await signedInAs(['viewer']);
    await page.goto(`/admin/resellers/${t.demo.resellerId}`);
    await page.getByTestId('balance').waitFor();
    await checkPage(page, 'viewer reseller');
    for (const action of walletActions(page)) expect(await action.count()).toBe(0);
    expect(await page.getByRole('button', { name: /issue/i }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Pending approvals' }).count()).toBe(0);
    // Nor catalog or supply changes.
    await page.goto('/admin/catalog/catalogs');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await checkPage(page, 'viewer catalogs');
    expect(await page.getByRole('button', { name: 'Add catalog' }).count()).toBe(0);
    await page.goto('/admin/approvals');
    await page.getByTestId('not-permitted').waitFor();
    await page.context().close();
  }, 120_000);

  it('a support operator reaching the wallet page by URL is told why; finance gets the form there', async () => {
    const support = await signedInAs(['support']);
    await support.goto(`/admin/resellers/${t.demo.resellerId}/wallet`);
    const why = support.getByTestId('not-permitted');
    await why.waitFor();
    await checkPage(support, 'support wallet');
    const text = await why.innerText();
    expect(text).toContain('Not available with your roles');
    expect(text).toContain('owner, finance');
    expect(text).toContain('your roles: support');
    expect(text).toContain('wallet.adjust');
    for (const action of walletActions(support)) expect(await action.count()).toBe(0);
    // What support may do is still there: the reseller's keys, whitelist and callback URL.
    await support.goto(`/admin/resellers/${t.demo.resellerId}`);
    await support.getByRole('textbox', { name: 'IP address' }).waitFor();
    await support.context().close();

    const finance = await signedInAs(['finance']);
    await finance.goto(`/admin/resellers/${t.demo.resellerId}/wallet`);
    await finance.getByLabel(/^Amount/).waitFor();
    expect(await finance.getByTestId('not-permitted').count()).toBe(0);
    expect(await finance.getByRole('button', { name: 'Credit' }).count()).toBe(1);
    await finance.context().close();
  }, 120_000);
});
