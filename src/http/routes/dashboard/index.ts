import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { isoMillis } from '../../../domain/order.js';
import type { AccountServices } from '../../../services/account/index.js';
import type { Sessions } from '../../../services/sessions.js';
import { jsonApi, type JsonApiKit, type RouteRegistry } from '../../json-api.js';
import { Ok, SessionData, SignInBody } from '../../schemas.js';
import type { Presenters } from '../../presenters.js';
import { accountRoutes } from './account.js';
import { apiKeyRoutes } from './api-keys.js';
import { orderRoutes } from './orders.js';
import { whitelistRoutes } from './whitelist.js';

export interface DashboardApiDeps {
  sessions: Sessions;
  registry: RouteRegistry;
  services: AccountServices;
  /** The API v1 shapes (orders, ledger entries, callback logs) and money in major units. */
  present: Presenters;
}

export const DASHBOARD_PREFIX = '/dashboard/v1';

/** The reseller self-service API (/dashboard/v1), separate from the HMAC-signed API v1. */
export function dashboardApi(deps: DashboardApiDeps) {
  return async function routes(app: FastifyInstance) {
    const kit = jsonApi(app, { api: 'dashboard', prefix: DASHBOARD_PREFIX, sessions: deps.sessions, registry: deps.registry });
    sessionRoutes(kit, deps);
    accountRoutes(kit, deps);
    apiKeyRoutes(kit, deps);
    whitelistRoutes(kit, deps);
    orderRoutes(kit, deps);
  };
}

function sessionRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  kit.route({
    method: 'POST', url: '/auth/sign-in', tag: 'Session', auth: false,
    summary: 'Sign in to the dashboard; returns a bearer token (pending and suspended accounts may sign in)',
    body: SignInBody,
    response: Type.Object({ ...SessionData.properties, reseller_id: Type.String() }),
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ body, ip }) => {
      const s = await deps.sessions.signIn('reseller', body.email, body.password, ip);
      return { data: { token: s.token, expires_at: isoMillis(s.expiresAt), reseller_id: s.subjectId } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/sign-out', tag: 'Session',
    summary: 'End this session (the token stops working at once)',
    response: Ok,
    handler: async ({ authorization }) => {
      await deps.sessions.signOut(authorization);
      return { data: { ok: true } };
    },
  });
}
