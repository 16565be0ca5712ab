import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type ApiResponse } from '../support/client.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient, registerAccount } from '../support/dashboard.js';
import { operatorClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';
import { STRICT_TRANSPORT_SECURITY } from '../../src/http/app.js';

/**
 * Issue 43 item 10: the answers of the three JSON APIs say they are what they declare
 * (nosniff), and in production every answer keeps browsers on HTTPS.
 */
describe.each(storeKinds())('security headers of the JSON APIs (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('every answer of API v1, /admin/v1 and /dashboard/v1, success or error, carries X-Content-Type-Options: nosniff', async () => {
    const op = await operatorClient(t);
    const shop = await registerAccount(t);
    const answers: [string, ApiResponse][] = [
      ['v1 success', await t.client.get('/balance')],
      ['v1 error', await t.client.get('/balance', { headers: { 'x-signature': 'ab' } })],
      ['v1 not found', await t.client.get('/nowhere')],
      ['admin success', await op.get('/me')],
      ['admin error', await dashboardClient(t).get('/me')],
      ['dashboard success', await shop.client.get('/me')],
      ['dashboard error', await shop.client.post('/whitelist', { ip: 1 })],
      ['router error', await rawRequest(`${t.origin}/admin/v1/orders/${'a'.repeat(300)}`, { method: 'GET' })],
    ];
    for (const [what, r] of answers) {
      expect(r.headers['content-type'], what).toMatch(/^application\/json/);
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
      // Outside production no Strict-Transport-Security: a developer's http://localhost stays reachable.
      expect(r.headers['strict-transport-security'], what).toBeUndefined();
    }
  });
});

describe.each(storeKinds())('Strict-Transport-Security in production (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => t?.close());

  it('every answer carries it: API v1, the session APIs, probes and refusals', async () => {
    const answers: [string, ApiResponse][] = [
      ['v1', await t.client.get('/balance')],
      ['v1 refused', await t.client.get('/balance', { headers: { 'x-api-key': 'nope' } })],
      ['admin sign-in refused', await rawRequest(`${t.origin}/admin/v1/auth/sign-in`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })],
      ['dashboard unauthenticated', await rawRequest(`${t.origin}/dashboard/v1/me`, { method: 'GET' })],
      ['readiness', await rawRequest(`${t.origin}/livez`, { method: 'GET' })],
      ['router error', await rawRequest(`${t.origin}/admin/v1/orders/${'a'.repeat(300)}`, { method: 'GET' })],
      ['bad percent-encoding', await rawRequest(`${t.origin}/admin/v1/orders/%E0%A4%A`, { method: 'GET' })],
    ];
    for (const [what, r] of answers) {
      expect(r.status, what).toBeLessThan(500);
      expect(r.headers['strict-transport-security'], what).toBe(STRICT_TRANSPORT_SECURITY);
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
    }
  });
});

describe('the shipped Caddyfile', () => {
  it('sends Strict-Transport-Security with the servers\' value', () => {
    const caddy = readFileSync('deploy/Caddyfile', 'utf8');
    expect(caddy).toMatch(new RegExp(`^\\s*header Strict-Transport-Security "${STRICT_TRANSPORT_SECURITY}"$`, 'm'));
  });
});
