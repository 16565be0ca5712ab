import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, webApp } from '../../src/http/routes/web-app.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ensureWebBuilt } from './browser.js';

/** How the service serves the built dashboard (no browser needed). */
describe('serving the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    ensureWebBuilt();
    t = await startTestApp('sqlite');
  }, 180_000);
  afterAll(async () => t?.close());

  it('/ redirects to /dashboard/, /dashboard to /dashboard/', async () => {
    for (const [from, to] of [['/', '/dashboard/'], ['/dashboard', '/dashboard/']]) {
      const r = await fetch(`${t.origin}${from}`, { redirect: 'manual' });
      expect(r.status, from).toBe(302);
      expect(r.headers.get('location')).toBe(to);
    }
  });

  it('app paths that are no file get index.html (no-cache) with a strict CSP and no inline script', async () => {
    for (const path of ['/dashboard/', '/dashboard/orders/123?state=failed', '/dashboard/settings/api-keys']) {
      const r = await fetch(`${t.origin}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('same-origin');
      const html = await r.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son\w+=/);
    }
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/base-uri 'none'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/form-action 'self'/);
  });

  it('hashed assets are immutable for a year and gzipped on request; a missing one is a 404', async () => {
    const html = await (await fetch(`${t.origin}/dashboard/`)).text();
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const r = await fetch(`${t.origin}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect((await fetch(`${t.origin}/dashboard/assets/gone-123.js`)).status).toBe(404);
  });

  it('the APIs keep their JSON 404 (and 405): the app never shadows them', async () => {
    for (const path of ['/dashboard/v1/no-such-route', '/dashboard/v1', '/nope', '/admin/v1/nothing']) {
      const r = await fetch(`${t.origin}${path}`);
      expect(r.status, path).toBe(404);
      expect((await r.json()).error).toBe('NOT_FOUND');
    }
    const sessionGet = await fetch(`${t.origin}/dashboard/v1/auth/sign-in`);
    expect(sessionGet.status).toBe(405);
  });

  it('without a build, the app paths say how to build it (503), the API is untouched', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(empty, 'dashboard'));
    writeFileSync(join(empty, 'dashboard', 'readme.txt'), 'no index.html here');
    const app = Fastify();
    await app.register(webApp({ app: 'dashboard', distDir: empty }));
    const r = await app.inject({ method: 'GET', url: '/dashboard/orders' });
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain('npm run build:web');
    await app.close();
    rmSync(empty, { recursive: true, force: true });
  });
});
