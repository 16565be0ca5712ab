import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createRateLimiter, type RateLimiter } from './adapters/rate-limiter.js';
import { createSecretBox, loadOrCreateMasterKey, type SecretBox } from './adapters/secret-box.js';
import type { Config, StoreConfig } from './config.js';
import { createHttpApp } from './http/app.js';
import { presenters } from './http/presenters.js';
import { resellerPipeline } from './http/reseller-pipeline.js';
import { resellerApi } from './http/routes/reseller-api.js';
import { supplierHooks } from './http/routes/supplier-hooks.js';
import { createLogger } from './logger.js';
import { sandboxChecker } from './adapters/checkers/sandbox.js';
import { SandboxSupplier } from './adapters/suppliers/sandbox.js';
import type { Supplier } from './adapters/suppliers/types.js';
import { UpstreamV1Supplier, type UpstreamV1Credentials } from './adapters/suppliers/upstream-v1.js';
import { DigiflazzSupplier } from './adapters/suppliers/digiflazz/supplier.js';
import type { DigiflazzCredentials } from './adapters/suppliers/digiflazz/protocol.js';
import { ReceiveDigiflazzWebhook } from './services/receive-digiflazz-webhook.js';
import { postCallback, systemResolve } from './adapters/callback-http.js';
import { Authenticator } from './services/authenticate.js';
import { DeliverCallback } from './services/deliver-callback.js';
import { ResendCallback } from './services/resend-callback.js';
import { ResellerCallbacks } from './services/reseller-callbacks.js';
import { SetCallbackUrl } from './services/set-callback-url.js';
import { CallbacksRepo } from './store/callbacks-repo.js';
import { FulfilOrder, type SupplierResolver } from './services/fulfil-order.js';
import { ReceiveUpstreamCallback } from './services/receive-upstream-callback.js';
import { RefreshSupply } from './services/refresh-supply.js';
import { SupplierGate } from './services/supplier-gate.js';
import { ValidateAccount } from './services/validate-account.js';
import { FulfilmentRepo, supplierCredentials } from './store/fulfilment-repo.js';
import { JOB_KINDS, JobsRepo } from './store/jobs-repo.js';
import { SupplyRepo } from './store/supply-repo.js';
import type { JobHandler } from './worker/job-contract.js';
import { JobRunner } from './worker/runner.js';
import { AuthFailureGuard } from './services/auth-failures.js';
import { randomIds } from './services/ids.js';
import { PlaceOrder } from './services/place-order.js';
import { systemClock, type Clock, type IdGenerator } from './services/ports.js';
import { ResellerQueries } from './services/reseller-queries.js';
import { seedDemo, type DemoCredentials } from './services/seed-demo.js';
import { CatalogRepo } from './store/catalog-repo.js';
import { sqliteVersionReader, VersionWatch } from './store/cache-versions.js';
import { PostgresVersionFeed } from './store/postgres-version-feed.js';
import { CatalogCache } from './services/catalog-cache.js';
import { DEFAULT_POOL_SIZE, openDatabase, type Database } from './store/db.js';
import { LedgerRepo } from './store/ledger-repo.js';
import { migrateToLatest } from './store/migrate.js';
import { OperatorOrdersRepo } from './store/operator-orders-repo.js';
import { OrderHistoryRepo } from './store/order-history-repo.js';
import { OrdersRepo } from './store/orders-repo.js';
import { ResellersRepo } from './store/resellers-repo.js';
import { scryptHasher } from './adapters/password-hasher.js';
import { AccountsRepo } from './store/accounts-repo.js';
import { AuditRepo } from './store/audit-repo.js';
import { Sessions } from './services/sessions.js';
import type { ServiceCore } from './services/core.js';
import { createOperatorServices, type OperatorServices } from './services/operator/index.js';
import { createAccountServices, type AccountServices } from './services/account/index.js';
import { CallbackTest } from './services/account/callback-test.js';
import { ApiErrorLog } from './services/api-error-log.js';
import { ApiErrorsRepo } from './store/api-errors-repo.js';
import { KnownCallerRefusal } from './services/authenticate.js';
import { toAppError } from './http/errors.js';
import { RouteRegistry } from './http/json-api.js';
import { adminApi, ADMIN_PREFIX } from './http/routes/admin/index.js';
import { dashboardApi, DASHBOARD_PREFIX } from './http/routes/dashboard/index.js';
import { docsRoutes } from './http/routes/docs.js';
import { rootRedirect, webApp } from './http/routes/web-app.js';
import { healthRoutes } from './http/routes/health.js';
import { checkReadiness, workerHeartbeat, type ReadinessCheck } from './services/readiness.js';
import { migrationsCurrent, storeAnswers } from './store/health.js';
import { PrometheusMetrics } from './adapters/prometheus.js';
import { metricsListener } from './http/metrics-listener.js';
import { noMetrics } from './services/metrics.js';
import { meteredSuppliers } from './services/metered-suppliers.js';
import { MetricsRepo } from './store/metrics-repo.js';

/**
 * The composition root: the one place that reads config and chooses adapters. Everything
 * below receives its collaborators from here.
 */
export interface Platform {
  config: Config;
  logger: Logger;
  database: Database;
  /** PostgreSQL: what lets requests skip the cache-version read (null on SQLite). */
  versionFeed: PostgresVersionFeed | null;
  app: FastifyInstance;
  secrets: SecretBox;
  limiter: RateLimiter;
  repos: { resellers: ResellersRepo; catalog: CatalogRepo; orders: OrdersRepo; orderHistory: OrderHistoryRepo; operatorOrders: OperatorOrdersRepo; ledger: LedgerRepo };
  /** The in-process catalog cache the reseller API reads (invalidated via cache_versions). */
  catalogCache: CatalogCache;
  clock: Clock;
  ids: IdGenerator;
  /** The durable job runner (fulfilment, callbacks); started by startBackground(). */
  runner: JobRunner;
  /** Job handlers by kind; the runner runs exactly these. */
  jobHandlers: Record<string, JobHandler<any>>;
  refreshSupply: RefreshSupply;
  callbacks: CallbacksRepo;
  resendCallback: ResendCallback;
  setCallbackUrl: SetCallbackUrl;
  /** What operator and dashboard services are built from (the CLI reuses it). */
  core: ServiceCore;
  operator: OperatorServices;
  account: AccountServices;
  /** Every route of the operator and dashboard APIs, as declared (for the OpenAPI documents). */
  routes: RouteRegistry;
  /** Refused API v1 requests, buffered for the dashboard (flush() writes them now). */
  apiErrorLog: ApiErrorLog;
  /** The Prometheus registry (null: METRICS_PORT=off). */
  prometheus: PrometheusMetrics | null;
  /**
   * Opens the metrics listener on METRICS_HOST:METRICS_PORT (serve and worker do; tests and
   * one-shot commands do not); returns its URL, or null when metrics are off.
   */
  listenMetrics(): Promise<string | null>;
  /** Starts the worker and the periodic supply refresh in this process. */
  startBackground(): void;
  /** Seeds the demo data if absent; returns its credentials the first time only. */
  seedDemo(): Promise<DemoCredentials | null>;
  close(): Promise<void>;
}

export interface PlatformOverrides {
  logger?: Logger;
  clock?: Clock;
  /** scrypt cost N; tests lower it so that many sign-ins stay quick. */
  passwordCost?: number;
  /**
   * The store's helpers for a long-running process (default on): SQLite's order writer and
   * checkpointer threads, PostgreSQL's listening connection for cache versions (opened
   * when the HTTP app gets ready: a process that serves no requests never opens it). A one-shot
   * CLI command goes without: it would start two threads (~0.1 s, ~30 MB) or open a
   * connection to use none of them.
   */
  storeHelpers?: boolean;
  /**
   * This process will run the job runner (startBackground): on PostgreSQL its pool gets a
   * connection per worker slot on top of the default, up to WORKER_POOL_CAP. Each running job holds one
   * connection at a time, and its commits wait on the WAL flush: with fewer connections
   * than slots the jobs queued for a connection, and fewer commits shared each flush.
   */
  runsWorker?: boolean;
}

/**
 * Group commit of the order transaction (OrdersRepo): SQLite has one writer, so one group
 * at a time; PostgreSQL runs a few groups of different resellers at once (one reseller's
 * groups one at a time: OrderGroupQueue). Sizes bound the wait of the last order in a group.
 */
const ORDER_GROUPS = { sqlite: { maxSize: 64, concurrency: 1 }, postgres: { maxSize: 32, concurrency: 4 } } as const;

/**
 * Most PostgreSQL connections a process running the worker opens, whatever
 * WORKER_CONCURRENCY says: two API servers (10 each) and a worker stay well under
 * PostgreSQL's default max_connections of 100 (a worker of 128 slots once took 138 and
 * left no connection for anyone else).
 */
const WORKER_POOL_CAP = 40;

/** How often a process running the worker folds past hours' order count shards (PostgreSQL, migration 013). */
const COUNT_FOLD_MS = 60_000;

/** How often a process running the worker prunes recent API errors older than 7 days. */
const API_ERRORS_PRUNE_MS = 3_600_000;

export async function createPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<Platform> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const clock = overrides.clock ?? systemClock;
  const ids = randomIds;
  const helpers = overrides.storeHelpers ?? true;
  const poolSize = overrides.runsWorker ? Math.min(DEFAULT_POOL_SIZE + config.worker.concurrency, WORKER_POOL_CAP) : undefined;
  const database = openDatabase(config.store, { threads: helpers, poolSize });
  await migrateToLatest(database);
  const masterKey = config.masterKey ?? loadOrCreateMasterKey(config.dataDir);
  const secrets = createSecretBox(masterKey);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error; rate limits fall back to this process'));
  if (redis) await redisReady(redis, logger);
  const limiter = createRateLimiter(redis);

  const { db } = database;
  const repos = { resellers: new ResellersRepo(db), catalog: new CatalogRepo(db), orders: new OrdersRepo(db, ORDER_GROUPS[database.dialect], { dialect: database.dialect, sqlite: database.sqlite, orderWriter: database.orderWriter }),
    orderHistory: new OrderHistoryRepo(db, database.dialect), operatorOrders: new OperatorOrdersRepo(db), ledger: new LedgerRepo(db) };
  // Metrics (on unless METRICS_PORT=off): the services report through the Metrics port.
  const prometheus = config.metrics ? new PrometheusMetrics({ read: (now) => new MetricsRepo(db).read(now), now: () => clock.now() }) : null;
  const metrics = prometheus ?? noMetrics;
  const currency = { code: config.currency, decimals: config.currencyDecimals, maxAmount: config.maxOperationAmount * 10 ** config.currencyDecimals };
  const { versions, feed } = watchCacheVersions(database, config.store, logger);
  const catalogCache = new CatalogCache(repos.catalog, versions);
  const auth = new Authenticator(repos.resellers, secrets, clock, versions);
  const fulfilmentRepo = new FulfilmentRepo(db, database.dialect);
  const sandbox = new SandboxSupplier(db, clock, config.sandboxDelayMs);
  const upstreams = new Map<string, Supplier>();
  const supplyRepo = new SupplyRepo(db);
  const upstreamAdapters: Record<string, (supplierId: string) => Supplier> = {
    'upstream-v1': (id) => new UpstreamV1Supplier(async () => JSON.parse(secrets.open(await supplierCredentials(db, id))) as UpstreamV1Credentials),
    digiflazz: (id) => new DigiflazzSupplier(
      async () => JSON.parse(secrets.open(await supplierCredentials(db, id))) as DigiflazzCredentials,
      clock,
      { minorPerRupiah: 10 ** config.currencyDecimals },
      { read: (balance) => supplyRepo.recordBalance(id, balance, clock.now()), short: () => supplyRepo.flagBalance(id, clock.now()) },
    ),
  };
  const resolveSupplier: SupplierResolver = (route) => {
    if (route.adapter === 'sandbox') return sandbox;
    const make = upstreamAdapters[route.adapter];
    if (!make) throw new Error(`no supplier adapter named "${route.adapter}"`);
    let upstream = upstreams.get(route.supplierId);
    if (!upstream) {
      upstream = make(route.supplierId);
      upstreams.set(route.supplierId, upstream);
    }
    return upstream;
  };
  const suppliers = prometheus ? meteredSuppliers(resolveSupplier, metrics) : resolveSupplier;
  const jobHandlers: Record<string, JobHandler<any>> = {};
  const runner = new JobRunner({ jobs: new JobsRepo(db, database.dialect), handlers: jobHandlers, clock, logger, settings: config.worker });
  const fulfil = new FulfilOrder({ repo: fulfilmentRepo, suppliers, clock, settings: config.fulfilment, metrics, logger });
  jobHandlers[JOB_KINDS.fulfilOrder] = fulfil.handle;
  const callbacks = new CallbacksRepo(db, database.dialect);
  const present = presenters(currency.decimals);
  const deliverCallback = new DeliverCallback({
    callbacks, secrets, send: postCallback, clock, ids, money: present.money,
    allowPrivateTargets: config.callbackAllowPrivateTargets, metrics, logger,
  });
  jobHandlers[JOB_KINDS.deliverCallback] = deliverCallback.handle;
  const setCallbackUrl = new SetCallbackUrl({ db, clock, allowPrivate: config.callbackAllowPrivateTargets, resolve: systemResolve });
  const resendCallback = new ResendCallback({ orders: repos.orders, callbacks, clock, wake: () => runner.wake() });
  const refreshSupply = new RefreshSupply({ supply: new SupplyRepo(db), fulfilment: fulfilmentRepo, suppliers, clock, logger });
  const placeOrder = new PlaceOrder({
    orders: repos.orders, catalog: catalogCache, gate: new SupplierGate(catalogCache), checker: sandboxChecker,
    checkerTimeoutMs: config.checkerTimeoutMs, clock, ids, currency, onPlaced: () => runner.wake([JOB_KINDS.fulfilOrder]), metrics,
  });
  const validateAccount = new ValidateAccount({ catalog: catalogCache, checker: sandboxChecker, timeoutMs: config.checkerTimeoutMs });
  const queries = new ResellerQueries({ catalog: catalogCache, orders: repos.orders, history: repos.orderHistory, ledger: repos.ledger, clock });

  const accounts = new AccountsRepo(db);
  const hasher = scryptHasher(overrides.passwordCost);
  // The CSRF key is derived, not stored: one master key to keep, and it changes with it.
  const csrfKey = createHmac('sha256', masterKey).update('topup browser-session csrf v1').digest();
  const sessions = new Sessions({ accounts, hasher, limiter, clock, ttlMs: config.sessionTtlMs, csrfKey });
  const browser = { secureCookies: config.secureCookies, publicOrigin: config.publicBaseUrl };
  const core: ServiceCore = {
    db, dialect: database.dialect, clock, ids, secrets, hasher, currency,
    repos: { ...repos, accounts, audit: new AuditRepo(db), callbacks, supply: new SupplyRepo(db) },
    sessions, queries, resendCallback, setCallbackUrl, refreshSupply,
    // Invitation links need an origin even when PUBLIC_BASE_URL is unset (then: the listen address).
    publicBaseUrl: config.publicBaseUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`,
    wake: () => runner.wake(), suppliers,
  };
  const operator = createOperatorServices(core);
  const account = createAccountServices(core);
  const routes = new RouteRegistry();

  const app = createHttpApp({ logger, trustedProxies: config.trustedProxies, observe: prometheus ? (m, r, st, ms) => prometheus.observeRequest(m, r, st, ms) : null });
  // What only requests use starts once the HTTP app gets ready (listen, or a test's inject),
  // so `topup worker`, which serves none, opens neither: the cache-version feed's
  // connection (PostgreSQL) and the order writer thread (SQLite).
  if (helpers) {
    app.addHook('onReady', async () => {
      database.orderWriter?.start();
      await feed?.start();
    });
  }
  const pipelineDeps = { auth, limiter, rateLimitScale: config.rateLimitScale, failures: new AuthFailureGuard({ limiter, clock }) };
  const { onSend } = resellerPipeline(pipelineDeps);
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/') && !req.routeOptions.config.publicDocument) await onSend(req, reply);
  });
  const apiErrorLog = new ApiErrorLog({
    repo: new ApiErrorsRepo(db), clock, enabled: config.apiErrorLog, onError: (err) => logger.error({ err }, 'writing recent API errors failed'),
  });
  // Refused API v1 requests of a known API key, for the dashboard: only the error path pays,
  // and only an append to memory (ApiErrorLog writes in batches off the request path).
  app.addHook('onError', async (req, _reply, err) => {
    if (!apiErrorLog.enabled || !req.url.startsWith('/api/')) return;
    const resellerId = req.principal?.resellerId ?? (err instanceof KnownCallerRefusal ? err.resellerId : null);
    if (!resellerId) return;
    const e = toAppError(err);
    apiErrorLog.record({
      resellerId, at: clock.now(), method: req.method, path: (req.url.split('?')[0] ?? '').slice(0, 200), httpStatus: e.status,
      error: e.code, message: e.message.slice(0, 500), ip: req.ip, requestId: req.id,
    });
  });
  const readinessChecks: ReadinessCheck[] = [
    { name: 'store', run: () => storeAnswers(database) },
    { name: 'migrations', run: () => migrationsCurrent(database) },
    { name: 'redis', run: async () => {
      if (!redis) return 'not configured';
      if (redis.status !== 'ready') throw new Error(`not connected (${redis.status})`);
      await redis.ping();
      return 'ok';
    } },
    // Two leases without a turn: by then its jobs are free for other workers anyway.
    workerHeartbeat(runner, () => clock.now(), 2 * config.worker.leaseMs),
  ];
  await app.register(healthRoutes({ readiness: () => checkReadiness(readinessChecks, config.readyTimeoutMs) }));
  await app.register(resellerApi({ ...pipelineDeps, placeOrder, validateAccount, queries, present, currency,
    resellerCallbacks: new ResellerCallbacks({ orders: repos.orders, callbacks, resend: resendCallback }) }), { prefix: '/api/v1' });

  await app.register(adminApi({ sessions, registry: routes, services: operator, browser, now: () => clock.now() }), { prefix: ADMIN_PREFIX });
  const callbackTest = new CallbackTest({
    db, secrets, send: postCallback, limiter, clock, ids, money: present.money, allowPrivateTargets: config.callbackAllowPrivateTargets,
  });
  await app.register(dashboardApi({ sessions, registry: routes, services: account, present, browser, now: () => clock.now(), callbackTest, apiErrorLog }), { prefix: DASHBOARD_PREFIX });

  await app.register(docsRoutes({ registry: routes }));
  // The built web apps (web/dist), beside their APIs; `/` is the reseller dashboard.
  await app.register(webApp({ app: 'dashboard' }));
  await app.register(webApp({ app: 'admin' }));
  await app.register(rootRedirect('/dashboard/'));

  const upstreamCallback = new ReceiveUpstreamCallback({ db, fulfilment: fulfilmentRepo, secrets, clock, wake: () => runner.wake() });
  const digiflazzWebhook = new ReceiveDigiflazzWebhook({ db, fulfilment: fulfilmentRepo, secrets, clock, logger, wake: () => runner.wake() });
  await app.register(supplierHooks({ upstreamCallback, digiflazzWebhook }), { prefix: '/hooks' });

  let refreshTimer: NodeJS.Timeout | null = null;
  const refreshSafely = () => refreshSupply.run().catch((err) => logger.error({ err }, 'supply refresh failed'));
  let syncTimer: NodeJS.Timeout | null = null;
  const syncSafely = () => operator.priceSync.runAll('system').then(
    (results) => results.filter((r) => r.error).forEach((r) => logger.warn({ supplierId: r.supplierId, err: r.error }, 'scheduled price-list sync failed')),
    (err) => logger.error({ err }, 'scheduled price-list sync failed'),
  );
  let foldTimer: NodeJS.Timeout | null = null;
  let metricsServer: ReturnType<typeof metricsListener> | null = null;
  let pruneTimer: NodeJS.Timeout | null = null;
  const foldSafely = () => repos.orderHistory.foldCountShards(clock.now()).catch((err) => logger.error({ err }, 'folding order count shards failed'));

  return {
    config, logger, database, versionFeed: feed, app, secrets, limiter, repos, catalogCache, clock, ids, runner, jobHandlers, refreshSupply, callbacks, resendCallback, setCallbackUrl,
    core, operator, account, routes, apiErrorLog, prometheus,
    async listenMetrics() {
      if (!prometheus || !config.metrics) return null;
      prometheus.collectProcessMetrics();
      metricsServer ??= metricsListener(prometheus, (err) => logger.error({ err }, 'metrics scrape failed'));
      return metricsServer.listen(config.metrics.host, config.metrics.port);
    },
    startBackground() {
      runner.start();
      void refreshSafely();
      refreshTimer = setInterval(refreshSafely, config.fulfilment.supplyRefreshMs);
      refreshTimer.unref();
      // Recent API errors past 7 days go even when no new refusal triggers a prune.
      pruneTimer = setInterval(() => apiErrorLog.prune().catch((err) => logger.error({ err }, 'pruning recent API errors failed')), API_ERRORS_PRUNE_MS);
      pruneTimer.unref();
      if (config.fulfilment.priceSyncMs > 0) {
        syncTimer = setInterval(syncSafely, config.fulfilment.priceSyncMs);
        syncTimer.unref();
      }
      if (database.dialect === 'postgres') {
        void foldSafely();
        foldTimer = setInterval(foldSafely, COUNT_FOLD_MS);
        foldTimer.unref();
      }
    },
    seedDemo: () => seedDemo({ db, resellers: repos.resellers, ledger: repos.ledger, secrets, clock, ids }),
    async close() {
      if (refreshTimer) clearInterval(refreshTimer);
      if (syncTimer) clearInterval(syncTimer);
      if (foldTimer) clearInterval(foldTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      await runner.stop();
      await app.close();
      await metricsServer?.close();
      await apiErrorLog.close();
      await feed?.stop();
      await database.close();
      if (redis) redis.disconnect();
    },
  };
}

/**
 * The shared cache versions validate every in-process cache: read once per request, or on
 * PostgreSQL held between the changes its listener hears of (PostgresVersionFeed).
 */
function watchCacheVersions(database: Database, store: StoreConfig, logger: Logger) {
  if (store.kind === 'sqlite') return { versions: new VersionWatch(sqliteVersionReader(database.db, database.sqlite!), 'per-turn'), feed: null };
  const feed = new PostgresVersionFeed(database.pool!, store.url, {
    onDrop: (err) => logger.warn({ err: (err as Error).message }, 'cache-version listener lost; each request reads the versions until it is back'),
  });
  return { versions: new VersionWatch(feed.read, 'in-flight', feed), feed };
}

/** Waits briefly for Redis so the first requests already share counts; a dead Redis only warns. */
async function redisReady(redis: Redis, logger: Logger): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 3000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) logger.warn('redis not ready after 3 s; rate limits are counted per process until it is');
}
