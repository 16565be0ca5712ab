import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { randomTarget, startDigiflazzService, type DigiflazzService } from '../support/digiflazz-service.js';
import type { JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import type { FakeDigiflazz } from '../support/fake-digiflazz.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, f: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The supplier circuit breaker through the whole service, with the worker running and short
 * settings (cool-down 300 ms, one probe order): an outage at the fake Digiflazz (every
 * connection reset) opens the breaker and the gate refuses new orders; probes during the
 * outage fail and re-open it; when the outage ends the breaker goes half-open and closes by
 * itself, every order in flight is delivered once, and new orders are taken again, with no
 * restart. An operator reset closes it at once and is audited.
 */
describe.each(storeKinds())('digiflazz circuit breaker through the whole service (%s)', (kind) => {
  let svc: DigiflazzService;
  let t: TestApp;
  let fake: FakeDigiflazz;
  let op: JsonClient;
  let supplierId = '';
  const db = () => t.platform.database.db;
  const supplier = async () => (await op.get('/suppliers')).body.data.suppliers.find((s: { id: string }) => s.id === supplierId);
  const place = (ref = uniqueRef('brk')) => t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: randomTarget() }).then((r) => ({ ref, r }));

  beforeAll(async () => {
    ({ t, fake, op, supplierId } = svc = await startDigiflazzService(kind, {
      products: [{ buyer_sku_code: 'FF100', price: 13_000, unlimited_stock: true }],
      env: { SUPPLIER_BREAKER_COOLDOWN_MS: '300', SUPPLIER_BREAKER_PROBE_ORDERS: '1', FULFIL_POLL_MS: '100' },
    }));
    // FF-100 only at Digiflazz.
    await svc.routeOnly('FF-100', 'FF100', 13_000);
  });
  afterAll(async () => svc?.close());

  it('an outage opens the breaker; when it ends the breaker heals by itself and orders in flight are delivered once', async () => {
    expect((await supplier()).breaker).toMatchObject({ state: 'closed', reason: null, since: null });
    fake.outage = true;
    // Each submission gets its connection reset: an unknown outcome, asked about again.
    const inFlight: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { ref, r } = await place();
      expect(r.status, r.text).toBe(200);
      inFlight.push(ref);
      const id = r.body.data.order_id as string;
      await until('the submission to fail', async () => (await db().selectFrom('jobs').select('attempts').where('payload', 'like', `%${id}%`).executeTakeFirst())?.attempts);
    }
    const open = await until('the breaker to open', async () => ((await supplier()).breaker.state === 'open' ? supplier() : null));
    expect(open.breaker.reason).toMatch(/^3 failures or unknown outcomes in a row/);
    expect(open.breaker.since).toEqual(expect.any(String));
    const refused = await place();
    expect(refused.r.status).toBe(503);
    expect(refused.r.body.error).toBe('ORDER_FAILED_SUPPLIER_GATE');
    expect((await t.client.get(`/order-status?ref_id=${refused.ref}`)).status).toBe(404);

    // Probes during the outage fail: open again for another cool-down, the cause named.
    const reopened = await until('a failed probe', async () => ((await supplier()).breaker.reason?.startsWith('probe failed') ? supplier() : null));
    expect(reopened.breaker).toMatchObject({ state: 'open', reason: expect.stringContaining('the balance call did not answer') });
    expect(reopened.breaker.probe_at).toEqual(expect.any(String));
    for (const ref of inFlight) expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('processing');

    fake.outage = false;
    // No restart: the next probe answers (half-open), and new orders are taken again.
    const accepted = await until('the gate to take orders again', async () => {
      const { ref, r } = await place();
      return r.status === 200 ? ref : null;
    });
    expect((await waitForTerminal(t.client, accepted)).status).toBe('success');
    const closed = await until('the breaker to close', async () => ((await supplier()).breaker.state === 'closed' ? supplier() : null));
    expect(closed.breaker).toMatchObject({ reason: '1 probe orders answered', probe_at: null });
    expect(closed.health).toMatchObject({ consecutive_failures: 0, last_error: null });
    for (const ref of inFlight) expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    // Each order bought once, none refunded.
    const ids = await db().selectFrom('orders').select('id').where('ref_id', 'in', inFlight).execute();
    for (const { id } of ids) expect(fake.transactions.get(id)?.status).toBe('Sukses');
    expect(await db().selectFrom('ledger_entries').select('id').where('type', '=', 'order_refund').where('order_id', 'in', ids.map((x) => x.id)).execute()).toEqual([]);
    const more = await place();
    expect(more.r.status).toBe(200);
    expect((await waitForTerminal(t.client, more.ref)).status).toBe('success');
  });

  // rc 51: a final failure of the transaction; rc 43: the call refused, nothing stored. Both are the supplier answering.
  for (const rc of ['51', '43']) {
    it(`a probe order the supplier refuses (rc ${rc}) is an answer too: the half-open breaker closes, never stuck with its slot used`, async () => {
      await db().updateTable('supplier_health').set({ breaker: 'half_open', breaker_reason: 'test', breaker_since: Date.now(), breaker_retry_at: null, probe_orders: 0, probe_answers: 0 }).where('supplier_id', '=', supplierId).execute();
      const target = randomTarget();
      fake.behaviours.set(target, { kind: 'rc', rc, status: 'Gagal', message: 'Ditolak' });
      const ref = uniqueRef('brk');
      expect((await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target })).status).toBe(200);
      expect((await waitForTerminal(t.client, ref)).status).toBe('failed');
      expect((await supplier()).breaker).toMatchObject({ state: 'closed', reason: '1 probe orders answered' });
    });
  }

  it('an operator resets an open breaker: orders are taken at once, and the reset is audited', async () => {
    // Open with a long cool-down: it would not heal by itself within the test.
    await db().updateTable('supplier_health').set({ breaker: 'open', breaker_reason: 'the supplier reports maintenance', breaker_since: Date.now(), breaker_retry_at: Date.now() + 3_600_000 }).where('supplier_id', '=', supplierId).execute();
    expect((await place()).r.status).toBe(503);
    const missing = await op.post('/suppliers/no-such-supplier/breaker/reset', {});
    expect(missing.status).toBe(404);
    const reset = await op.post(`/suppliers/${supplierId}/breaker/reset`, {});
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data.breaker).toMatchObject({ state: 'closed', reason: 'reset by an operator', since: expect.any(String) });
    const { ref, r } = await place();
    expect(r.status, r.text).toBe(200);
    expect((await waitForTerminal(t.client, ref)).status).toBe('success');
    const audit = await op.get(`/audit?target_id=${supplierId}&action=supplier.breaker_reset`);
    expect(audit.body.data.entries, audit.text).toHaveLength(1);
    expect(audit.body.data.entries[0]).toMatchObject({ target_kind: 'supplier', before: { breaker: 'open', reason: 'the supplier reports maintenance' }, after: { breaker: 'closed', reason: 'reset by an operator' } });
  });
});
