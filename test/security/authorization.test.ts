import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/domain/signature.js';
import type { RouteDoc } from '../../src/http/json-api.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient, operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

/** A concrete URL for a documented path: placeholder values for every {param}. */
const concrete = (r: RouteDoc) => r.path.replace(/\{(\w+)\}/g, (_, name) => `walk-${name}`);

/**
 * The authorization walk: every route of the operator and dashboard APIs, as the registry
 * declares them (so a route added later is walked too), called with the wrong identities.
 */
describe.each(storeKinds())('authorization walk (%s)', (kind) => {
  let t: TestApp;
  let operator: JsonClient;
  let resellerToken: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    operator = await operatorClient(t);
    resellerToken = (await t.platform.core.sessions.open('reseller', t.demo.resellerId)).token;
  });
  afterAll(async () => t?.close());

  const walk = (api: 'admin' | 'dashboard') => t.platform.routes.of(api).filter((r) => r.auth);

  it('the registry holds the routes of both APIs', () => {
    expect(walk('admin').length).toBeGreaterThan(2);
    expect(t.platform.routes.of('dashboard').length).toBeGreaterThan(1);
  });

  it('every operator route refuses no session, a forged token, a reseller session and reseller API credentials', async () => {
    const anonymous = new JsonClient(t.origin);
    const forged = new JsonClient(t.origin, 'ops_forged-token');
    const asReseller = new JsonClient(t.origin, resellerToken);
    for (const r of walk('admin')) {
      const url = concrete(r);
      const body = r.method === 'GET' ? undefined : {};
      expectJsonError(await anonymous.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      expectJsonError(await forged.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      expectJsonError(await asReseller.request(r.method, url, body), 403, 'FORBIDDEN');
      // The reseller's HMAC API key is no credential here.
      const ts = String(Date.now());
      const hmac = { 'x-api-key': t.demo.apiKey, 'x-timestamp': ts, 'x-signature': sign(t.demo.apiSecret, ts, body ? '{}' : '') };
      expectJsonError(await anonymous.request(r.method, url, body, hmac), 401, 'UNAUTHENTICATED');
    }
  });

  it('every dashboard route refuses no session, a forged token and an operator session', async () => {
    const anonymous = new JsonClient(t.origin);
    const forged = new JsonClient(t.origin, 'rss_forged-token');
    const asOperator = new JsonClient(t.origin, operator.token);
    for (const r of walk('dashboard')) {
      const url = concrete(r);
      const body = r.method === 'GET' ? undefined : {};
      expectJsonError(await anonymous.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      expectJsonError(await forged.request(r.method, url, body), 401, 'UNAUTHENTICATED');
      expectJsonError(await asOperator.request(r.method, url, body), 403, 'FORBIDDEN');
    }
  });

  it('a session token does not open API v1, which takes only its signed API keys', async () => {
    const r = await new JsonClient(`${t.origin}/api/v1`, resellerToken).get('/balance');
    expectJsonError(r, 401, 'INVALID_API_KEY');
  });
});
