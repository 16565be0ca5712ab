import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { freePort } from '../support/ports.js';

interface Example { name: string; tools: string[]; command: string[] }

const EXAMPLES: Example[] = [
  { name: 'TypeScript (SDK)', tools: [], command: [process.execPath, '--import', 'tsx', 'examples/typescript/place-order.ts'] },
  { name: 'Python (standard library)', tools: ['python3'], command: ['python3', 'examples/python/place_order.py'] },
  { name: 'PHP (curl extension)', tools: ['php'], command: ['php', 'examples/php/place-order.php'] },
  { name: 'shell (curl + openssl + socat)', tools: ['bash', 'curl', 'openssl', 'socat'], command: ['bash', 'examples/shell/place-order.sh'] },
];

/** What each example needs besides its interpreter. */
const CHECKS: Record<string, string[]> = { php: ['php', '-r', 'exit(function_exists("curl_init") ? 0 : 1);'] };
const missing = (tools: string[]) =>
  tools.filter((t) => {
    const probe = CHECKS[t] ?? (t === 'openssl' ? [t, 'version'] : t === 'socat' ? [t, '-V'] : [t, '--version']);
    return spawnSync(probe[0]!, probe.slice(1), { stdio: 'ignore' }).status !== 0;
  });

function run(command: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: path.resolve('.'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/**
 * Every example under examples/ runs against the service, exactly as its README says: it
 * places an order, polls it until final and verifies the callback on its own listener. The
 * service allows loopback callback URLs here (CALLBACK_ALLOW_PRIVATE_TARGETS, as in every
 * non-production environment); production refuses them (SSRF rules).
 */
describe('examples/ run against the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true, env: { CALLBACK_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(async () => t?.close());

  for (const example of EXAMPLES) {
    const absent = missing(example.tools);
    // CI (REQUIRE_ALL_SUITES) installs every tool: there a missing one fails instead of skipping.
    const test = absent.length && !process.env.REQUIRE_ALL_SUITES ? it.skip : it;
    test(`${example.name}: places an order, polls it until final, verifies its callback`, async () => {
      expect(absent, `missing tools for the ${example.name} example`).toEqual([]);
      const port = await freePort();
      await t.platform.setCallbackUrl.execute(t.demo.resellerId, `http://127.0.0.1:${port}/callback`);
      const refId = uniqueRef('example');
      const before = (await t.client.get('/balance')).body.data.balance;
      const { code, out } = await run(example.command, {
        TOPUP_BASE_URL: t.baseUrl, TOPUP_API_KEY: t.demo.apiKey, TOPUP_API_SECRET: t.demo.apiSecret,
        TOPUP_CALLBACK_PORT: String(port), TOPUP_REF_ID: refId, TOPUP_WAIT_SECONDS: '40',
      });
      expect(code, out).toBe(0);
      expect(out).toMatch(/balance: \d+ IDR/);
      expect(out).toContain(`order placed: ref_id=${refId}`);
      expect(out).toMatch(/final status: success/);
      expect(out).toMatch(new RegExp(`callback verified: ref_id=${refId} status=success`));
      expect(out).not.toContain(t.demo.apiSecret);
      const status = await t.client.get(`/order-status?ref_id=${refId}`);
      expect(status.body.data).toMatchObject({ status: 'success', product_code: 'FF-100' });
      expect((await t.client.get('/balance')).body.data.balance).toBe(before - status.body.data.price);
      // The example's listener answered the first attempt with a 2xx: no retry will follow.
      let delivery;
      for (let waited = 0; (delivery = (await t.client.get(`/callbacks?ref_id=${refId}`)).body.data.deliveries[0])?.status !== 'delivered'; waited += 50) {
        if (waited > 10_000) throw new Error(`callback not delivered: ${JSON.stringify(delivery)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(delivery.attempt_log.map((a: { http_status: number | null }) => a.http_status)).toEqual([200]);
    }, 120_000);
  }
});
