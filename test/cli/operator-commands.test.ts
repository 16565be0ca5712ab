import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';

const BIN = path.resolve('bin/topup.js');
/** Each command is a new node + tsx process (a second or more on a busy machine). */
const SLOW = { timeout: 120_000 };

// SQLite only: every command starts a process (seconds each); the services behind them run on
// both stores in test/admin/*.
describe.each(['sqlite'] as const)('topup operator commands (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  /** Runs the real CLI as an operator would, on the test's store. */
  function topup(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const env = { ...process.env, NODE_ENV: 'test', DATA_DIR: t.store.dataDir, DATABASE_URL: t.store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent', REDIS_URL: '' };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }
  const json = (r: { status: number | null; stdout: string; stderr: string }) => {
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('operator-add prints the password once and it signs in; audited as cli', SLOW, async () => {
    const out = json(await topup('operator-add', 'ops2@example.com', 'Second', 'Operator', '--json'));
    expect(out).toMatchObject({ email: 'ops2@example.com', password: expect.any(String) });
    const c = new JsonClient(`${t.origin}/admin/v1`);
    expect((await c.signIn('ops2@example.com', out.password)).status).toBe(200);
    const human = await topup('operator-add', 'ops3@example.com', 'Third');
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/password \(shown once\): \S+/);
    const dup = await topup('operator-add', 'ops2@example.com', 'Again');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('already exists');

    const { entries } = await t.platform.core.repos.audit.list({ targetId: out.id, limit: 10, offset: 0 });
    expect(entries).toEqual([expect.objectContaining({ operatorId: 'cli', action: 'operator.create' })]);
    expect(JSON.stringify(entries)).not.toContain(out.password);
  });

  it('reseller-create, reseller-approve, credit and debit go through the services and the ledger', SLOW, async () => {
    const created = json(await topup('reseller-create', 'cli-reseller@example.com', 'CLI', 'Shop', '--json'));
    expect(created).toMatchObject({ email: 'cli-reseller@example.com', name: 'CLI Shop', status: 'pending', tier: 'gold' });
    const approved = json(await topup('reseller-approve', 'cli-reseller@example.com', '--tier', 'diamond', '--json'));
    expect(approved).toMatchObject({ status: 'active', tier: 'diamond' });
    const again = await topup('reseller-approve', 'cli-reseller@example.com', '--tier', 'gold');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('only a pending reseller');

    const instant = json(await topup('reseller-create', 'cli-now@example.com', 'Now', '--tier', 'platinum', '--approve', 'true', '--json'));
    expect(instant).toMatchObject({ status: 'active', tier: 'platinum' });

    expect(json(await topup('credit', 'cli-reseller@example.com', '250000', '--note', 'first deposit', '--json'))).toMatchObject({ type: 'credit', amount: 250000, balance: 250000 });
    expect(json(await topup('debit', 'cli-reseller@example.com', '50000', '--note', 'fee', '--json'))).toMatchObject({ type: 'debit', amount: -50000, balance: 200000 });
    const tooMuch = await topup('debit', 'cli-reseller@example.com', '999999', '--note', 'nope');
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toContain('nothing was changed');
    expect(await t.platform.repos.ledger.balance(created.id)).toBe(200000);

    const noNote = await topup('credit', 'cli-reseller@example.com', '5');
    expect(noNote.status).toBe(2);
    expect(noNote.stderr).toContain('usage: topup credit');
    const unknown = await topup('credit', 'nobody@example.com', '5', '--note', 'x');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no reseller with email');

    const { entries } = await t.platform.core.repos.audit.list({ operatorId: 'cli', targetId: created.id, limit: 10, offset: 0 });
    expect(entries.map((e) => e.action)).toEqual(['wallet.debit', 'wallet.credit', 'reseller.approve', 'reseller.create']);
    await ledgerConsistent(t.platform.database.db);
  });

  it('credit with --idempotency-key applies once: the same key and arguments print the first result; other arguments are refused', SLOW, async () => {
    const r = json(await topup('reseller-create', 'cli-idem@example.com', 'Idem', '--approve', 'true', '--json'));
    const key = `cli-${uniqueRef()}`;
    const first = json(await topup('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--idempotency-key', key, '--json'));
    expect(first).toMatchObject({ type: 'credit', amount: 700, balance: 700, replayed: false });
    const again = json(await topup('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--idempotency-key', key, '--json'));
    expect(again).toEqual({ ...first, replayed: true });
    const other = await topup('credit', 'cli-idem@example.com', '800', '--note', 'transfer 42', '--idempotency-key', key);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain('different request');
    // Without a key each run is its own change.
    json(await topup('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--json'));
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(1400);
    await ledgerConsistent(t.platform.database.db);
  });

  it('refund takes an ORD- code or an id, once', SLOW, async () => {
    const ref = uniqueRef();
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(placed.status, placed.text).toBe(200);
    const out = json(await topup('refund', placed.body.data.order_code, '--note', 'operator goodwill', '--json'));
    expect(out).toMatchObject({ order_id: placed.body.data.order_id, status: 'refunded', refunded: 15000 });
    const second = await topup('refund', placed.body.data.order_id, '--note', 'again');
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('refunded order is final');
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('refunded');
    const { entries } = await t.platform.core.repos.audit.list({ operatorId: 'cli', action: 'order.refund', limit: 10, offset: 0 });
    expect(entries).toEqual([expect.objectContaining({ targetId: placed.body.data.order_id, note: 'operator goodwill' })]);
    await ledgerConsistent(t.platform.database.db);
  });
});
