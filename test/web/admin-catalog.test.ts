import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, ensureAdminBuilt, launch, newContext, operatorCredentials, settled, signInOperator } from './admin-support.js';

/**
 * The catalog's editors in the console, each change read back through the operator API:
 * a category's order form (roles, types, options), a catalog's price grid (the three
 * tiers), and assigning a catalog to a reseller.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console catalog editors (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  let api: JsonClient;
  let page: Page;
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    api = await operatorClient(t);
    const ctx = await newContext(browser, t.origin);
    page = await ctx.newPage();
    await signInOperator(page, await operatorCredentials(t));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('saves a category through the form editor: name, checker, a field retyped, a select field with options', async () => {
    const slug = uniqueRef('game').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40);
    const created = await api.post('/categories', { slug, name: 'Editor Game', type: 'game', form: [{ name: 'user_id', label: 'User ID', role: 'account_id', type: 'text' }] });
    expect(created.status, created.text).toBe(200);

    await page.goto('/admin/catalog/categories');
    await settled(page);
    await page.getByRole('button', { name: 'Edit Editor Game' }).click();
    const editor = card(page, `Edit category ${slug}`);
    await editor.getByLabel('Name', { exact: true }).fill('Editor Game Renamed');
    await editor.getByLabel('ID checker').check();
    // The first field becomes a number; a second one, the server, a choice list.
    await editor.getByLabel('Type', { exact: true }).nth(0).selectOption({ label: 'Number' });
    await editor.getByRole('button', { name: 'Add field' }).click();
    await editor.getByLabel('Field name').nth(1).fill('zone');
    await editor.getByLabel('Label', { exact: true }).nth(1).fill('Server');
    await editor.getByLabel('Role').nth(1).selectOption({ label: 'Server / zone' });
    await editor.getByLabel('Type', { exact: true }).nth(1).selectOption({ label: 'Choice list' });
    await editor.getByLabel('Options (value=label per line)').fill('2001=Asia\n2002=Europe');
    await editor.getByLabel('Required').nth(1).uncheck();
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });

    const categories = (await api.get('/categories')).body.data.categories as { slug: string; name: string; checker_enabled: boolean; form: unknown[] }[];
    const saved = categories.find((c) => c.slug === slug)!;
    expect(saved.name).toBe('Editor Game Renamed');
    expect(saved.checker_enabled).toBe(true);
    expect(saved.form).toEqual([
      { name: 'user_id', label: 'User ID', role: 'account_id', type: 'number', required: true },
      { name: 'zone', label: 'Server', role: 'server', type: 'select', required: false, options: [{ value: '2001', label: 'Asia' }, { value: '2002', label: 'Europe' }] },
    ]);
    // The list shows the roles in words, never their codes.
    const row = page.getByRole('row').filter({ hasText: slug });
    await expect.poll(() => row.innerText()).toContain('user_id (Account id), zone (Server / zone)');

    // The audit log names the change in words and links to the category's editor.
    await page.goto(`/admin/audit?target_kind=category&target_id=${slug}`);
    await settled(page);
    const entry = page.getByRole('row').filter({ hasText: 'Category changed' });
    expect(await page.locator('main').innerText()).not.toContain('category.update');
    await entry.getByRole('link', { name: `Category ${slug}` }).click();
    await card(page, `Edit category ${slug}`).getByLabel('Name', { exact: true }).waitFor();
    expect(await card(page, `Edit category ${slug}`).getByLabel('Name', { exact: true }).inputValue()).toBe('Editor Game Renamed');
  }, 120_000);

  it('edits the three tier prices of a product in the price grid and saves them all at once', async () => {
    const catalog = (await api.post('/catalogs', { name: `Grid ${uniqueRef('c')}` })).body.data as { id: string; name: string };
    await api.put(`/catalogs/${catalog.id}/prices`, { prices: [{ product_code: 'FF-100', tier: 'gold', price: 15000 }] });

    await page.goto(`/admin/catalog/catalogs/${catalog.id}`);
    await page.getByRole('heading', { name: catalog.name, level: 1 }).waitFor();
    await settled(page);
    await page.getByLabel('FF-100 Gold').fill('14500');
    await page.getByLabel('FF-100 Platinum').fill('14000');
    await page.getByLabel('FF-100 Diamond').fill('13500');
    await page.getByRole('button', { name: 'Save 3 changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Prices saved.' }).waitFor();

    const prices = (await api.get(`/catalogs/${catalog.id}`)).body.data.prices as { product_code: string; tier: string; price: number }[];
    expect(prices.filter((p) => p.product_code === 'FF-100').map((p) => [p.tier, p.price]).sort()).toEqual([['diamond', 13500], ['gold', 14500], ['platinum', 14000]]);

    // Emptying a cell removes that price, and only that one.
    await page.getByLabel('FF-100 Diamond').fill('');
    await page.getByRole('button', { name: 'Save 1 changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Prices saved.' }).waitFor();
    const after = (await api.get(`/catalogs/${catalog.id}`)).body.data.prices as { product_code: string; tier: string }[];
    expect(after.filter((p) => p.product_code === 'FF-100').map((p) => p.tier).sort()).toEqual(['gold', 'platinum']);
  }, 120_000);

  it('assigns a catalog to a reseller on its page, and unassigns it', async () => {
    const catalog = (await api.post('/catalogs', { name: `Assign ${uniqueRef('c')}` })).body.data as { id: string; name: string };
    const assigned = async () => ((await api.get(`/resellers/${t.demo.resellerId}`)).body.data.catalogs as { id: string }[]).map((c) => c.id);
    expect(await assigned()).not.toContain(catalog.id);

    await page.goto(`/admin/resellers/${t.demo.resellerId}`);
    await settled(page);
    const catalogs = card(page, 'Catalogs');
    await catalogs.getByLabel('Catalog', { exact: true }).selectOption({ label: catalog.name });
    await catalogs.getByRole('button', { name: 'Assign', exact: true }).click();
    await catalogs.getByRole('cell', { name: catalog.name, exact: true }).waitFor();
    expect(await assigned()).toContain(catalog.id);

    await catalogs.getByRole('button', { name: `Unassign ${catalog.name}` }).click();
    await catalogs.getByRole('cell', { name: catalog.name, exact: true }).waitFor({ state: 'detached' });
    expect(await assigned()).not.toContain(catalog.id);
  }, 120_000);
});

/** The card whose heading is exactly this. */
function card(page: Page, heading: string): Locator {
  return page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: heading, exact: true }) });
}
