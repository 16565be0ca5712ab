import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, ensureAdminBuilt, launch, newContext, operatorCredentials, settled, signInOperator } from './admin-support.js';

/**
 * What the console shows of a supplier's health: the circuit breaker's state, why and since
 * when, the webhook URL to set at the supplier, and the reset button (audited); and the
 * supplier's serial number and message on an order's page.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console: supplier health and breaker (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let api: JsonClient;
  let page: Page;
  let supplierId = '';
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    api = await operatorClient(t);
    const created = await api.post('/suppliers', { name: 'Digiflazz', adapter: 'digiflazz', credentials: { username: 'buyer01', api_key: 'k-123', base_url: 'http://127.0.0.1:9/v1' } });
    expect(created.status, created.text).toBe(200);
    supplierId = created.body.data.id;
    const ctx = await newContext(browser, t.origin);
    page = await ctx.newPage();
    await signInOperator(page, await operatorCredentials(t));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows an open breaker with its reason, since when and the webhook URL; the reset button closes it and is audited', async () => {
    const repo = new FulfilmentRepo(t.platform.database.db, t.store.kind);
    const cause = "health check: the balance call was refused: rc 45: this server's IP is not whitelisted at the supplier: add it in the supplier's member area";
    for (let i = 0; i < 3; i++) await repo.recordSupplierResult(supplierId, false, cause, Date.now());

    await page.goto('/admin/supply');
    await settled(page);
    await page.getByText(new RegExp(`^http://[^ ]+/hooks/digiflazz/${supplierId}$`)).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Digiflazz' });
    await row.getByText('Breaker open').waitFor();
    await row.getByText(`3 failures or unknown outcomes in a row; the last: ${cause}`).waitFor();
    expect(await row.getByText(/^since /).count()).toBe(1);
    expect(await row.getByText(/^next probe /).count()).toBe(1);
    if (kind === 'sqlite') await page.screenshot({ path: `/tmp/sup-breaker-supply-open.png`, fullPage: true });

    await row.getByRole('button', { name: 'Reset breaker' }).click();
    await row.getByText('Taking orders').waitFor();
    expect(await row.getByRole('button', { name: 'Reset breaker' }).count()).toBe(0);
    const s = (await api.get('/suppliers')).body.data.suppliers.find((x: { id: string }) => x.id === supplierId);
    expect(s.breaker).toMatchObject({ state: 'closed', reason: 'reset by an operator' });
    const audit = await api.get(`/audit?target_id=${supplierId}&action=supplier.breaker_reset`);
    expect(audit.body.data.entries).toHaveLength(1);
    if (kind === 'sqlite') await page.screenshot({ path: `/tmp/sup-breaker-supply-reset.png`, fullPage: true });
  });

  it("an order's page shows the supplier's serial number and message", async () => {
    const ref = uniqueRef('sn');
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(placed.status, placed.text).toBe(200);
    const orderId = placed.body.data.order_id as string;
    // (No worker here: the order stays processing, carrying what a supplier would have said.)
    await t.platform.database.db.updateTable('orders').set({ supplier_serial: 'SN-0417-9921', supplier_message: 'Transaksi Sukses' }).where('id', '=', orderId).execute();
    await page.goto(`/admin/orders/${orderId}`);
    await settled(page);
    await page.getByText('SN-0417-9921').waitFor();
    await page.getByText('Transaksi Sukses').waitFor();
    expect(await page.getByText("Supplier's serial").count()).toBe(1);
  });
});
