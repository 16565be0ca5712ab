import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_PER_MINUTE } from '../../src/services/auth-failures.js';
import { expectError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ResellerClient } from '../support/client.js';
import { createReseller } from '../support/resellers.js';
import { createTestStore, REDIS_URL, type TestStore } from '../support/stores.js';

async function burn(client: TestApp['client'], n: number) {
  let last;
  for (let i = 0; i < n; i += 25) {
    const batch = await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => client.get('/balance')));
    last = batch[batch.length - 1];
  }
  return last!;
}

describe('rate limits (in-memory, per account, by tier)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('Gold allows 300 GETs a minute, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const r = await createReseller(t.platform, t.baseUrl, { balance: 1_000_000 });
    const first = await r.client.get('/balance');
    expect(first.headers['x-ratelimit-limit']).toBe('300');
    expect(first.headers['x-ratelimit-remaining']).toBe('299');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    const last = await burn(r.client, 299);
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const over = await r.client.get('/products');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body.request_id).toBe(over.headers['x-request-id']);

    // POST /order is exempt: still accepted, and it shows the account's state.
    const order = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '1' });
    expect(order.status, order.text).toBe(200);
    expect(order.headers['x-ratelimit-remaining']).toBe('0');
    expect(order.headers['x-ratelimit-limit']).toBe('300');
    // So are the other POSTs: the spec's limits are for GET endpoints.
    const validation = await r.client.post('/validation', { category_slug: 'free-fire', fields: { user_id: '123456789' } });
    expect(validation.status, validation.text).toBe(200);
    expect((await r.client.post('/check-status', { ref_id: 'never-placed' })).status).toBe(404);
    expect((await r.client.post('/callbacks/resend', { ref_id: 'never-placed' })).status).toBe(404);
  });

  it('the limit follows the tier, and accounts are counted separately', async () => {
    const diamond = await createReseller(t.platform, t.baseUrl, { tier: 'diamond' });
    const platinum = await createReseller(t.platform, t.baseUrl, { tier: 'platinum' });
    expect((await diamond.client.get('/balance')).headers['x-ratelimit-limit']).toBe('1200');
    const p = await platinum.client.get('/balance');
    expect(p.headers['x-ratelimit-limit']).toBe('600');
    expect(p.headers['x-ratelimit-remaining']).toBe('599');
  });
});

describe.skipIf(!REDIS_URL)('rate limits shared through Redis', () => {
  let store: TestStore;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    store = await createTestStore('sqlite');
    a = await startTestApp('sqlite', { store, env: { REDIS_URL } });
    b = await startTestApp('sqlite', { store, env: { REDIS_URL }, seed: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.drop();
  });

  it('two servers on one Redis count one window per reseller', async () => {
    const r = await createReseller(a.platform, a.baseUrl);
    const onB = new (r.client.constructor as any)(b.baseUrl, r.apiKey, r.apiSecret) as typeof r.client;
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`*reseller:${r.id}*`);
      if (keys.length) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    await burn(r.client, 150);
    const viaB = await onB.get('/balance');
    expect(viaB.status).toBe(200);
    expect(viaB.headers['x-ratelimit-remaining']).toBe(String(300 - 151));
    await burn(onB, 149);
    const over = await r.client.get('/balance');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('RATE_LIMIT_EXCEEDED');
    expect((await onB.get('/balance')).status).toBe(429);
  });
});

describe('failed authentications are limited apart from the tier limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy, so each request can come from an address of the test's choice.
    t = await startTestApp('sqlite', { env: { TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(async () => t?.close());

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  /** A request with a valid key and a fresh timestamp but a signature made without the secret. */
  const forged = (c: ResellerClient, ip: string) => c.get('/balance', { headers: { 'x-forwarded-for': ip, 'x-signature': 'f'.repeat(64) } });

  it("300 forged GETs from a whitelisted address do not spend the reseller's limit; that address is slowed down instead", async () => {
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['198.51.100.7', '198.51.100.8'] });
    const answers = [];
    for (let i = 0; i < 300; i += 30) answers.push(...(await Promise.all(Array.from({ length: 30 }, () => forged(r.client, '198.51.100.7')))));
    expect(answers.slice(0, AUTH_FAILURES_PER_MINUTE.ip).every((a) => a.status === 401 && a.body.error === 'INVALID_SIGNATURE')).toBe(true);
    const refused = answers.slice(AUTH_FAILURES_PER_MINUTE.ip);
    expect(refused.every((a) => a.status === 429 && a.body.error === 'TOO_MANY_ATTEMPTS' && Number(a.headers['retry-after']) > 0)).toBe(true);
    // Blocked means blocked: a correct signature from that address gets no verdict either.
    expectError(await r.client.get('/balance', from('198.51.100.7')), 429, 'TOO_MANY_ATTEMPTS');
    // The reseller's own server: every request of its tier's limit is still there.
    const real = await r.client.get('/balance', from('198.51.100.8'));
    expect(real.status).toBe(200);
    expect(real.headers['x-ratelimit-remaining']).toBe('299');
  });

  it('the key is blocked once its allowance is spent from several whitelisted addresses; non-whitelisted ones never spend it', async () => {
    const ips = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: [...ips, '203.0.113.9'] });
    // From addresses the key's whitelist does not allow: refused there, the key untouched.
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      for (let i = 0; i < 25; i++) expectError(await forged(r.client, ip), 403, 'IP_NOT_WHITELISTED');
    }
    expect((await r.client.get('/balance', from('203.0.113.9'))).status).toBe(200);
    // Over the key's allowance, spread below each address's own.
    const perIp = Math.ceil((AUTH_FAILURES_PER_MINUTE.key + 1) / ips.length);
    expect(perIp).toBeLessThanOrEqual(AUTH_FAILURES_PER_MINUTE.ip);
    for (const ip of ips) for (let i = 0; i < perIp; i++) await forged(r.client, ip);
    const blocked = await r.client.get('/balance', from('203.0.113.9'));
    expectError(blocked, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Other keys at the same address are not.
    const other = await createReseller(t.platform, t.baseUrl, { whitelist: ['203.0.113.9'] });
    expect((await other.client.get('/balance', from('203.0.113.9'))).status).toBe(200);
  });

  it('guessing keys from one address is slowed down the same way, on POST as on GET', async () => {
    const guesser = new ResellerClient(t.baseUrl, 'tk_not_a_key', 'no secret');
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE.ip; i++) expectError(await guesser.post('/order', { ref_id: 'x' }, from('192.0.2.50')), 401, 'INVALID_API_KEY');
    expectError(await guesser.post('/order', { ref_id: 'x' }, from('192.0.2.50')), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await guesser.get('/balance', from('192.0.2.50')), 429, 'TOO_MANY_ATTEMPTS');
    // The demo reseller, whitelisted on the proxy's own address, is not affected.
    expect((await t.client.get('/balance')).status).toBe(200);
  });
});
