import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { operationsOf } from '../support/openapi.js';

type Doc = Record<string, any>;

/** How each sample language runs: its interpreter and the file name it gets. */
const RUNNERS: Record<string, { file: string; command: (file: string) => string[]; probe: string[] }> = {
  Shell: { file: 'sample.sh', command: (f) => ['bash', f], probe: ['openssl', 'version'] },
  JavaScript: { file: 'sample.mjs', command: (f) => [process.execPath, f], probe: [process.execPath, '--version'] },
  PHP: { file: 'sample.php', command: (f) => ['php', f], probe: ['php', '-r', 'exit(function_exists("curl_init") ? 0 : 1);'] },
  Python: { file: 'sample.py', command: (f) => ['python3', f], probe: ['python3', '--version'] },
};

function run(command: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/**
 * Every API v1 operation's `x-codeSamples` (curl + openssl, the SDK, PHP, Python), taken
 * from the served document and run as shipped against the service: each answers the
 * success envelope, so each signed the bytes it sent.
 */
describe('API v1 code samples run against the service', () => {
  let t: TestApp;
  let doc: Doc;
  let dir: string;
  let refId: string;
  let receiver: http.Server;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true, env: { CALLBACK_ALLOW_PRIVATE_TARGETS: 'true' } });
    doc = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
    receiver = http.createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    await t.platform.setCallbackUrl.execute(t.demo.resellerId, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`);
    // The order the samples that read one (and resend its callback) are pointed at.
    refId = uniqueRef('sample');
    expect((await t.client.post('/order', { ref_id: refId, product_code: 'FF-100', target: '123456789' })).status).toBe(200);
    await waitForTerminal(t.client, refId);
    // JavaScript samples import the SDK: they run from inside the repository (its workspace package).
    dir = mkdtempSync(path.join(path.resolve('test/docs'), '.samples-'));
  });
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => receiver?.close(r));
    await t?.close();
  });

  it('every operation has one sample per language', () => {
    for (const { method, path: p, op } of operationsOf(doc)) {
      expect(op['x-codeSamples']?.map((s: Doc) => s.lang), `${method} ${p}`).toEqual(['Shell', 'JavaScript', 'PHP', 'Python']);
    }
  });

  for (const lang of Object.keys(RUNNERS)) {
    const runner = RUNNERS[lang]!;
    const absent = spawnSync(runner.probe[0]!, runner.probe.slice(1), { stdio: 'ignore' }).status !== 0;
    const test = absent && !process.env.REQUIRE_ALL_SUITES ? it.skip : it;
    test(`every ${lang} sample answers the success envelope`, async () => {
      expect(absent, `${runner.probe[0]} is missing`).toBe(false);
      const env = { TOPUP_BASE_URL: t.baseUrl, TOPUP_API_KEY: t.demo.apiKey, TOPUP_API_SECRET: t.demo.apiSecret, TOPUP_REF_ID: refId };
      let ran = 0;
      for (const { method, path: p, op } of operationsOf(doc)) {
        const sample = (op['x-codeSamples'] as Doc[]).find((s) => s.lang === lang)!;
        const file = path.join(dir, runner.file);
        writeFileSync(file, sample.source);
        const r = await run(runner.command(file), dir, env);
        const where = `${lang} sample of ${method.toUpperCase()} ${p}:\n${sample.source}\n--- out: ${r.out}\n--- err: ${r.err}`;
        expect(r.code, where).toBe(0);
        const answer = JSON.parse(r.out.trim().split('\n').pop()!);
        expect(answer.success, where).toBe(true);
        if (p === '/order-status') expect(answer.data.ref_id).toBe(refId);
        ran++;
      }
      expect(ran).toBe(11);
    }, 120_000);
  }
});
