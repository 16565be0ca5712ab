import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
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
