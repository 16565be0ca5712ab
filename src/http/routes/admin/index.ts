import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OperatorServices } from '../../../services/operator/index.js';
import type { Sessions } from '../../../services/sessions.js';
import type { BrowserSessionOptions } from '../../browser-session.js';
import { jsonApi, type JsonApiKit, type RouteRegistry } from '../../json-api.js';
import { sessionRoutes } from '../session-routes.js';
import { twoFactorRoutes } from '../two-factor-routes.js';
import { presentSession, SessionItem, sessionListRoutes } from '../session-list-routes.js';
import { IdParams } from '../../schemas.js';
import type { SessionList } from '../../../services/session-list.js';
import type { TwoFactor } from '../../../services/two-factor.js';
import { passwordResetRoutes } from '../password-reset-routes.js';
import { messageSettingsRoutes } from '../message-settings-routes.js';
import { catalogRoutes } from './catalog.js';
import { supplyRoutes } from './supply.js';
import { auditRoutes } from './audit.js';
import { orderRoutes } from './orders.js';
import { resellerRoutes } from './resellers.js';
import { operatorAccountRoutes, Role, RolesBody } from './operators.js';
import { resellerSettingsRoutes } from './reseller-settings.js';
import { invitationRoutes } from './invitations.js';
import { overviewRoutes } from './overview.js';
import { pricingRoutes } from './pricing.js';
import { attentionRoutes } from './attention.js';
import { messageRoutes } from './messages.js';
import { depositRoutes } from './deposits.js';
import { approvalRoutes } from './approvals.js';
import { paymentGatewayRoutes } from './payment-gateway.js';
import type { PaymentServices } from '../../../services/payments/index.js';
import { reportRoutes } from './reports.js';
import { statementRoutes } from './statements.js';

export interface AdminApiDeps {
  sessions: Sessions;
  twoFactor: TwoFactor;
  sessionList: SessionList;
  registry: RouteRegistry;
  /** Cookie and origin settings of browser sessions. */
  browser: BrowserSessionOptions;
  now: () => number;
  services: OperatorServices;
  /** Deposits by payment gateway (settings, methods, payments). */
  payments: PaymentServices;
}

export const ADMIN_PREFIX = '/admin/v1';

/** The operator API (/admin/v1): one module per area, each declaring its routes through the kit. */
export function adminApi(deps: AdminApiDeps) {
  return async function routes(app: FastifyInstance) {
    const kit = jsonApi(app, { api: 'admin', prefix: ADMIN_PREFIX, sessions: deps.sessions, registry: deps.registry, browser: deps.browser, now: deps.now });
    sessionRoutes(kit, deps.sessions, 'Sign in as an operator; returns a bearer token');
    twoFactorRoutes(kit, deps.twoFactor);
    sessionListRoutes(kit, deps.sessionList);
    passwordResetRoutes(kit, deps.services.passwordResets);
    messageSettingsRoutes(kit, deps.services.language);
    operatorRoutes(kit, deps);
    operatorAccountRoutes(kit, deps);
    catalogRoutes(kit, deps.services);
    supplyRoutes(kit, deps.services);
    resellerRoutes(kit, deps);
    resellerSettingsRoutes(kit, deps);
    invitationRoutes(kit, deps);
    orderRoutes(kit, deps);
    auditRoutes(kit, deps);
    overviewRoutes(kit, deps);
    pricingRoutes(kit, deps);
    attentionRoutes(kit, deps);
    messageRoutes(kit, deps);
    depositRoutes(kit, deps);
    approvalRoutes(kit, deps);
    paymentGatewayRoutes(kit, { payments: deps.payments, decimals: deps.services.currency.decimals, publicBaseUrl: deps.services.publicBaseUrl });
    reportRoutes(kit, deps);
    statementRoutes(kit, deps);
  };
}

const Operator = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });

function operatorRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  kit.route({
    method: 'GET', url: '/me', tag: 'Session',
    summary: 'The signed-in operator, and the currency every amount is in (the console formats money with it)',
    response: Type.Object({ id: Type.String(), email: Type.String(), currency: Type.String({ description: 'ISO 4217 code' }) }),
    handler: async ({ who }) => ({ data: { id: who.operatorId, email: who.email, currency: deps.services.currency.code } }),
  });

  kit.route({
    method: 'GET', url: '/operators/:id/sessions', tag: 'Operators',
    summary: "Another operator's live sessions: device, address, created, last used",
    params: IdParams,
    response: Type.Object({ sessions: Type.Array(SessionItem) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: { sessions: (await deps.services.operators.sessionsOf(params.id)).map(presentSession) } }),
  });

  kit.route({
    method: 'DELETE', url: '/operators/:id/sessions', tag: 'Operators',
    summary: "End every session of an operator at once (audited as operator.end_sessions)",
    params: IdParams,
    response: Type.Object({ ended: Type.Integer() }),
    errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: { ended: await deps.services.operators.endSessionsOf(params.id, who.operatorId) } }),
  });

  kit.route({
    method: 'POST', url: '/operators', tag: 'Operators',
    summary: 'Add an operator with its roles (viewer when none is given); the generated password is returned once',
    body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), name: Type.String({ minLength: 1, maxLength: 100 }), roles: Type.Optional(RolesBody) }, { additionalProperties: false }),
    response: Type.Object({ ...Operator.properties, roles: Type.Array(Role), password: Type.String({ description: 'shown once' }) }),
    errors: ['CONFLICT'],
    handler: async ({ body, who }) => {
      const o = await deps.services.operators.create(body.email, body.name, who.operatorId, body.roles);
      return { data: { id: o.id, email: o.email, name: body.name, roles: o.roles, password: o.password } };
    },
  });
}
