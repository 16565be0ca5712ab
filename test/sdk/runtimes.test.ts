import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { freePort } from '../support/ports.js';

/**
 * The SDK's promise of Node 18+, Deno, Bun and edge runtimes, kept: its built bundle
 * (packages/client/dist, as published) runs test/sdk/runtimes/scenario.mjs in Deno, in Bun
 * and in workerd (Cloudflare Workers' runtime) against the real service. The runtimes come
 * from npm (devDependencies), so `npm ci` installs them. workerd runs without Node
 * compatibility: no process, no Buffer, no node: modules, so an SDK that used one fails here.
 * Node itself is covered by the other SDK tests.
 */
const RUNTIMES = path.resolve('test/sdk/runtimes');
const SDK_DIST = path.resolve('packages/client/dist');
const bin = (name: string) => path.resolve('node_modules/.bin', name);

interface Input { baseUrl: string; apiKey: string; apiSecret: string; refId: string; callbackFeed: string }
type Outcome = { ok: true; result: Record<string, any> } | { ok: false; error: string };

/**
 * The callback URL of the demo reseller: keeps each delivered callback's raw body and
 * headers, and hands them out on GET /feed?ref_id=… (held until that order's callback came).
 */
async function callbackFeed() {
  const received = new Map<string, { body: string; headers: Record<string, string> }>();
  const waiting = new Map<string, ((c: { body: string; headers: Record<string, string> }) => void)[]>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    if (req.method === 'POST' && url.pathname === '/callback') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const ref = JSON.parse(body).ref_id as string;
      if (!received.has(ref)) received.set(ref, { body, headers });
      for (const give of waiting.get(ref) ?? []) give(received.get(ref)!);
      waiting.delete(ref);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const ref = url.searchParams.get('ref_id') ?? '';
    const answer = (c: { body: string; headers: Record<string, string> }) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(c));
    const got = received.get(ref);
    if (got) answer(got);
    else waiting.set(ref, [...(waiting.get(ref) ?? []), answer]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    callbackUrl: `${origin}/callback`,
    feedUrl: `${origin}/feed`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** Runs cli.mjs with the input on stdin (not argv: it holds the API secret); its last line is the outcome. */
async function runCli(command: string, args: string[], input: Input): Promise<Outcome> {
  const child = spawn(command, [...args, path.join(RUNTIMES, 'cli.mjs')], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 45_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  child.stdin.end(JSON.stringify(input));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${path.basename(command)} exited ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** Deno with network access to 127.0.0.1 only, and no config, lockfile, npm or remote modules. */
const deno = (input: Input) =>
  runCli(bin('deno'), ['run', '--allow-net=127.0.0.1', '--no-config', '--no-lock', '--no-npm', '--no-remote'], input);

const bun = (input: Input) => runCli(bin('bun'), ['run', '--no-install'], input);

/** The modules of the SDK's build, named as the worker imports them (sdk/index.js, sdk/client.js, …). */
function sdkModules(sdkDir: string, configDir: string): string {
  const files = readdirSync(sdkDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  expect(files).toContain('index.js');
  return files.map((f) => `(name = "sdk/${f.split(path.sep).join('/')}", esModule = embed "${path.relative(configDir, path.join(sdkDir, f))}")`).join(',\n        ');
}

/**
 * workerd serving the scenario worker on a free port; its only way out is to loopback
 * addresses (the service and the callback feed). No compatibility flags: web APIs only.
 */
async function workerd(input: Input, sdkDir = SDK_DIST): Promise<Outcome> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sdk-workerd-'));
  const port = await freePort();
  const rel = (f: string) => path.relative(dir, path.join(RUNTIMES, f));
  writeFileSync(path.join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = (
      modules = [
        (name = "worker.mjs", esModule = embed "${rel('worker.mjs')}"),
        (name = "scenario.mjs", esModule = embed "${rel('scenario.mjs')}"),
        ${sdkModules(sdkDir, dir)}
      ],
      compatibilityDate = "2025-06-01",
      globalOutbound = "loopback",
    )),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`);
  let stderr = '';
  const child: ChildProcess = spawn(bin('workerd'), ['serve', path.join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (c: Buffer) => void (stderr += c.toString()));
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`workerd exited ${child.exitCode}: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify(input) });
        return (await res.json()) as Outcome;
      } catch (err) {
        // Not listening yet; a worker that failed to load makes workerd exit, caught above.
        if (tries > 200) throw new Error(`workerd did not answer: ${stderr}`, { cause: err });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('@topup/reseller-client in Deno, Bun and an edge runtime (workerd), against the service', () => {
  let t: TestApp;
  let feed: Awaited<ReturnType<typeof callbackFeed>>;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true });
    feed = await callbackFeed();
    await t.platform.setCallbackUrl.execute(t.demo.resellerId, feed.callbackUrl);
  });
  afterAll(async () => {
    await t?.close();
    await feed?.close();
  });

  const runtimes: [string, (input: Input) => Promise<Outcome>, { webOnly: boolean }][] = [
    ['Deno', deno, { webOnly: false }],
    ['Bun', bun, { webOnly: false }],
    ['workerd', workerd, { webOnly: true }],
  ];

  it.each(runtimes)('%s: places a signed order, reads it back, and verifies its callback', async (name, runtime, { webOnly }) => {
    const refId = uniqueRef(`sdk-${name.toLowerCase()}`);
    const outcome = await runtime({ baseUrl: t.baseUrl, apiKey: t.demo.apiKey, apiSecret: t.demo.apiSecret, refId, callbackFeed: feed.feedUrl });
    if (!outcome.ok) throw new Error(`${name}: ${outcome.error}`);
    const r = outcome.result;
    expect(r.placed).toMatchObject({ ref_id: refId, status: 'processing', recovered: false });
    expect(r.placed.order_code).toMatch(/^ORD-[0-9A-F]{12}$/);
    expect(r.status).toEqual({ ref_id: refId, order_code: r.placed.order_code });
    expect(r.final).toEqual({ ref_id: refId, status: 'success' });
    // The service agrees: the order the runtime signed is this reseller's.
    const stored = await t.client.get(`/order-status?ref_id=${refId}`);
    expect(stored.body.data).toMatchObject({ ref_id: refId, order_code: r.placed.order_code, status: 'success' });

    expect(r.callbackRef).toBe(refId);
    expect(r.verified).toMatchObject({ ok: true, ref_id: refId, status: 'success' });
    expect(r.verified.callbackId).toBeTruthy();
    expect(r.tampered).toEqual({ ok: false, reason: 'bad_signature' });
    expect(r.wrongSecret).toEqual({ ok: false, reason: 'bad_signature' });
    expect(r.handler).toEqual({ status: 200, body: { ok: true }, handled: [refId] });
    expect(r.apiError).toEqual({ isTopupApiError: true, code: 'PRODUCT_NOT_FOUND', status: 404 });
    // The edge runtime really is web APIs only, so the run above proves the SDK needs nothing else.
    if (webOnly) expect(r.nodeGlobals).toEqual({ process: 'undefined', Buffer: 'undefined', require: 'undefined' });
  }, 60_000);

  /** The built SDK with one of its modules rewritten, in a temporary directory. */
  function alteredSdk(file: string, edit: (source: string) => string): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdk-altered-'));
    cpSync(SDK_DIST, dir, { recursive: true });
    const source = readFileSync(path.join(dir, file), 'utf8');
    const edited = edit(source);
    expect(edited).not.toBe(source);
    writeFileSync(path.join(dir, file), edited);
    return dir;
  }

  it('workerd fails an SDK that uses Buffer or imports node:crypto, so the run above would catch one', async () => {
    const input = { baseUrl: t.baseUrl, apiKey: t.demo.apiKey, apiSecret: t.demo.apiSecret, refId: uniqueRef('sdk-node-api'), callbackFeed: feed.feedUrl };
    const usesBuffer = alteredSdk('crypto.js', (s) => s.replace('export function toHex(bytes) {', "export function toHex(bytes) {\n    return Buffer.from(bytes).toString('hex');"));
    const importsNodeCrypto = alteredSdk('crypto.js', (s) => `import { createHmac } from 'node:crypto';\n${s}`);
    try {
      expect(await workerd(input, usesBuffer)).toEqual({ ok: false, error: expect.stringMatching(/Buffer is not defined/) });
      await expect(workerd(input, importsNodeCrypto)).rejects.toThrow(/node:crypto/);
    } finally {
      for (const dir of [usesBuffer, importsNodeCrypto]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
