import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { startTestApp, uniqueRef, waitForTerminal, type TestApp } from '../support/app.js';
import { jsonOf, storeEnv, topup, type CliResult } from '../support/cli.js';
import { closedPort } from '../support/ports.js';

const SLOW = { timeout: 180_000 };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** A stack trace's frames: what an operator must never be shown for a mistake they can fix. */
const STACK = /^\s+at /m;

const usageFailure = (r: CliResult, message: string) => {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.split('\n')[0]).toBe(message);
  expect(r.stderr).toContain('usage: topup ');
  expect(r.stderr).not.toMatch(STACK);
};

describe('topup help, usage mistakes and refused connections', () => {
  const env = { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent/never-created', REDIS_URL: '' };

  it('topup --help (and no command) lists every command and exits 0', SLOW, async () => {
    for (const args of [['--help'], [], ['-h'], ['help']]) {
      const r = await topup(env, ...args);
      expect(r.status, r.stderr).toBe(0);
      for (const name of Object.keys(COMMANDS)) expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    const unknown = await topup(env, 'frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('topup: no command "frobnicate"; `topup --help` lists them\n');
  });

  it('every command has its own --help, which touches no store', SLOW, async () => {
    const names = Object.keys(COMMANDS);
    const results = await Promise.all(names.map((name) => topup(env, name, '--help')));
    results.forEach((r, i) => {
      expect(r.status, `${names[i]}: ${r.stderr}`).toBe(0);
      expect(r.stdout.startsWith(`Usage: topup ${names[i]}`)).toBe(true);
    });
    expect((await topup(env, 'help', 'credit')).stdout).toContain('--note TEXT');
  });

  it('a missing argument, option or variable is named; an unknown option or a value not allowed is too', SLOW, async () => {
    usageFailure(await topup(env, 'credit'), 'topup credit: missing EMAIL');
    usageFailure(await topup(env, 'credit', 'shop@example.com', '5'), 'topup credit: missing --note TEXT');
    usageFailure(await topup(env, 'credit', 'shop@example.com', '5', '--note'), 'topup credit: --note needs a value (TEXT)');
    usageFailure(await topup(env, 'refund', 'ORD-1', '--note', 'x', '--colour', 'red'), 'topup refund: unknown option --colour');
    usageFailure(await topup(env, 'reseller-approve', 'a@example.com', '--tier', 'bronze'), 'topup reseller-approve: --tier must be gold or platinum or diamond, not "bronze"');
    usageFailure(await topup(env, 'catalog-add', 'One', 'Two'), 'topup catalog-add: unexpected argument "Two"');
    usageFailure(await topup({ ...env, TOPUP_API_KEY: '' }, 'call', 'GET', '/products'), 'topup call: missing TOPUP_API_KEY (environment)');
  });

  it('a refused connection is one line naming where, exit 1, no stack', SLOW, async () => {
    const port = await closedPort();
    const db = await topup({ ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/topup` }, 'attention');
    expect(db.status).toBe(1);
    expect(db.stderr.trim()).toBe(`topup attention: cannot connect to 127.0.0.1:${port}: connection refused; is PostgreSQL running, and DATABASE_URL right?`);
    const service = await topup({ ...env, TOPUP_API_KEY: 'tk_x', TOPUP_API_SECRET: 'ts_x', TOPUP_BASE_URL: `http://127.0.0.1:${port}/api/v1` }, 'call', 'GET', '/products');
    expect(service.status).toBe(1);
    expect(service.stderr.trim()).toBe(`topup call: cannot connect to 127.0.0.1:${port}: connection refused; is \`topup serve\` running there? (TOPUP_BASE_URL)`);
  });
});

// SQLite: the commands are the subject here; the services behind them run on both stores elsewhere.
describe('topup output: ISO 8601 times, and a resend without a callback URL says it is skipped (sqlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { worker: true });
  });
  afterAll(async () => t?.close());

  it('resend-callback says "skipped: no callback URL"; callback-log shows ISO times', SLOW, async () => {
    const ref = uniqueRef();
    const placed = await t.client.post('/order', JSON.stringify({ ref_id: ref, product_code: 'FF-100', target: '123456789' }));
    expect(placed.status, placed.text).toBe(200);
    await waitForTerminal(t.client, ref);
    const code = placed.body.data.order_code;
    const human = await topup(storeEnv(t.store), 'resend-callback', code);
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout.trim()).toMatch(new RegExp(`^round 2 for order ${placed.body.data.order_id}: skipped: no callback URL \\(set one with \`topup callback-url\`\\) \\(request id cli-[0-9a-f-]{36}\\)$`));
    expect(jsonOf(await topup(storeEnv(t.store), 'resend-callback', code, '--json'))).toEqual({
      order_id: placed.body.data.order_id, round: 3, queued: false, skipped: 'no callback URL', request_id: expect.stringMatching(/^cli-[0-9a-f-]{36}$/),
    });
    const log = jsonOf(await topup(storeEnv(t.store), 'callback-log', code));
    expect(log.length).toBeGreaterThan(0);
    const times = log.flatMap((d: any) => [d.created_at, d.updated_at, ...d.attempt_log.map((a: any) => a.started_at)]).filter((x: unknown) => x !== null && x !== undefined);
    expect(times.length).toBeGreaterThan(0);
    for (const at of times) expect(at).toMatch(ISO);
    const refresh = await topup(storeEnv(t.store), 'supply-refresh');
    expect(refresh.stdout).toMatch(/^supply refreshed at \d{4}-\d\d-\d\dT[\d:.]+Z: /);
  });
});
