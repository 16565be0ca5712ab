import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dashboardClient } from '../support/dashboard.js';
import { operatorClient, type JsonClient } from '../support/json-client.js';
import { storeKinds } from '../support/stores.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(storeKinds())('reseller invitations: the operator invites, the reseller sets its password (%s)', (kind) => {
  let t: TestApp;
  let op: JsonClient;
  let now = Date.now();
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { PUBLIC_BASE_URL: 'https://topup.example/', SESSION_TTL_MINUTES: '43200' }, overrides: { clock: { now: () => now } } });
    op = await operatorClient(t);
  });
  afterAll(async () => t?.close());

  let n = 0;
  const newReseller = async () => {
    const email = `invited-${++n}@example.com`;
    const r = await op.post('/resellers', { name: `Invited ${n}`, email, approve: true });
    expect(r.status, r.text).toBe(200);
    return { id: r.body.data.id as string, email };
  };
  const accept = (token: string, password: string) => dashboardClient(t).post('/auth/accept-invitation', { token, password });
  const invitations = async (id: string) => {
    const r = await op.get(`/resellers/${id}/invitations`);
    expect(r.status, r.text).toBe(200);
    return r.body.data.invitations as any[];
  };
  // The test's clock stands still unless moved: each invitation a millisecond after the last, so newest-first is defined.
  const invite = async (id: string) => {
    now += 1;
    const r = await op.post(`/resellers/${id}/invitations`);
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };

  it('an operator-made reseller cannot sign in until it accepts its invitation; then it is signed in and can sign in again', async () => {
    const r = await newReseller();
    expectJsonError(await dashboardClient(t).post('/auth/sign-in', { email: r.email, password: 'any password 1' }), 401, 'INVALID_CREDENTIALS');

    const inv = await op.post(`/resellers/${r.id}/invitations`, { note: 'onboarding call' });
    expect(inv.status, inv.text).toBe(200);
    const { token, link } = inv.body.data;
    expect(inv.body.data).toMatchObject({ reseller_id: r.id, email: r.email });
    expect(link).toBe(`https://topup.example/dashboard/accept-invitation?token=${token}`);
    expect(Date.parse(inv.body.data.expires_at) - Date.parse(inv.body.data.created_at)).toBe(7 * DAY);
    // Stored hashed: the token is nowhere in the store.
    const rows = await t.platform.database.db.selectFrom('reseller_invitations').selectAll().where('reseller_id', '=', r.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await invitations(r.id)).map((i) => i.state)).toEqual(['open']);

    const ok = await accept(token, 'my chosen password');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ reseller_id: r.id, token: expect.stringMatching(/^rss_/) });
    const me = await dashboardClient(t, ok.body.data.token).get('/me');
    expect(me.body.data).toMatchObject({ id: r.id, email: r.email, status: 'active' });
    expect((await dashboardClient(t).signIn(r.email, 'my chosen password')).status).toBe(200);
    expect((await invitations(r.id))[0]).toMatchObject({ state: 'used', used_at: expect.any(String) });

    // Used once: the same token now answers the stable error, and the password stays.
    expectJsonError(await accept(token, 'another password 2'), 400, 'INVALID_INVITATION');
    expectJsonError(await dashboardClient(t).post('/auth/sign-in', { email: r.email, password: 'another password 2' }), 401, 'INVALID_CREDENTIALS');

    const audit = await t.platform.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', r.id).where('action', '=', 'reseller.invite').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.note).toBe('onboarding call');
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('an unknown, expired, revoked or superseded token answers one stable error and changes nothing', async () => {
    const r = await newReseller();
    const first = (await invite(r.id));
    const second = (await invite(r.id)); // revokes the first
    const before = await t.platform.database.db.selectFrom('resellers').select(['password_hash', 'updated_at']).where('id', '=', r.id).executeTakeFirstOrThrow();
    expectJsonError(await accept(first.token, 'long enough password'), 400, 'INVALID_INVITATION');
    expectJsonError(await accept('inv_not-a-real-token', 'long enough password'), 400, 'INVALID_INVITATION');
    expect((await invitations(r.id)).map((i) => [i.id, i.state])).toEqual([[second.id, 'open'], [first.id, 'revoked']]);

    // Revoked by the operator.
    const revoked = await op.delete(`/resellers/${r.id}/invitations/${second.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: second.id, state: 'revoked', revoked_at: expect.any(String) });
    expectJsonError(await op.delete(`/resellers/${r.id}/invitations/${second.id}`), 409, 'INVALID_STATE');
    expectJsonError(await op.delete(`/resellers/${r.id}/invitations/nope`), 404, 'NOT_FOUND');
    const messages = new Set<string>();
    const refused = await accept(second.token, 'long enough password');
    expectJsonError(refused, 400, 'INVALID_INVITATION');
    messages.add(refused.body.message);

    // Expired after 7 days.
    const third = (await invite(r.id));
    now += 7 * DAY + 1;
    try {
      expect((await invitations(r.id))[0]).toMatchObject({ id: third.id, state: 'expired' });
      const expired = await accept(third.token, 'long enough password');
      expectJsonError(expired, 400, 'INVALID_INVITATION');
      messages.add(expired.body.message);
      expectJsonError(await op.delete(`/resellers/${r.id}/invitations/${third.id}`), 409, 'INVALID_STATE');
    } finally {
      now = Date.now();
    }
    expect(messages.size).toBe(1);
    const after = await t.platform.database.db.selectFrom('resellers').select(['password_hash', 'updated_at']).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(after.password_hash).toBeNull();
  });

  it('a too-short password is refused without using the token up; accepting ends other sessions of the account', async () => {
    const r = await newReseller();
    const first = (await invite(r.id));
    expectJsonError(await accept(first.token, 'short'), 400, 'VALIDATION_ERROR');
    expectJsonError(await dashboardClient(t).post('/auth/accept-invitation', { token: first.token, password: 'long enough password', email: r.email }), 400, 'VALIDATION_ERROR');
    expect((await accept(first.token, 'long enough password')).status).toBe(200);
    const other = await t.platform.core.sessions.open('reseller', r.id);
    // A second invitation (a support desk's password reset) replaces the password and ends every session.
    const again = (await invite(r.id));
    const ok = await accept(again.token, 'second password here');
    expect(ok.status).toBe(200);
    expectJsonError(await dashboardClient(t, other.token).get('/me'), 401, 'UNAUTHENTICATED');
    expect((await dashboardClient(t, ok.body.data.token).get('/me')).status).toBe(200);
  });

  it('two accepts racing with one token: exactly one wins, the other gets the stable error', async () => {
    const r = await newReseller();
    const inv = await invite(r.id);
    const answers = await Promise.all([accept(inv.token, 'first racer password'), accept(inv.token, 'second racer password')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const loser = answers.find((a) => a.status === 400)!;
    expectJsonError(loser, 400, 'INVALID_INVITATION');
    const winner = answers.find((a) => a.status === 200)!;
    const password = winner === answers[0] ? 'first racer password' : 'second racer password';
    const hash = (await t.platform.core.repos.accounts.resellerLogin(r.email))!.password_hash!;
    expect(await t.platform.core.hasher.verify(password, hash)).toBe(true);
  });

  it('answers NOT_FOUND for an unknown reseller', async () => {
    expectJsonError(await op.post('/resellers/nope/invitations'), 404, 'NOT_FOUND');
    expectJsonError(await op.get('/resellers/nope/invitations'), 404, 'NOT_FOUND');
    expectJsonError(await op.delete('/resellers/nope/invitations/x'), 404, 'NOT_FOUND');
  });

  it('throttles accepting per address: past 10 a minute even a valid token is refused', async () => {
    const r = await newReseller();
    const inv = (await invite(r.id));
    // Earlier tests used part of this minute's allowance for this address: use up the rest.
    for (let i = 0; i < 10; i++) {
      const res = await accept(`inv_guess-${i}`, 'long enough password');
      if (res.status === 429) break;
      expectJsonError(res, 400, 'INVALID_INVITATION');
    }
    const refused = await accept(inv.token, 'long enough password');
    expectJsonError(refused, 429, 'TOO_MANY_ATTEMPTS');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await invitations(r.id))[0].state).toBe('open');
  });
});
