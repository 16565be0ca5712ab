import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../src/domain/operator-roles.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { storeKinds } from '../support/stores.js';
import { browserAvailable, checkPage, ensureAdminBuilt, launch, screenshot, signInOperator } from './admin-support.js';
import { newContext } from './browser.js';

/**
 * Four-eyes in the console: a finance operator's credit above FOUR_EYES_THRESHOLD is "sent
 * for approval" and changes nothing, until another finance operator approves it from the
 * home page (on a phone, in Indonesian); the requester sees it as theirs, with no approve.
 */
describe.skipIf(!browserAvailable).each(storeKinds())('operator console: four-eyes (%s)', (kind) => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    ensureAdminBuilt();
    t = await startTestApp(kind, { env: { FOUR_EYES_THRESHOLD: '1000000' } });
    await t.platform.operator.operators.ensureFirst();
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const balance = async () => Number((await t.platform.database.db.selectFrom('resellers').select('balance').where('id', '=', t.demo.resellerId).executeTakeFirstOrThrow()).balance);
  const signedInAs = async (roles: OperatorRole[], opts: { lang?: 'en' | 'id'; phone?: boolean } = {}): Promise<Page> => {
    const o = await t.platform.operator.operators.create(`${roles.join('-')}-${kind}-${Math.random().toString(16).slice(2, 8)}@example.com`, roles.join(' '), undefined, roles);
    const page = await (await newContext(browser, t.origin, opts)).newPage();
    await signInOperator(page, o, opts.lang ?? 'en');
    return page;
  };

  it("a finance operator's credit above the threshold waits until another operator approves it", async () => {
    const start = await balance();
    const asker = await signedInAs(['finance']);
    await asker.goto(`/admin/resellers/${t.demo.resellerId}/wallet`);
    await asker.getByLabel(/^Amount/).fill('2500000');
    await asker.getByLabel('Note', { exact: true }).fill('bank transfer 0042, large');
    await asker.getByRole('button', { name: 'Credit', exact: true }).click();
    await asker.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const sent = asker.getByTestId('sent-for-approval');
    await sent.waitFor();
    expect(await sent.innerText()).toContain('Sent for approval');
    await asker.getByRole('dialog').waitFor({ state: 'detached' });
    await checkPage(asker, 'credit sent for approval');
    if (kind === 'sqlite') await screenshot(asker, 'admin-four-eyes-sent');
    expect(await balance()).toBe(start);

    // The requester's own request on the home page: marked as theirs, no approve button.
    await asker.goto('/admin/');
    const mine = asker.getByTestId('pending-approvals');
    await mine.getByText('bank transfer 0042, large').waitFor();
    expect(await mine.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await mine.innerText()).toContain('yours: another operator decides');

    // Another finance operator, on a phone, in Indonesian, approves it from the home page.
    const approver = await signedInAs(['finance'], { lang: 'id', phone: true });
    await approver.goto('/admin/');
    const card = approver.getByTestId('pending-approvals');
    await card.getByText('bank transfer 0042, large').waitFor();
    await checkPage(approver, 'home with a pending approval (id, phone)');
    if (kind === 'sqlite') await screenshot(approver, 'admin-four-eyes-home-phone-id');
    await card.getByRole('button', { name: 'Setujui' }).click();
    await approver.getByRole('dialog').getByRole('button', { name: 'Setujui' }).click();
    const outcome = approver.getByTestId('approval-outcome');
    await outcome.waitFor();
    await approver.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await outcome.innerText()).toContain('Disetujui dan diterapkan');
    expect(await balance()).toBe(start + 2_500_000);

    // The approvals page lists it as approved, with both people.
    await asker.goto('/admin/four-eyes');
    await asker.locator('.mantine-SegmentedControl-label', { hasText: /^Approved$/ }).click();
    const row = asker.getByRole('row').filter({ hasText: 'bank transfer 0042, large' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/approved/i);
    await checkPage(asker, 'approvals page');
    if (kind === 'sqlite') await screenshot(asker, 'admin-four-eyes-approvals');
    await asker.context().close();
    await approver.context().close();
  }, 180_000);
});
