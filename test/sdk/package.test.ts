import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, renderTypes } from '../../packages/client/scripts/render-types.js';

const PKG = path.resolve('packages/client');

describe('@topup/reseller-client as built and packed', () => {
  it('its generated types are those of the reseller OpenAPI document as the service builds it now', async () => {
    const onDisk = readFileSync(GENERATED_FILE, 'utf8');
    // Stale after a change to the API's declarations: `npm run build:client` regenerates.
    expect(onDisk === (await renderTypes()), 'packages/client/src/generated/openapi.ts is stale: run npm run build:client').toBe(true);
    const built = readFileSync(path.join(PKG, 'dist/generated/openapi.d.ts'), 'utf8');
    for (const p of ['"/order"', '"/order-status"', 'orderCallback']) expect(built).toContain(p);
  });

  it('npm pack ships the compiled code, its types and the README, with no runtime dependencies', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PKG, encoding: 'utf8' }));
    const files: string[] = pack.files.map((f: { path: string }) => f.path);
    for (const f of ['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/handlers.d.ts', 'dist/generated/openapi.d.ts',
      'dist/testing.js', 'dist/cjs/package.json', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/testing.js']) expect(files).toContain(f);
    expect(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'package.json'].includes(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(PKG, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.engines.node).toBe('>=18');
    // The version the SDK reports (User-Agent) is the package's.
    expect(readFileSync(path.join(PKG, 'src/version.ts'), 'utf8')).toContain(`'${manifest.version}'`);
  });

  it('the packed tarball, unpacked into a bare project, imports (ESM) and requires (CommonJS) and signs in plain Node (no TypeScript, no build tools)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdk-consumer-'));
    try {
      const [pack] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: PKG, encoding: 'utf8' }));
      const target = path.join(dir, 'node_modules/@topup/reseller-client');
      mkdirSync(target, { recursive: true });
      execFileSync('tar', ['-xzf', path.join(dir, pack.filename), '-C', target, '--strip-components=1']);
      const script = `
        import { TopupClient, verifyCallback, signRequest, fetchCallbackHandler } from '@topup/reseller-client';
        const ts = String(Date.now());
        const body = '{"ref_id":"r"}';
        const v = await verifyCallback(body, { 'X-Timestamp': ts, 'X-Signature': await signRequest('k', ts, body) }, 'k');
        new TopupClient({ baseUrl: 'http://x/api/v1', apiKey: 'a', apiSecret: 'b' });
        console.log(JSON.stringify({ ok: v.ok, handler: typeof fetchCallbackHandler({ secret: 'k', onCallback() {} }) }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({ ok: true, handler: 'function' });
      // As on Node 18, where WebCrypto is node:crypto's and not yet a global.
      const withoutGlobal = `Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });${script}`;
      const noGlobal = execFileSync(process.execPath, ['--input-type=module', '-e', withoutGlobal], { cwd: dir, encoding: 'utf8' });
      expect(JSON.parse(noGlobal)).toEqual({ ok: true, handler: 'function' });
      // CommonJS: require() from a .cjs file gets the same API (the package's "require" condition).
      const cjs = `
        const { TopupClient, verifyCallback, signRequest, TopupApiError } = require('@topup/reseller-client');
        const { SANDBOX_TARGETS } = require('@topup/reseller-client/testing');
        (async () => {
          const ts = String(Date.now());
          const v = await verifyCallback('{"ref_id":"r"}', { 'X-Timestamp': ts, 'X-Signature': await signRequest('k', ts, '{"ref_id":"r"}') }, 'k');
          new TopupClient({ baseUrl: 'http://x/api/v1', apiKey: 'a', apiSecret: 'b' });
          console.log(JSON.stringify({ ok: v.ok, error: typeof TopupApiError, target: SANDBOX_TARGETS.SUCCESS }));
        })();`;
      writeFileSync(path.join(dir, 'consumer.cjs'), cjs);
      const fromCjs = execFileSync(process.execPath, ['consumer.cjs'], { cwd: dir, encoding: 'utf8' });
      expect(JSON.parse(fromCjs)).toEqual({ ok: true, error: 'function', target: '123456789' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
