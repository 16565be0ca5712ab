import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { ResellerClient, type ApiResponse } from '../support/client.js';
import { createReseller } from '../support/resellers.js';
import { createTestStore, REDIS_URL, storeKinds, type TestStore } from '../support/stores.js';

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
  let allowance: { perIp: number; perKey: number };
  beforeAll(async () => {
    // Behind a trusted proxy, so each request can come from an address of the test's choice.
    t = await startTestApp('sqlite', { env: { TRUSTED_PROXIES: '127.0.0.1', AUTH_FAILURES_PER_IP: '30', AUTH_FAILURES_PER_KEY: '60' } });
    allowance = t.platform.config.authFailures;
  });
  afterAll(async () => t?.close());

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  /** A request with a valid key and a fresh timestamp but a signature made without the secret. */
  const forged = (c: ResellerClient, ip: string) => c.get('/balance', { headers: { 'x-forwarded-for': ip, 'x-signature': 'f'.repeat(64) } });

  it("300 forged GETs from a whitelisted address do not spend the reseller's limit; past the allowance they get 429, valid requests from there do not", async () => {
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: ['198.51.100.7', '198.51.100.8'] });
    const answers = [];
    for (let i = 0; i < 300; i += 30) answers.push(...(await Promise.all(Array.from({ length: 30 }, () => forged(r.client, '198.51.100.7')))));
    expect(answers.slice(0, allowance.perIp).every((a) => a.status === 401 && a.body.error === 'INVALID_SIGNATURE')).toBe(true);
    const refused = answers.slice(allowance.perIp);
    expect(refused.every((a) => a.status === 429 && a.body.error === 'TOO_MANY_ATTEMPTS' && Number(a.headers['retry-after']) > 0)).toBe(true);
    // A correctly signed request from that very address is answered, and so is an order.
    const real = await r.client.get('/balance', from('198.51.100.7'));
    expect(real.status, real.text).toBe(200);
    expect(real.headers['x-ratelimit-remaining']).toBe('299');
    expect((await r.client.get('/balance', from('198.51.100.8'))).headers['x-ratelimit-remaining']).toBe('298');
    // Unknown keys and stale timestamps from there are refused 429 too: no verdict for a guess.
    expectError(await new ResellerClient(t.baseUrl, 'tk_guess', 'x').get('/balance', from('198.51.100.7')), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await r.client.get('/balance', { ...from('198.51.100.7'), timestamp: String(Date.now() - 600_000) }), 429, 'TOO_MANY_ATTEMPTS');
  });

  it("past the key's allowance its failures get 429 from every address; its valid requests, and other keys, are answered", async () => {
    const ips = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];
    const r = await createReseller(t.platform, t.baseUrl, { whitelist: [...ips, '203.0.113.9'], balance: 1_000_000 });
    // From addresses the key's whitelist does not allow: refused there, the key untouched.
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      for (let i = 0; i < 25; i++) expectError(await forged(r.client, ip), 403, 'IP_NOT_WHITELISTED');
    }
    expectError(await forged(r.client, '203.0.113.9'), 401, 'INVALID_SIGNATURE');
    // Over the key's allowance, spread below each address's own.
    const perIp = Math.ceil(allowance.perKey / ips.length);
    expect(perIp).toBeLessThanOrEqual(allowance.perIp);
    for (const ip of ips) for (let i = 0; i < perIp; i++) await forged(r.client, ip);
    const blocked = await forged(r.client, '203.0.113.9');
    expectError(blocked, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The reseller's own servers that sign with the current secret are answered as usual.
    expect((await r.client.get('/balance', from('203.0.113.9'))).status).toBe(200);
    const order = await r.client.post('/order', { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' }, from('203.0.113.1'));
    expect(order.status, order.text).toBe(200);
    // Other keys at the same address are not concerned at all.
    const other = await createReseller(t.platform, t.baseUrl, { whitelist: ['203.0.113.9'] });
    expectError(await forged(other.client, '203.0.113.9'), 401, 'INVALID_SIGNATURE');
    expect((await other.client.get('/balance', from('203.0.113.9'))).status).toBe(200);
  });

  it('guessing keys from one address is slowed down the same way, on POST as on GET', async () => {
    const guesser = new ResellerClient(t.baseUrl, 'tk_not_a_key', 'no secret');
    for (let i = 0; i < allowance.perIp; i++) expectError(await guesser.post('/order', { ref_id: 'x' }, from('192.0.2.50')), 401, 'INVALID_API_KEY');
    expectError(await guesser.post('/order', { ref_id: 'x' }, from('192.0.2.50')), 429, 'TOO_MANY_ATTEMPTS');
    expectError(await guesser.get('/balance', from('192.0.2.50')), 429, 'TOO_MANY_ATTEMPTS');
    // The demo reseller, whitelisted on the proxy's own address, is not affected.
    expect((await t.client.get('/balance')).status).toBe(200);
  });
});

/** A Redis database of this run's own, so its counts of 127.0.0.1 are neither shared nor left over. */
function privateRedisUrl(): string {
  const url = new URL(REDIS_URL);
  url.pathname = `/${1 + Math.floor(Math.random() * 15)}`;
  return url.toString();
}

describe.each(storeKinds())('a flood of failed authentications beside valid traffic from one address (%s, Redis when set)', (kind) => {
  let t: TestApp;
  const allowance = { perIp: 20, perKey: 40 };
  beforeAll(async () => {
    const redisUrl = REDIS_URL ? privateRedisUrl() : '';
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      try {
        const keys = await redis.keys('*authfail*');
        if (keys.length) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
    t = await startTestApp(kind, { env: { REDIS_URL: redisUrl, AUTH_FAILURES_PER_IP: String(allowance.perIp), AUTH_FAILURES_PER_KEY: String(allowance.perKey) } });
  });
  afterAll(async () => t?.close());

  it('hundreds of failures for several keys from 127.0.0.1: every valid order and GET of other resellers and of the same reseller is answered normally', async () => {
    // `attacked` is the reseller whose live key the failures use (a worker with a rotated secret, a stale clock).
    const attacked = await createReseller(t.platform, t.baseUrl, { balance: 10_000_000 });
    const others = [await createReseller(t.platform, t.baseUrl, { balance: 10_000_000 }), await createReseller(t.platform, t.baseUrl, { balance: 10_000_000 })];
    const staleSecret = new ResellerClient(t.baseUrl, attacked.apiKey, 'the rotated secret');
    const unknown = [new ResellerClient(t.baseUrl, 'tk_unknown_1', 'x'), new ResellerClient(t.baseUrl, 'tk_unknown_2', 'x')];
    const order = () => ({ ref_id: uniqueRef('flood'), product_code: 'FF-100', target: '123456789' });
    const failures = () => [
      unknown[0]!.get('/balance'),
      unknown[1]!.post('/order', order()),
      staleSecret.get('/balance'),
      staleSecret.post('/order', order()),
      attacked.client.get('/products', { timestamp: String(Date.now() - 10 * 60_000) }),
      others[0]!.client.get('/balance', { headers: { 'x-signature': '0'.repeat(64) } }),
    ];
    const valid = () => [attacked, ...others].flatMap((r) => [r.client.post('/order', order()), r.client.get('/balance')]);
    const failed: ApiResponse[] = [];
    const answered: ApiResponse[] = [];
    for (let round = 0; round < 50; round++) {
      const [f, v] = await Promise.all([Promise.all(failures()), Promise.all(valid())]);
      failed.push(...f);
      answered.push(...v);
    }
    // 300 failures, 300 valid requests (150 orders): every valid one answered as the spec says.
    expect(failed).toHaveLength(300);
    const wrong = answered.filter((a) => a.status !== 200 || a.body.success !== true);
    expect(wrong.map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(answered.filter((a) => a.body.data?.ref_id).length).toBe(150);
    // The failures: their own codes, until the address's allowance is spent; 429 after.
    const codes = new Set(failed.map((a) => `${a.status} ${a.body.error}`));
    expect([...codes].every((c) => ['401 INVALID_API_KEY', '401 INVALID_SIGNATURE', '400 TIMESTAMP_EXPIRED', '429 TOO_MANY_ATTEMPTS'].includes(c))).toBe(true);
    const refused = failed.filter((a) => a.status === 429);
    expect(failed.length - refused.length).toBe(allowance.perIp);
    expect(refused.every((a) => a.body.error === 'TOO_MANY_ATTEMPTS' && Number(a.headers['retry-after']) > 0)).toBe(true);
    // Still refused after the flood; still answered for the valid.
    expectError(await staleSecret.post('/order', order()), 429, 'TOO_MANY_ATTEMPTS');
    expect((await attacked.client.post('/order', order())).status).toBe(200);
    expect((await others[1]!.client.get('/orders')).status).toBe(200);
  });
});
