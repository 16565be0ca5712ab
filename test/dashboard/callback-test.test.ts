import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { approve, expectDeclared, generateKey, registerAccount } from '../support/dashboard.js';
import { startReceiver } from '../support/receiver.js';
import { storeKinds } from '../support/stores.js';

describe.each(storeKinds())('dashboard test callback (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('delivers a signed sample callback now and answers what the receiver said', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const a = await registerAccount(t);
      await approve(t, a.id);
      const key = await generateKey(t, a.client);
      await a.client.put('/me/callback-url', { callback_url: receiver.url });
      const r = await a.client.post('/callback-url/test');
      expectDeclared(t, 'POST', '/callback-url/test', r);
      expect(r.body.data).toMatchObject({ delivered: true, url: receiver.url, http_status: 200, response_excerpt: 'answer 200', error: null });
      expect(r.body.data.duration_ms).toBeGreaterThanOrEqual(0);
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      // The receiver checked it against the documented webhook (close() fails otherwise); the signature verifies with the key's secret.
      expect(got.headers['x-signature']).toBe(sign(key.response.body.data.api_secret, String(got.headers['x-timestamp']), got.rawBody));
      expect(JSON.parse(got.rawBody)).toEqual(r.body.data.payload);
      expect(r.body.data.payload).toMatchObject({ status: 'success', product_code: 'TEST-100' });
      expect(r.body.data.payload.ref_id).toMatch(/^test-callback-/);
      expect(r.body.data.headers['x-signature']).toBe(got.headers['x-signature']);
      // Nothing is stored as an order's delivery.
      const deliveries = await t.platform.database.db.selectFrom('callback_deliveries').select('id').where('reseller_id', '=', a.id).execute();
      expect(deliveries).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that answers 500 is reported, not an error of the request', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const a = await registerAccount(t);
      await approve(t, a.id);
      await generateKey(t, a.client);
      await a.client.put('/me/callback-url', { callback_url: receiver.url });
      const r = await a.client.post('/callback-url/test');
      expectDeclared(t, 'POST', '/callback-url/test', r);
      expect(r.body.data).toMatchObject({ delivered: false, http_status: 500, response_excerpt: 'answer 500', error: 'HTTP 500' });
    } finally {
      await receiver.close();
    }
  });

  it('needs a callback URL and a key; is throttled to 10 a minute', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const a = await registerAccount(t);
      const noUrl = await a.client.post('/callback-url/test');
      expectJsonError(noUrl, 409, 'INVALID_STATE');
      expect(noUrl.body.message).toContain('callback URL');
      await a.client.put('/me/callback-url', { callback_url: receiver.url });
      const noKey = await a.client.post('/callback-url/test');
      expectJsonError(noKey, 409, 'INVALID_STATE');
      expect(noKey.body.message).toContain('API key');
      await approve(t, a.id);
      await generateKey(t, a.client);
      for (let i = 0; i < 10; i++) expect((await a.client.post('/callback-url/test')).body.data.delivered).toBe(true);
      const over = await a.client.post('/callback-url/test');
      expectJsonError(over, 429, 'TOO_MANY_ATTEMPTS');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(receiver.received).toHaveLength(10);
      expectJsonError(await a.client.post('/callback-url/test', { url: 'http://169.254.169.254/' }), 400, 'VALIDATION_ERROR');
    } finally {
      await receiver.close();
    }
  });
});

describe.each(storeKinds())('dashboard test callback under production SSRF rules (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { CALLBACK_ALLOW_PRIVATE_TARGETS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('a URL that now points at a private address is refused at connect time, like a real callback', async () => {
    const a = await registerAccount(t);
    await approve(t, a.id);
    await generateKey(t, a.client);
    // Stored while allowed (e.g. the rules changed since): the delivery rules still apply.
    await t.platform.database.db.updateTable('resellers').set({ callback_url: 'http://127.0.0.1:9/cb' }).where('id', '=', a.id).execute();
    const r = await a.client.post('/callback-url/test');
    expectDeclared(t, 'POST', '/callback-url/test', r);
    expect(r.body.data).toMatchObject({ delivered: false, http_status: null });
    expect(r.body.data.error).toMatch(/private|loopback|reserved/i);
  });
});
