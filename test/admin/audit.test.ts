import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('operator API: audit log (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  it('records who did what, newest first, with filters and paging; never a password', async () => {
    const me = (await op.get('/me')).body.data;
    const added = await op.post('/operators', { email: 'auditor@example.com', name: 'Auditor', roles: ['support'] });
    expect(added.status).toBe(200);
    const second = new JsonClient(op.baseUrl);
    await second.signIn('auditor@example.com', added.body.data.password);
    const reseller = (await second.post('/resellers', { name: 'Audited', email: 'audited@example.com' })).body.data;
    await op.post(`/resellers/${reseller.id}/approve`, { tier: 'gold', note: 'looks fine' });
    await op.post(`/resellers/${reseller.id}/wallet/credit`, { amount: 500, note: 'welcome bonus' });

    const all = await op.get('/audit');
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.entries.map((e: any) => e.action)).toEqual(['wallet.credit', 'reseller.approve', 'reseller.create', 'operator.create']);
    expect(all.text).not.toContain(added.body.data.password);
    const op1 = all.body.data.entries.find((e: any) => e.action === 'operator.create');
    expect(op1).toMatchObject({ operator_id: me.id, operator_email: me.email, target_kind: 'operator', target_id: added.body.data.id, before: null, after: { email: 'auditor@example.com', name: 'Auditor' } });
    expect(Date.parse(op1.created_at)).not.toBeNaN();

    const bySecond = await op.get(`/audit?operator_id=${added.body.data.id}`);
    expect(bySecond.body.data.entries.map((e: any) => e.action)).toEqual(['reseller.create']);
    expect(bySecond.body.data.entries[0].operator_email).toBe('auditor@example.com');
    expect((await op.get('/audit?target_kind=reseller')).body.meta.total).toBe(3);
    expect((await op.get(`/audit?target_kind=reseller&target_id=${reseller.id}&action=reseller.approve`)).body.data.entries).toEqual([
      expect.objectContaining({ note: 'looks fine', target_label: reseller.name, before: expect.objectContaining({ status: 'pending' }), after: expect.objectContaining({ status: 'active' }) }),
    ]);
    expect(op1.target_label).toBeNull();
    const page2 = await op.get('/audit?limit=3&page=2');
    expect(page2.body.meta).toMatchObject({ total: 4, page: 2, limit: 3, total_pages: 2, has_more: false });
    expect(page2.body.data.entries.map((e: any) => e.action)).toEqual(['operator.create']);
  });

  it('refuses bad paging, unknown filters and missing sessions', async () => {
    expectJsonError(await op.get('/audit?limit=101'), 400, 'INVALID_PAGINATION');
    const unknown = await op.get('/audit?who=me');
    expectJsonError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.message).toContain("unknown field 'who'");
    expectJsonError(await new JsonClient(op.baseUrl).get('/audit'), 401, 'UNAUTHENTICATED');
  });
});
