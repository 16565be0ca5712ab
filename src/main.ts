import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createHttpApp } from './http/app.js';
import { resellerPipeline } from './http/reseller-pipeline.js';
import { resellerApi } from './http/routes/reseller-api.js';
import { bankMutationHook, SUPPLIER_HOOKS_PREFIX, supplierHooks } from './http/routes/supplier-hooks.js';
import { ReceiveMutationWebhook } from './services/deposits/mutation-webhook.js';
import { midtransHook } from './http/routes/midtrans-hook.js';
import { ReceiveDigiflazzWebhook } from './services/receive-digiflazz-webhook.js';
import { postCallback } from './adapters/callback-http.js';
import { ResellerCallbacks } from './services/reseller-callbacks.js';
import { ReceiveUpstreamCallback } from './services/receive-upstream-callback.js';
import { AuthFailureGuard } from './services/auth-failures.js';
import { CallbackTest } from './services/account/callback-test.js';
import { KnownCallerRefusal } from './services/authenticate.js';
import { toAppError } from './http/errors.js';
import { RouteRegistry } from './http/json-api.js';
import { adminApi, ADMIN_PREFIX } from './http/routes/admin/index.js';
import { dashboardApi, DASHBOARD_PREFIX } from './http/routes/dashboard/index.js';
import { docsRoutes } from './http/routes/docs.js';
import { rootRedirect, webApp } from './http/routes/web-app.js';
import { healthRoutes } from './http/routes/health.js';
import { createServicePlatform, type PlatformOverrides, type ServicePlatform } from './service-platform.js';

export type { PlatformOverrides } from './service-platform.js';

/**
 * The composition root, second stage: the HTTP app (reseller, operator and dashboard APIs,
 * docs, web apps, supplier hooks, probes) on top of the services (src/service-platform.ts,
 * the one place that reads config and chooses adapters).
 */
export interface Platform extends ServicePlatform {
  app: FastifyInstance;
  /** Every route of the operator and dashboard APIs, as declared (for the OpenAPI documents). */
  routes: RouteRegistry;
  /** Closes the HTTP app (in-flight requests are answered), then the services: the worker last. */
  close(): Promise<void>;
}

export async function createPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<Platform> {
  const services = await createServicePlatform(config, overrides);
  const { logger, clock, ids, secrets, limiter, runner, callbacks, resendCallback, operator, account, apiErrorLog, prometheus, readiness, core } = services;
  const { auth, placeOrder, validateAccount, queries, fulfilment, present, currency, startRequestHelpers } = services.forHttp;
  const { db } = services.database;
  const routes = new RouteRegistry();

  const app = createHttpApp({
    logger, trustedProxies: config.trustedProxies, observe: prometheus ? (m, r, st, ms) => prometheus.observeRequest(m, r, st, ms) : null,
    bodyTimeoutMs: config.bodyTimeoutMs, production: config.env === 'production',
  });
  // What only requests use starts once the HTTP app gets ready (listen, or a test's inject),
  // so a process that serves none opens neither: the cache-version feed's connection
  // (PostgreSQL) and the order writer thread (SQLite).
  app.addHook('onReady', startRequestHelpers);
  const pipelineDeps = { auth, limiter, rateLimitScale: config.rateLimitScale, failures: new AuthFailureGuard({ limiter, clock, allowance: config.authFailures }) };
  const { onSend } = resellerPipeline(pipelineDeps);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/api/') && !req.routeOptions.config.publicDocument) onSend(req, reply, payload, done);
    else done(null, payload);
  });
  // Refused API v1 requests of a known API key, for the dashboard: only the error path pays,
  // and only an append to memory (ApiErrorLog writes in batches off the request path).
  app.addHook('onError', async (req, _reply, err) => {
    if (!apiErrorLog.enabled || !req.url.startsWith('/api/')) return;
    const resellerId = req.principal?.resellerId ?? (err instanceof KnownCallerRefusal ? err.resellerId : null);
    if (!resellerId) return;
    const e = toAppError(err, req);
    apiErrorLog.record({
      resellerId, at: clock.now(), method: req.method, path: (req.url.split('?')[0] ?? '').slice(0, 200), httpStatus: e.status,
      error: e.code, message: e.message.slice(0, 500), ip: req.ip, requestId: req.id,
    });
  });
  await app.register(healthRoutes({ readiness: () => readiness.check() }));
  await app.register(resellerApi({ ...pipelineDeps, placeOrder, validateAccount, queries, present, currency,
    resellerCallbacks: new ResellerCallbacks({ orders: services.repos.orders, callbacks, resend: resendCallback }) }), { prefix: '/api/v1' });

  const browser = { secureCookies: config.secureCookies, publicOrigin: config.publicBaseUrl };
  await app.register(adminApi({ sessions: core.sessions, twoFactor: core.twoFactor, sessionList: core.sessionList, registry: routes, services: operator, payments: services.payments, browser, now: () => clock.now() }), { prefix: ADMIN_PREFIX });
  const callbackTest = new CallbackTest({
    db, secrets, send: postCallback, limiter, clock, ids, money: present.money, allowPrivateTargets: config.callbackAllowPrivateTargets,
  });
  await app.register(dashboardApi({ sessions: core.sessions, twoFactor: core.twoFactor, sessionList: core.sessionList, registry: routes, services: account, present, browser, now: () => clock.now(), callbackTest, apiErrorLog, payments: services.payments }), { prefix: DASHBOARD_PREFIX });

  await app.register(docsRoutes({ registry: routes }));
  // The built web apps (web/dist), beside their APIs; `/` is the reseller dashboard.
  await app.register(webApp({ app: 'dashboard' }));
  await app.register(webApp({ app: 'admin' }));
  await app.register(rootRedirect('/dashboard/'));

  const upstreamCallback = new ReceiveUpstreamCallback({ db, fulfilment, secrets, clock, wake: () => runner.wake() });
  const digiflazzWebhook = new ReceiveDigiflazzWebhook({ db, fulfilment, secrets, clock, logger, wake: () => runner.wake() });
  await app.register(supplierHooks({ upstreamCallback, digiflazzWebhook }), { prefix: SUPPLIER_HOOKS_PREFIX });
  await app.register(bankMutationHook({ mutationWebhook: new ReceiveMutationWebhook(core, logger) }), { prefix: SUPPLIER_HOOKS_PREFIX });
  await app.register(midtransHook({ notifications: services.payments.notifications }));

  return {
    ...services, app, routes,
    async close() {
      await app.close();
      await services.close();
    },
  };
}
