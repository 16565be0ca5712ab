import type { FastifyInstance } from 'fastify';
import type { AccountServices } from '../../../services/account/index.js';
import type { Sessions } from '../../../services/sessions.js';
import type { BrowserSessionOptions } from '../../browser-session.js';
import { jsonApi, type RouteRegistry } from '../../json-api.js';
import { sessionRoutes } from '../session-routes.js';
import { twoFactorRoutes } from '../two-factor-routes.js';
import { sessionListRoutes } from '../session-list-routes.js';
import type { SessionList } from '../../../services/session-list.js';
import type { TwoFactor } from '../../../services/two-factor.js';
import { passwordResetRoutes } from '../password-reset-routes.js';
import { messageSettingsRoutes } from '../message-settings-routes.js';
import type { Presenters } from '../../presenters.js';
import type { CallbackTest } from '../../../services/account/callback-test.js';
import type { ApiErrorLog } from '../../../services/api-error-log.js';
import { accountRoutes } from './account.js';
import { apiKeyRoutes } from './api-keys.js';
import { invitationRoutes } from './invitation.js';
import { homeRoutes } from './home.js';
import { integrationRoutes } from './integration.js';
import { orderRoutes } from './orders.js';
import { statementRoutes } from './statements.js';
import { whitelistRoutes } from './whitelist.js';
import { depositRoutes } from './deposits.js';
import { gatewayDepositRoutes } from './gateway-deposits.js';
import type { PaymentServices } from '../../../services/payments/index.js';

export interface DashboardApiDeps {
  sessions: Sessions;
  twoFactor: TwoFactor;
  sessionList: SessionList;
  registry: RouteRegistry;
  /** Cookie and origin settings of browser sessions. */
  browser: BrowserSessionOptions;
  now: () => number;
  services: AccountServices;
  /** The API v1 shapes (orders, ledger entries, callback logs) and money in major units. */
  present: Presenters;
  /** POST /callback-url/test: a signed sample callback sent now. */
  callbackTest: CallbackTest;
  /** GET /api-errors: the account's refused API v1 requests. */
  apiErrorLog: ApiErrorLog;
  /** Deposits by payment gateway. */
  payments: PaymentServices;
}

export const DASHBOARD_PREFIX = '/dashboard/v1';

/** The reseller self-service API (/dashboard/v1), separate from the HMAC-signed API v1. */
export function dashboardApi(deps: DashboardApiDeps) {
  return async function routes(app: FastifyInstance) {
    const kit = jsonApi(app, { api: 'dashboard', prefix: DASHBOARD_PREFIX, sessions: deps.sessions, registry: deps.registry, browser: deps.browser, now: deps.now });
    sessionRoutes(kit, deps.sessions, 'Sign in to the dashboard; returns a bearer token (pending and suspended accounts may sign in)');
    twoFactorRoutes(kit, deps.twoFactor);
    sessionListRoutes(kit, deps.sessionList);
    passwordResetRoutes(kit, deps.services.passwordResets);
    messageSettingsRoutes(kit, deps.services.language);
    accountRoutes(kit, deps);
    invitationRoutes(kit, deps);
    apiKeyRoutes(kit, deps);
    whitelistRoutes(kit, deps);
    orderRoutes(kit, deps);
    homeRoutes(kit, deps);
    statementRoutes(kit, deps);
    integrationRoutes(kit, deps);
    depositRoutes(kit, deps);
    gatewayDepositRoutes(kit, { payments: deps.payments, decimals: deps.payments.decimals });
  };
}
