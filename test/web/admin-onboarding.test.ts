import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { ResellerClient } from '../support/client.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, ensureAdminBuilt, launch, newContext, operatorCredentials, settled, signInOperator } from './admin-support.js';

/**
 * The spec's onboarding, whole, in two browser contexts: a shop at /dashboard/ and the
 * operator at /admin/, with API v1 in between, against the real service and store.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('onboarding through the dashboard and the operator console (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind, { worker: true });
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a shop registers, the operator approves, assigns, credits; orders fail and succeed; both refunds reach the wallet; the audit log has every step', async () => {
    const shop = await (await newContext(browser, t.origin)).newPage();
    const op = await (await newContext(browser, t.origin)).newPage();
    const email = `${uniqueRef('nova')}@example.com`;
    const name = `Nova Games ${email.slice(5, 11)}`;

    // 1. The shop registers at /dashboard/ and waits for approval.
    await shop.goto('/dashboard/register');
    await shop.getByLabel('Business name').fill(name);
    await shop.getByLabel('Email').fill(email);
    await shop.getByLabel('Password').fill('a long shop password');
    await shop.getByRole('button', { name: 'Create account' }).click();
    await shop.waitForURL('**/dashboard/registered');

    // 2. The operator signs in (sent to sign-in and back), approves it with a tier from the queue.
    const creds = await operatorCredentials(t);
    await op.goto('/admin/approvals');
    await op.waitForURL('**/admin/sign-in?next=*');
    await op.getByLabel('Email').fill(creds.email);
    await op.getByLabel('Password').fill(creds.password);
    await op.getByRole('button', { name: 'Sign in' }).click();
    await op.waitForURL('**/admin/approvals');
    const row = op.getByRole('row').filter({ hasText: email });
    await row.getByLabel(`Approve ${name} with tier`).selectOption('platinum');
    await row.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => op.getByText(`${name} approved`).count()).toBeGreaterThan(0);

    // 3. On the reseller's page: assign the catalog, credit the wallet (confirming the amount).
    await op.goto(`/admin/resellers?q=${encodeURIComponent(email)}`);
    await op.getByRole('link', { name }).click();
    await op.getByRole('heading', { name, level: 1 }).waitFor();
    const resellerId = op.url().split('/').pop()!;
    await op.getByRole('button', { name: 'Assign' }).click();
    await op.getByRole('cell', { name: 'Demo catalog', exact: true }).waitFor();
    await op.getByLabel('Amount (IDR)').fill('100000');
    await op.getByLabel('Note').fill('first top-up, bank transfer 0001');
    await op.getByRole('button', { name: 'Credit', exact: true }).last().click();
    const dialog = op.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toMatch(/Credit IDR\s?100,000(\.00)? to Nova Games/);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => op.getByTestId('balance').innerText()).toMatch(/100,000/);

    // 4. The shop generates its key, whitelists its server and sets its callback URL.
    await shop.goto('/dashboard/settings/api-keys');
    await shop.getByRole('button', { name: 'Generate key' }).click();
    const apiKey = (await shop.getByTestId('API key').innerText()).trim();
    const apiSecret = (await shop.getByTestId('API secret').innerText()).trim();
    await shop.getByRole('button', { name: 'I have saved the secret' }).click();
    await shop.goto('/dashboard/settings/ip-whitelist');
    await shop.getByLabel('IP address').fill('127.0.0.1');
    await shop.getByRole('button', { name: 'Add address' }).click();
    await shop.getByText('127.0.0.1', { exact: true }).waitFor();
    const receiver = await startReceiver();
    try {
      await shop.goto('/dashboard/settings/callback-url');
      await shop.getByLabel('Callback URL').fill(receiver.url);
      await shop.getByRole('button', { name: 'Save' }).click();
      await settled(shop);

      // 5. API v1: one order fails upstream (sandbox test account), one succeeds.
      const api = new ResellerClient(t.baseUrl, apiKey, apiSecret);
      const products = await api.get('/products?category_slug=free-fire');
      const price = products.body.data.products.find((p: { code: string }) => p.code === 'FF-100').price;
      const failing = uniqueRef('fail');
      expect((await api.post('/order', { ref_id: failing, product_code: 'FF-100', target: '7000000001', price })).status).toBe(200);
      expect((await waitForTerminal(api, failing)).status).toBe('failed');
      const good = uniqueRef('good');
      expect((await api.post('/order', { ref_id: good, product_code: 'FF-100', target: '123456789', price })).status).toBe(200);
      expect((await waitForTerminal(api, good)).status).toBe('success');

      // 6. The operator sees the failed order refunded (its refund entry), and refunds the other by hand.
      await op.goto(`/admin/orders?ref_id=${failing}`);
      await openOnlyOrder(op);
      await op.getByRole('cell', { name: 'Order refund', exact: true }).waitFor();
      await op.goto(`/admin/orders?ref_id=${good}`);
      await openOnlyOrder(op);
      await op.getByRole('button', { name: 'Refund…' }).click();
      const refund = op.getByRole('dialog');
      await expect.poll(() => refund.innerText()).toMatch(/succeeded/);
      await refund.getByLabel('Note').fill('customer cancelled, agreed by phone');
      await refund.getByRole('button', { name: /^Refund IDR/ }).click();
      await op.getByText('Order refunded.').waitFor();
      await op.getByRole('cell', { name: 'Order refund', exact: true }).waitFor();

      // 7. The shop sees both refunds in its wallet.
      await shop.goto('/dashboard/wallet');
      await settled(shop);
      await expect.poll(() => shop.getByRole('cell', { name: 'Order refund' }).count()).toBe(2);

      // 8. The audit log shows every operator step, each linking to the reseller or order.
      await op.goto(`/admin/audit?target_id=${resellerId}`);
      await settled(op);
      const log = await op.getByRole('table').innerText();
      // Actions in words (never their codes).
      for (const action of ['Reseller approved', 'Catalog assigned', 'Wallet credited']) expect(log).toContain(action);
      expect(log).not.toContain('reseller.approve');
      await op.goto('/admin/audit?action=order.refund');
      await settled(op);
      expect(await op.getByRole('table').innerText()).toContain('customer cancelled, agreed by phone');
      await op.getByRole('link', { name: /^Order / }).first().click();
      await op.waitForURL('**/admin/orders/*');
    } finally {
      await receiver.close();
    }
  }, 180_000);
});

async function openOnlyOrder(page: Page) {
  await settled(page);
  const links = page.getByRole('table').getByRole('link').filter({ hasText: /^[0-9a-f-]{36}$|^ord/i });
  await links.first().click();
  await page.waitForURL('**/admin/orders/*');
  await settled(page);
}
