import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, storeEnv, topup } from '../support/cli.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';

/** Each command is a new process (a second or more on a busy machine). */
const SLOW = { timeout: 120_000 };

// SQLite only: every command starts a process (seconds each); the services behind them run on
// both stores in test/admin/*.
describe.each(['sqlite'] as const)('topup operator commands (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  /** The real CLI as an operator runs it, on the test's store. */
  const run = (...args: string[]) => topup(storeEnv(t.store), ...args);
  const json = jsonOf;

  it('operator-add prints the password once and it signs in; audited as cli', SLOW, async () => {
    expect(await t.platform.core.repos.accounts.operatorCount()).toBe(0);
    const out = json(await run('operator-add', 'ops2@example.com', 'Second', 'Operator', '--json'));
    // The installation's first operator is owner, whatever was asked.
    expect(out).toMatchObject({ email: 'ops2@example.com', password: expect.any(String), roles: ['owner'] });
    const c = new JsonClient(`${t.origin}/admin/v1`);
    expect((await c.signIn('ops2@example.com', out.password)).status).toBe(200);
    const human = await run('operator-add', 'ops3@example.com', 'Third');
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toContain('with roles viewer');
    expect(human.stdout).toMatch(/password \(shown once\): \S+/);
    const dup = await run('operator-add', 'ops2@example.com', 'Again');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('already exists');

    const { entries } = await t.platform.core.repos.audit.list({ targetId: out.id, limit: 10, offset: 0 });
    expect(entries).toEqual([expect.objectContaining({ operatorId: 'cli', action: 'operator.create' })]);
    expect(JSON.stringify(entries)).not.toContain(out.password);
  });

  it('operator-two-factor-off turns off a lost two-factor sign-in, audited as cli', SLOW, async () => {
    const { totpCode } = await import('../../src/domain/two-factor.js');
    const o = await t.platform.operator.operators.create('lost-phone@example.com', 'Lost', undefined, ['finance']);
    const tf = t.platform.core.twoFactor;
    const { secret } = await tf.startEnrolment('operator', o.id, o.email);
    await tf.confirmEnrolment('operator', o.id, totpCode(secret, Date.now()), '127.0.0.1');
    expect(await tf.enabled('operator', o.id)).toBe(true);
    expect(json(await run('operator-two-factor-off', 'lost-phone@example.com', '--json'))).toMatchObject({ email: 'lost-phone@example.com', was_on: true });
    expect(await tf.enabled('operator', o.id)).toBe(false);
    const again = await run('operator-two-factor-off', 'lost-phone@example.com');
    expect(again.stdout).toContain('had no two-factor sign-in');
    const { entries } = await t.platform.core.repos.audit.list({ targetId: o.id, limit: 10, offset: 0 });
    expect(entries).toEqual(expect.arrayContaining([
      expect.objectContaining({ operatorId: o.id, action: 'operator.two_factor_on' }),
      expect.objectContaining({ operatorId: 'cli', action: 'operator.two_factor_off' }),
    ]));
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it('operator-roles sets roles, audited as cli; the last owner keeps owner', SLOW, async () => {
    const accounts = t.platform.core.repos.accounts;
    const added = json(await run('operator-add', 'roles-cli@example.com', 'Roles', '--roles', 'support,viewer', '--json'));
    expect(added.roles).toEqual(['support', 'viewer']);
    expect(json(await run('operator-roles', 'roles-cli@example.com', 'finance,support', '--json'))).toMatchObject({ email: 'roles-cli@example.com', roles: ['finance', 'support'] });
    expect(await accounts.operatorRoles(added.id)).toEqual(expect.arrayContaining(['finance', 'support']));
    const { entries } = await t.platform.core.repos.audit.list({ targetId: added.id, limit: 10, offset: 0 });
    expect(entries).toEqual(expect.arrayContaining([expect.objectContaining({ operatorId: 'cli', action: 'operator.roles', after: { email: 'roles-cli@example.com', roles: ['finance', 'support'] } })]));
    const unknown = await run('operator-roles', 'roles-cli@example.com', 'boss');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown role "boss"');

    // Every owner but one demoted by the CLI: the last one is refused.
    const owners = await accounts.activeHoldersOf('owner');
    const emails = await Promise.all(owners.map(async (id) => (await accounts.operatorById(id))!.email));
    for (const email of emails.slice(1)) expect((await run('operator-roles', email, 'viewer')).status).toBe(0);
    const last = await run('operator-roles', emails[0]!, 'viewer');
    expect(last.status).toBe(1);
    expect(last.stderr).toContain('last owner');
    expect(await accounts.activeHoldersOf('owner')).toEqual([owners[0]]);
  });

  it('reseller-create, reseller-approve, credit and debit go through the services and the ledger', SLOW, async () => {
    const created = json(await run('reseller-create', 'cli-reseller@example.com', 'CLI', 'Shop', '--json'));
    expect(created).toMatchObject({ email: 'cli-reseller@example.com', name: 'CLI Shop', status: 'pending', tier: 'gold' });
    const approved = json(await run('reseller-approve', 'cli-reseller@example.com', '--tier', 'diamond', '--json'));
    expect(approved).toMatchObject({ status: 'active', tier: 'diamond' });
    const again = await run('reseller-approve', 'cli-reseller@example.com', '--tier', 'gold');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('only a pending reseller');

    const instant = json(await run('reseller-create', 'cli-now@example.com', 'Now', '--tier', 'platinum', '--approve', 'true', '--json'));
    expect(instant).toMatchObject({ status: 'active', tier: 'platinum' });

    expect(json(await run('credit', 'cli-reseller@example.com', '250000', '--note', 'first deposit', '--json'))).toMatchObject({ type: 'credit', amount: 250000, balance: 250000 });
    expect(json(await run('debit', 'cli-reseller@example.com', '50000', '--note', 'fee', '--json'))).toMatchObject({ type: 'debit', amount: -50000, balance: 200000 });
    const tooMuch = await run('debit', 'cli-reseller@example.com', '999999', '--note', 'nope');
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toContain('nothing was changed');
    expect(await t.platform.repos.ledger.balance(created.id)).toBe(200000);

    const noNote = await run('credit', 'cli-reseller@example.com', '5');
    expect(noNote.status).toBe(2);
    expect(noNote.stderr).toContain('usage: topup credit');
    const unknown = await run('credit', 'nobody@example.com', '5', '--note', 'x');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no reseller with email');

    const { entries } = await t.platform.core.repos.audit.list({ operatorId: 'cli', targetId: created.id, limit: 10, offset: 0 });
    expect(entries.map((e) => e.action)).toEqual(['wallet.debit', 'wallet.credit', 'reseller.approve', 'reseller.create']);
    await ledgerConsistent(t.platform.database.db);
  });

  it('credit with --idempotency-key applies once: the same key and arguments print the first result; other arguments are refused', SLOW, async () => {
    const r = json(await run('reseller-create', 'cli-idem@example.com', 'Idem', '--approve', 'true', '--json'));
    const key = `cli-${uniqueRef()}`;
    const first = json(await run('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--idempotency-key', key, '--json'));
    expect(first).toMatchObject({ type: 'credit', amount: 700, balance: 700, replayed: false });
    const again = json(await run('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--idempotency-key', key, '--json'));
    expect(again).toEqual({ ...first, replayed: true });
    const other = await run('credit', 'cli-idem@example.com', '800', '--note', 'transfer 42', '--idempotency-key', key);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain('different request');
    // Without a key each run is its own change.
    json(await run('credit', 'cli-idem@example.com', '700', '--note', 'transfer 42', '--json'));
    expect(await t.platform.repos.ledger.balance(r.id)).toBe(1400);
    await ledgerConsistent(t.platform.database.db);
  });

  it('refund takes an ORD- code or an id, once', SLOW, async () => {
    const ref = uniqueRef();
    const placed = await t.client.post('/order', { ref_id: ref, product_code: 'FF-100', target: '123456789' });
    expect(placed.status, placed.text).toBe(200);
    const out = json(await run('refund', placed.body.data.order_code, '--note', 'operator goodwill', '--json'));
    expect(out).toMatchObject({ order_id: placed.body.data.order_id, status: 'refunded', refunded: 15000 });
    const second = await run('refund', placed.body.data.order_id, '--note', 'again');
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('refunded order is final');
    expect((await t.client.get(`/order-status?ref_id=${ref}`)).body.data.status).toBe('refunded');
    const { entries } = await t.platform.core.repos.audit.list({ operatorId: 'cli', action: 'order.refund', limit: 10, offset: 0 });
    expect(entries).toEqual([expect.objectContaining({ targetId: placed.body.data.order_id, note: 'operator goodwill' })]);
    await ledgerConsistent(t.platform.database.db);
  });
});
