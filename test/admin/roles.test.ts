import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayDo, OPERATOR_ROLES, OPERATOR_ROUTES, PERMISSIONS, permissionsOf, type OperatorRole } from '../../src/domain/operator-roles.js';
import { routesOf } from '../../src/http/app.js';
import { openDatabase } from '../../src/store/db.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrate.js';
import { expectJsonError } from '../support/assertions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { JsonClient } from '../support/json-client.js';
import { createTestStore, storeKinds } from '../support/stores.js';

const PREFIX = '/admin/v1';
/** The operator routes anyone may call; everything else under the prefix must be in the roles table. */
const PUBLIC = ['GET /openapi.json', 'POST /auth/sign-in', 'POST /auth/sign-in/two-factor', 'POST /auth/forgot-password', 'POST /auth/reset-password'];

/** Each role alone, and one operator holding two (what it may do is the union). */
const IDENTITIES: OperatorRole[][] = [...OPERATOR_ROLES.map((r) => [r]), ['support', 'catalog']];

describe.each(storeKinds())('operator roles (%s)', (kind) => {
  let t: TestApp;
  const clients = new Map<string, { id: string; client: JsonClient }>();
  /** An operator with these roles and its own session (opened directly: sign-ins are throttled). */
  const operatorWith = async (roles: OperatorRole[], email = `${roles.join('-')}-${Math.random().toString(16).slice(2, 8)}@example.com`) => {
    const o = await t.platform.operator.operators.create(email, roles.join(' '), undefined, roles);
    const s = await t.platform.core.sessions.open('operator', o.id);
    return { id: o.id, email: o.email, client: new JsonClient(`${t.origin}${PREFIX}`, s.token) };
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.platform.operator.operators.ensureFirst();
    for (const roles of IDENTITIES) clients.set(roles.join(','), await operatorWith(roles));
  });
  afterAll(async () => t?.close());

  /** Every route the app serves under /admin/v1, "METHOD /path" after the prefix with {params}. */
  const served = () => [...new Set(routesOf(t.platform.app)
    .filter((r) => r.method !== 'HEAD' && r.url.startsWith(`${PREFIX}/`))
    .map((r) => `${r.method} ${r.url.slice(PREFIX.length).replace(/:(\w+)/g, '{$1}')}`))];

  it('the table holds exactly the served routes: none missing, none stale', () => {
    const guarded = served().filter((r) => !PUBLIC.includes(r));
    expect(guarded.length).toBeGreaterThan(60);
    expect(guarded.filter((r) => !(r in OPERATOR_ROUTES)), 'served but not in OPERATOR_ROUTES').toEqual([]);
    expect(Object.keys(OPERATOR_ROUTES).filter((r) => !guarded.includes(r)), 'in OPERATOR_ROUTES but not served').toEqual([]);
    for (const p of PUBLIC) expect(served()).toContain(p);
  });

  it('a route missing from the table stops the server from starting', async () => {
    const { jsonApi, RouteRegistry } = await import('../../src/http/json-api.js');
    const Fastify = (await import('fastify')).default;
    const app = Fastify();
    const kit = jsonApi(app, { api: 'admin', prefix: PREFIX, sessions: t.platform.core.sessions, registry: new RouteRegistry(), browser: { secureCookies: false, publicOrigin: null }, now: Date.now });
    expect(() => kit.route({ method: 'POST', url: '/suppliers/:id/unlisted', tag: 'Supply', summary: 'x', response: {} as never, handler: async () => ({ data: {} }) }))
      .toThrow(/POST \/suppliers\/\{id\}\/unlisted has no entry in OPERATOR_ROUTES/);
    await app.close();
  });

  it('walks every operator route for every role: allowed or 403 FORBIDDEN_ROLE exactly as the table says', async () => {
    // Sign-out last: it ends the session the walk uses.
    const routes = served().filter((r) => !PUBLIC.includes(r)).sort((a, b) => Number(a === 'POST /auth/sign-out') - Number(b === 'POST /auth/sign-out'));
    let refusals = 0;
    for (const roles of IDENTITIES) {
      const { client } = clients.get(roles.join(','))!;
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string];
        const url = path.replace(/\{(\w+)\}/g, (_, name) => `walk-${name}`);
        // An empty body: an allowed route answers a validation error or not-found at worst, never a change worth undoing.
        const r = await client.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
        const permission = OPERATOR_ROUTES[route]!;
        const label = `${route} as ${roles.join('+')}`;
        if (mayDo(roles, permission)) {
          expect(r.status, `${label} answered ${r.text}`).not.toBe(401);
          expect(r.body?.error, `${label} answered ${r.text}`).not.toBe('FORBIDDEN_ROLE');
        } else {
          refusals += 1;
          expectJsonError(r, 403, 'FORBIDDEN_ROLE');
          expect(r.body.data, label).toBeUndefined();
          for (const may of PERMISSIONS[permission].roles) expect(r.body.message, label).toContain(may);
          expect(r.body.message, label).toContain(`your roles: ${roles.join(', ')}`);
        }
      }
    }
    expect(refusals).toBeGreaterThan(100);
    // Every route for six identities, one request each: more than the default 30 s on a busy machine.
  }, 120_000);

  it('the session says which roles and permissions it holds, and GET /roles serves the table', async () => {
    const { client } = await operatorWith(['finance']);
    const s = await client.get('/auth/session');
    expect(s.status, s.text).toBe(200);
    expect(s.body.data).toMatchObject({ roles: ['finance'], permissions: permissionsOf(['finance']) });
    expect(s.body.data.permissions).toContain('wallet.adjust');
    const table = await client.get('/roles');
    expect(table.status).toBe(200);
    expect(table.body.data.roles.map((r: { name: string }) => r.name)).toEqual([...OPERATOR_ROLES]);
    const wallet = table.body.data.permissions.find((p: { name: string }) => p.name === 'wallet.adjust');
    expect(wallet).toMatchObject({ roles: ['owner', 'finance'], routes: expect.arrayContaining(['POST /admin/v1/resellers/{id}/wallet/credit']) });
  });

  it('the OpenAPI document names the roles of every operation', async () => {
    const doc = (await new JsonClient(`${t.origin}${PREFIX}`).get('/openapi.json')).body;
    for (const [route, permission] of Object.entries(OPERATOR_ROUTES)) {
      const [method, path] = route.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, route).toBeDefined();
      expect(op['x-roles'], route).toEqual([...PERMISSIONS[permission].roles]);
      expect(op.description, route).toMatch(/Roles: /);
    }
    expect(doc.paths['/resellers/{id}/wallet/credit'].post.responses['403']).toBeDefined();
  });

  it("an owner sets another operator's roles: it applies to the open session at once, and it is audited", async () => {
    const owner = await operatorWith(['owner']);
    const target = await operatorWith(['viewer']);
    expectJsonError(await target.client.post('/resellers/walk-id/wallet/credit', { amount: 1, note: 'x' }), 403, 'FORBIDDEN_ROLE');
    const r = await owner.client.put(`/operators/${target.id}/roles`, { roles: ['finance', 'viewer'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ id: target.id, email: target.email, roles: ['finance', 'viewer'] });
    // The same session now may: the route answers on the merits (no such reseller), not 403.
    expectJsonError(await target.client.post('/resellers/walk-id/wallet/credit', { amount: 1, note: 'x' }), 404, 'NOT_FOUND');
    const { entries } = await t.platform.core.repos.audit.list({ targetId: target.id, limit: 10, offset: 0 });
    expect(entries).toEqual(expect.arrayContaining([expect.objectContaining({ operatorId: owner.id, action: 'operator.roles', before: { roles: ['viewer'] }, after: { email: target.email, roles: ['finance', 'viewer'] } })]));
    const listed = (await owner.client.get('/operators')).body.data.operators.find((o: { id: string }) => o.id === target.id);
    expect(listed.roles).toEqual(['finance', 'viewer']);
    // Bad role sets change nothing.
    for (const roles of [[], ['boss'], ['owner', 'root']]) {
      expectJsonError(await owner.client.put(`/operators/${target.id}/roles`, { roles }), 400, 'VALIDATION_ERROR');
    }
    expect(await t.platform.core.repos.accounts.operatorRoles(target.id)).toEqual(expect.arrayContaining(['finance', 'viewer']));
    expectJsonError(await owner.client.put('/operators/nobody/roles', { roles: ['viewer'] }), 404, 'NOT_FOUND');
  });

  it('the last owner cannot be demoted (409 LAST_OWNER); with a second owner it can', async () => {
    // A store of its own: the other tests' owners would not be the last.
    const u = await startTestApp(kind);
    try {
      const first = (await u.platform.operator.operators.ensureFirst())!;
      const firstId = (await u.platform.core.repos.accounts.operatorByEmail(first.email))!.id;
      expect(await u.platform.core.repos.accounts.operatorRoles(firstId)).toEqual(['owner']);
      const client = new JsonClient(`${u.origin}${PREFIX}`, (await u.platform.core.sessions.open('operator', firstId)).token);
      const refused = await client.put(`/operators/${firstId}/roles`, { roles: ['finance'] });
      expectJsonError(refused, 409, 'LAST_OWNER');
      expect(refused.body.message).toContain('last owner');
      expect(await u.platform.core.repos.accounts.operatorRoles(firstId)).toEqual(['owner']);
      await expect(u.platform.operator.operators.setRolesByEmail(first.email, ['viewer'], 'cli')).rejects.toMatchObject({ code: 'LAST_OWNER' });

      const second = await u.platform.operator.operators.create('second-owner@example.com', 'Second', undefined, ['owner']);
      const ok = await client.put(`/operators/${firstId}/roles`, { roles: ['finance'] });
      expect(ok.status, ok.text).toBe(200);
      // Now the second is the last owner.
      await expect(u.platform.operator.operators.setRoles(second.id, ['viewer'], 'cli')).rejects.toMatchObject({ code: 'LAST_OWNER' });
      const { entries } = await u.platform.core.repos.audit.list({ targetId: second.id, limit: 10, offset: 0 });
      expect(entries.filter((e) => e.action === 'operator.roles')).toEqual([]);
    } finally {
      await u.close();
    }
  });

  it('two owners demoting each other at once: one succeeds, the other is the last owner', async () => {
    const u = await startTestApp(kind);
    try {
      const ops = u.platform.operator.operators;
      const a = await ops.create('owner-a@example.com', 'A', undefined, ['owner']);
      const b = await ops.create('owner-b@example.com', 'B', undefined, ['owner']);
      expect(a.roles).toEqual(['owner']);
      const results = await Promise.allSettled([ops.setRoles(a.id, ['viewer'], 'cli'), ops.setRoles(b.id, ['viewer'], 'cli')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['LAST_OWNER']);
      expect(await u.platform.core.repos.accounts.activeHoldersOf('owner')).toHaveLength(1);
    } finally {
      await u.close();
    }
  });

  it('the first operator is owner; later ones are viewers unless given roles', async () => {
    const u = await startTestApp(kind);
    try {
      const accounts = u.platform.core.repos.accounts;
      const first = (await u.platform.operator.operators.ensureFirst())!;
      expect(await accounts.operatorRoles((await accounts.operatorByEmail(first.email))!.id)).toEqual(['owner']);
      const later = await u.platform.operator.operators.create('later@example.com', 'Later');
      expect(later.roles).toEqual(['viewer']);
    } finally {
      await u.close();
    }
  });

  it('migration 032 makes every operator that exists an owner', async () => {
    const store = await createTestStore(kind);
    const database = openDatabase(store.config);
    try {
      await migrateTo(database, '024_orders_created');
      for (const id of ['op-a', 'op-b']) {
        await database.db.insertInto('operators').values({ id, email: `${id}@example.com`, name: id, password_hash: 'x', created_at: 1, disabled_at: null }).execute();
      }
      await migrateToLatest(database);
      const rows = await database.db.selectFrom('operator_roles').selectAll().orderBy('operator_id').execute();
      expect(rows).toEqual([{ operator_id: 'op-a', role: 'owner' }, { operator_id: 'op-b', role: 'owner' }]);
    } finally {
      await database.close();
      await store.drop();
    }
  });
});
