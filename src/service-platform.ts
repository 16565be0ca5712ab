import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createRateLimiter, type RateLimiter } from './adapters/rate-limiter.js';
import { createAttemptGate } from './adapters/attempt-gate.js';
import { logRedisState } from './adapters/redis-state.js';
import { createSecretBox, loadOrCreateMasterKey, type SecretBox } from './adapters/secret-box.js';
import type { Config, StoreConfig } from './config.js';
import { presenters } from './http/presenters.js';
import { metricsListener } from './http/metrics-listener.js';
import { createLogger } from './logger.js';
import { sandboxChecker } from './adapters/checkers/sandbox.js';
import { SandboxSupplier } from './adapters/suppliers/sandbox.js';
import type { Supplier } from './adapters/suppliers/types.js';
import { UpstreamV1Supplier, type UpstreamV1Credentials } from './adapters/suppliers/upstream-v1.js';
import { DigiflazzSupplier } from './adapters/suppliers/digiflazz/supplier.js';
import type { DigiflazzCredentials } from './adapters/suppliers/digiflazz/protocol.js';
import { postCallback, systemResolve } from './adapters/callback-http.js';
import { scryptHasher } from './adapters/password-hasher.js';
import type { PrometheusMetrics } from './adapters/prometheus.js';
import { Authenticator } from './services/authenticate.js';
import { DeliverCallback } from './services/deliver-callback.js';
import { SendMessage } from './services/send-message.js';
import { Notifier } from './services/notifier.js';
import { OutboxRepo } from './store/outbox-repo.js';
import { createSmtpMailer } from './adapters/smtp-mailer.js';
import { createTelegramSender } from './adapters/telegram.js';
import { OperatorAlerts } from './services/operator-alerts.js';
import { CallbackNotices } from './services/callback-notices.js';
import { DepositNotices } from './services/deposit-notices.js';
import { LowBalanceNotices } from './services/low-balance-notices.js';
import { ResendCallback } from './services/resend-callback.js';
import { SetCallbackUrl } from './services/set-callback-url.js';
import { FulfilOrder, type SupplierResolver } from './services/fulfil-order.js';
import { RefreshSupply } from './services/refresh-supply.js';
import { ProbeSuppliers } from './services/probe-suppliers.js';
import { SupplierGate } from './services/supplier-gate.js';
import { ValidateAccount } from './services/validate-account.js';
import { randomIds } from './services/ids.js';
import { PlaceOrder } from './services/place-order.js';
import { systemClock, type Clock, type CurrencySettings, type IdGenerator } from './services/ports.js';
import { ResellerQueries } from './services/reseller-queries.js';
import { seedDemo, type DemoCredentials } from './services/seed-demo.js';
import { CatalogCache } from './services/catalog-cache.js';
import { Sessions } from './services/sessions.js';
import { SignInThrottle } from './services/sign-in-throttle.js';
import type { ServiceCore } from './services/core.js';
import { createOperatorServices, type OperatorServices } from './services/operator/index.js';
import { createAccountServices, type AccountServices } from './services/account/index.js';
import { ApiErrorLog } from './services/api-error-log.js';
import { noMetrics } from './services/metrics.js';
import { meteredSuppliers } from './services/metered-suppliers.js';
import { ReadinessProbe, workerHeartbeat } from './services/readiness.js';
import { checkMasterKey } from './services/master-key-check.js';
import { masterKeySentinel } from './store/master-key-sentinel.js';
import { CallbacksRepo } from './store/callbacks-repo.js';
import { FulfilmentRepo, supplierCredentials } from './store/fulfilment-repo.js';
import { JOB_KINDS, JobsRepo } from './store/jobs-repo.js';
import { SupplyRepo } from './store/supply-repo.js';
import { CatalogRepo } from './store/catalog-repo.js';
import { sqliteVersionReader, VersionWatch } from './store/cache-versions.js';
import type { PostgresVersionFeed } from './store/postgres-version-feed.js';
import { DEFAULT_POOL_SIZE, openDatabase, type Database } from './store/db.js';
import { LedgerRepo } from './store/ledger-repo.js';
import { applyReportOffset, storedReportOffset } from './store/report-daily-sql.js';
import { migrateToLatest } from './store/migrate.js';
import { OperatorOrdersRepo } from './store/operator-orders-repo.js';
import { OrderHistoryRepo } from './store/order-history-repo.js';
import { OrdersRepo } from './store/orders-repo.js';
import { ResellersRepo } from './store/resellers-repo.js';
import { AccountsRepo } from './store/accounts-repo.js';
import { AuditRepo } from './store/audit-repo.js';
import { ApiErrorsRepo } from './store/api-errors-repo.js';
import { MetricsRepo } from './store/metrics-repo.js';
import { migrationsCurrent, storeAnswers } from './store/health.js';
import type { JobHandler } from './worker/job-contract.js';
import { JobRunner } from './worker/runner.js';
import { createPaymentServices, type PaymentServices } from './services/payments/index.js';
import { MidtransGateway } from './adapters/payments/midtrans.js';
import { TwoFactorRepo } from './store/two-factor-repo.js';
import { TwoFactor } from './services/two-factor.js';
import { SignInHistory } from './services/sign-in-history.js';
import { SessionList } from './services/session-list.js';

/**
 * The composition root, first stage: the store, the adapters and every service, without
 * the HTTP app (src/main.ts adds it). `topup worker` and the one-shot CLI commands stop
 * here: they load neither Fastify nor the routes' schemas, and start in a fraction of the
 * time. The one place, with main.ts, that reads config and chooses adapters.
 */
export interface ServicePlatform {
  config: Config;
  logger: Logger;
  database: Database;
  /** PostgreSQL: what lets requests skip the cache-version read (null on SQLite). */
  versionFeed: PostgresVersionFeed | null;
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
  /** The breaker's scheduled probe (startBackground() runs it on a timer). */
  probeSuppliers: ProbeSuppliers;
  operatorAlerts: OperatorAlerts;
  callbackNotices: CallbackNotices;
  lowBalanceNotices: LowBalanceNotices;
  callbacks: CallbacksRepo;
  resendCallback: ResendCallback;
  setCallbackUrl: SetCallbackUrl;
  /** What operator and dashboard services are built from (the CLI reuses it). */
  core: ServiceCore;
  operator: OperatorServices;
  account: AccountServices;
  /** Deposits by payment gateway (Midtrans): settings, dashboard payments, notifications, the operator's view. */
  payments: PaymentServices;
  /** Refused API v1 requests, buffered for the dashboard (flush() writes them now). */
  apiErrorLog: ApiErrorLog;
  /** The Prometheus registry (null: METRICS_PORT=off, or a one-shot command). */
  prometheus: PrometheusMetrics | null;
  /** /readyz of this process (the API's and the metrics listener's); drain() on SIGTERM. */
  readiness: ReadinessProbe;
  /** The services only the HTTP app uses (src/main.ts). */
  forHttp: {
    auth: Authenticator;
    placeOrder: PlaceOrder;
    validateAccount: ValidateAccount;
    queries: ResellerQueries;
    fulfilment: FulfilmentRepo;
    present: ReturnType<typeof presenters>;
    currency: CurrencySettings;
    /** Starts the helpers only requests use (the order writer thread, the cache-version feed). */
    startRequestHelpers(): Promise<void>;
  };
  /**
   * Opens the metrics listener on METRICS_HOST:METRICS_PORT, which also answers /livez and
   * /readyz (the probe of `topup worker`, which has no API port); serve and worker do,
   * tests and one-shot commands do not. Returns its URL, or null when metrics are off.
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
  /** Collect metrics when METRICS_PORT allows (default on); a one-shot command has no scraper (and skips loading prom-client). */
  metrics?: boolean;
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

/**
 * The daily aggregates count days in REPORT_TIME_ZONE's offset: a store counted in another
 * offset (the setting changed) is recounted once, in one transaction, before anything is served.
 */
async function followReportTimeZone(database: Database, config: Config, logger: Logger) {
  const want = config.reportTimeZone.offsetMinutes;
  if ((await storedReportOffset(database.db)) === want) return;
  logger.info({ time_zone: config.reportTimeZone.name, offset_minutes: want }, 'report time zone changed: recounting the daily aggregates');
  await applyReportOffset(database.db, database.dialect, want);
}

/** How often a process running the worker prunes recent API errors older than 7 days. */
const API_ERRORS_PRUNE_MS = 3_600_000;

export async function createServicePlatform(config: Config, overrides: PlatformOverrides = {}): Promise<ServicePlatform> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const clock = overrides.clock ?? systemClock;
  const ids = randomIds;
  const helpers = overrides.storeHelpers ?? true;
  const poolSize = overrides.runsWorker ? Math.min(DEFAULT_POOL_SIZE + config.worker.concurrency, WORKER_POOL_CAP) : undefined;
  const database = openDatabase(config.store, { threads: helpers, poolSize });
  await migrateToLatest(database);
  const masterKey = config.masterKey ?? loadOrCreateMasterKey(config.dataDir);
  const secrets = createSecretBox(masterKey);
  await checkMasterKey(masterKeySentinel(database.db), secrets, wrongKeyMessage(config)).catch(async (e: unknown) => {
    await database.close();
    throw e;
  });
  await followReportTimeZone(database, config, logger);
  // ioredis loads only when configured (a CLI command on SQLite starts sooner without it).
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null;
  if (redis) logRedisState(redis, logger);
  if (redis) await redisReady(redis, logger);
  const limiter = createRateLimiter(redis);

  const { db } = database;
  const repos = { resellers: new ResellersRepo(db), catalog: new CatalogRepo(db), orders: new OrdersRepo(db, ORDER_GROUPS[database.dialect], { dialect: database.dialect, sqlite: database.sqlite, orderWriter: database.orderWriter }),
    orderHistory: new OrderHistoryRepo(db, database.dialect), operatorOrders: new OperatorOrdersRepo(db), ledger: new LedgerRepo(db) };
  // Metrics (on unless METRICS_PORT=off): the services report through the Metrics port.
  const prometheus = config.metrics && (overrides.metrics ?? true)
    ? new (await import('./adapters/prometheus.js')).PrometheusMetrics({
      read: (now) => new MetricsRepo(db).read(now), now: () => clock.now(), degraded: (): Record<string, boolean> => (redis ? { redis: redis.status !== 'ready' } : {}),
    })
    : null;
  const metrics = prometheus ?? noMetrics;
  const currency = { code: config.currency, decimals: config.currencyDecimals, maxAmount: config.maxOperationAmount * 10 ** config.currencyDecimals };
  const { versions, feed } = await watchCacheVersions(database, config.store, logger);
  const catalogCache = new CatalogCache(repos.catalog, versions);
  const auth = new Authenticator(repos.resellers, secrets, clock, versions);
  const fulfilmentRepo = new FulfilmentRepo(db, database.dialect, config.supplierBreaker);
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
  // Links need an origin even when PUBLIC_BASE_URL is unset (then: the listen address).
  const publicBaseUrl = config.publicBaseUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
  const notifier = new Notifier({ publicBaseUrl, ids });
  const callbackNotices = new CallbackNotices({ db, notifier });
  const moneyText = (minor: number) => `${currency.code} ${present.money(minor).toLocaleString('en-US')}`;
  jobHandlers[JOB_KINDS.depositCredited] = new DepositNotices({ db, notifier, clock, money: moneyText }).handle;
  const lowBalanceNotices = new LowBalanceNotices({ db, notifier, clock, money: moneyText });
  const deliverCallback = new DeliverCallback({
    callbacks, secrets, send: postCallback, clock, ids, money: present.money,
    allowPrivateTargets: config.callbackAllowPrivateTargets, metrics, logger, onGaveUp: (trx, f, now) => callbackNotices.gaveUp(trx, f, now),
  });
  jobHandlers[JOB_KINDS.deliverCallback] = deliverCallback.handle;
  // Without SMTP settings messages are kept in the outbox, readable in the console.
  const mailer = config.smtp ? await createSmtpMailer(config.smtp) : null;
  const chat = config.alerts.telegram ? createTelegramSender(config.alerts.telegram) : null;
  jobHandlers[JOB_KINDS.sendMessage] = new SendMessage({ outbox: new OutboxRepo(db), mailer, chat, from: config.smtp?.from ?? '', clock, logger }).handle;
  const setCallbackUrl = new SetCallbackUrl({ db, clock, allowPrivate: config.callbackAllowPrivateTargets, resolve: systemResolve });
  const resendCallback = new ResendCallback({ orders: repos.orders, callbacks, clock, ids, wake: () => runner.wake() });
  const refreshSupply = new RefreshSupply({ supply: new SupplyRepo(db), fulfilment: fulfilmentRepo, suppliers, clock, logger });
  const probeSuppliers = new ProbeSuppliers({ breaker: fulfilmentRepo.breaker, suppliers, clock, logger });
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
  const signIns = new SignInThrottle({ gate: createAttemptGate(redis), clock });
  const twoFactorRepo = new TwoFactorRepo(db);
  const twoFactor = new TwoFactor({ db, repo: twoFactorRepo, accounts, secrets, hasher, clock, signIns, operatorPolicy: config.operatorTwoFactor });
  const history = new SignInHistory({ db, notifier, ids });
  const sessions = new Sessions({ accounts, hasher, limiter, clock, ttlMs: config.sessionTtlMs, csrfKey, signIns, twoFactor, devices: twoFactorRepo, history });
  const core: ServiceCore = {
    db, dialect: database.dialect, clock, ids, secrets, hasher, currency,
    fourEyesThreshold: config.fourEyesThreshold === 0 ? null : config.fourEyesThreshold * 10 ** config.currencyDecimals,
    repos: { ...repos, accounts, audit: new AuditRepo(db), callbacks, supply: new SupplyRepo(db) },
    sessions, twoFactor, sessionList: new SessionList({ accounts, clock }), queries, resendCallback, setCallbackUrl, refreshSupply,
    publicBaseUrl, notifier, reportTimeZone: config.reportTimeZone,
    wake: () => runner.wake(), suppliers,
  };
  const operator = createOperatorServices(core);
  const operatorAlerts = new OperatorAlerts({
    db, notifier: core.notifier, clock, money: moneyText,
    settings: config.alerts, chat: config.alerts.telegram ? { id: config.alerts.telegram.chatId, language: config.alerts.telegram.language } : null,
  });
  const account = createAccountServices(core);
  const payments = createPaymentServices(core, { gateway: new MidtransGateway(), env: config.midtrans, logger, returnOrigin: config.publicBaseUrl });
  const apiErrorLog = new ApiErrorLog({
    repo: new ApiErrorsRepo(db), clock, enabled: config.apiErrorLog, onError: (err) => logger.error({ err }, 'writing recent API errors failed'),
  });
  const readiness = new ReadinessProbe([
    { name: 'store', run: () => storeAnswers(database) },
    { name: 'migrations', run: () => migrationsCurrent(database) },
    // Every server loses Redis at once and serves on without it: degraded, still ready.
    { name: 'redis', degradesOnly: true, run: async () => {
      if (!redis) return 'not configured';
      if (redis.status !== 'ready') throw new Error(`not connected (${redis.status}); rate limits are counted per process`);
      await redis.ping();
      return 'ok';
    } },
    // Two leases without a turn: by then its jobs are free for other workers anyway.
    workerHeartbeat(runner, () => clock.now(), 2 * config.worker.leaseMs),
  ], config.readyTimeoutMs);

  let refreshTimer: NodeJS.Timeout | null = null;
  const refreshSafely = () => refreshSupply.run().catch((err) => logger.error({ err }, 'supply refresh failed'));
  let probeTimer: NodeJS.Timeout | null = null;
  const probeSafely = () => probeSuppliers.run().catch((err) => logger.error({ err }, 'supplier breaker probe failed'));
  let syncTimer: NodeJS.Timeout | null = null;
  const syncSafely = () => operator.priceSync.runAll('system').then(
    (results) => results.filter((r) => r.error).forEach((r) => logger.warn({ supplierId: r.supplierId, err: r.error }, 'scheduled price-list sync failed')),
    (err) => logger.error({ err }, 'scheduled price-list sync failed'),
  );
  let foldTimer: NodeJS.Timeout | null = null;
  let alertTimer: NodeJS.Timeout | null = null;
  const alertSafely = () => Promise.all([
    operatorAlerts.run().catch((err) => logger.error({ err }, 'operator alert scan failed')),
    callbackNotices.digest(clock.now()).catch((err) => logger.error({ err }, 'callback digest failed')),
    lowBalanceNotices.run().catch((err) => logger.error({ err }, 'low-balance notices failed')),
  ]);
  let metricsServer: ReturnType<typeof metricsListener> | null = null;
  let pruneTimer: NodeJS.Timeout | null = null;
  const foldSafely = () => repos.orderHistory.foldCountShards(clock.now()).catch((err) => logger.error({ err }, 'folding order count shards failed'));

  return {
    config, logger, database, versionFeed: feed, secrets, limiter, repos, catalogCache, clock, ids, runner, jobHandlers, refreshSupply, probeSuppliers, callbacks, resendCallback, setCallbackUrl,
    core, operator, account, payments, operatorAlerts, callbackNotices, lowBalanceNotices, apiErrorLog, prometheus, readiness,
    forHttp: {
      auth, placeOrder, validateAccount, queries, fulfilment: fulfilmentRepo, present, currency,
      async startRequestHelpers() {
        if (!helpers) return;
        database.orderWriter?.start();
        await feed?.start();
      },
    },
    async listenMetrics() {
      if (!prometheus || !config.metrics) return null;
      prometheus.collectProcessMetrics();
      metricsServer ??= metricsListener({ metrics: prometheus, readiness: () => readiness.check() }, (err) => logger.error({ err }, 'metrics scrape failed'));
      return metricsServer.listen(config.metrics.host, config.metrics.port);
    },
    startBackground() {
      runner.start();
      void refreshSafely();
      refreshTimer = setInterval(refreshSafely, config.fulfilment.supplyRefreshMs);
      refreshTimer.unref();
      // Often enough that an open breaker is probed soon after its cool-down ends.
      probeTimer = setInterval(probeSafely, Math.max(100, Math.min(config.supplierBreaker.cooldownMs / 2, 5000)));
      probeTimer.unref();
      // Recent API errors past 7 days go even when no new refusal triggers a prune.
      pruneTimer = setInterval(() => apiErrorLog.prune().catch((err) => logger.error({ err }, 'pruning recent API errors failed')), API_ERRORS_PRUNE_MS);
      pruneTimer.unref();
      if (config.fulfilment.priceSyncMs > 0) {
        syncTimer = setInterval(syncSafely, config.fulfilment.priceSyncMs);
        syncTimer.unref();
      }
      if (config.alerts.scanMs > 0) {
        alertTimer = setInterval(alertSafely, config.alerts.scanMs);
        alertTimer.unref();
      }
      if (database.dialect === 'postgres') {
        void foldSafely();
        foldTimer = setInterval(foldSafely, COUNT_FOLD_MS);
        foldTimer.unref();
      }
    },
    seedDemo: () => seedDemo({ db, resellers: repos.resellers, ledger: repos.ledger, secrets, clock, ids }),
    // After the HTTP app has closed (main.ts): requests served while closing may still enqueue
    // jobs, which the worker, stopped last, takes first.
    async close() {
      if (refreshTimer) clearInterval(refreshTimer);
      if (probeTimer) clearInterval(probeTimer);
      if (syncTimer) clearInterval(syncTimer);
      if (foldTimer) clearInterval(foldTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      if (alertTimer) clearInterval(alertTimer);
      await runner.stop();
      await metricsServer?.close();
      await apiErrorLog.close();
      mailer?.close();
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
async function watchCacheVersions(database: Database, store: StoreConfig, logger: Logger) {
  if (store.kind === 'sqlite') return { versions: new VersionWatch(sqliteVersionReader(database.db, database.sqlite!), 'per-turn'), feed: null };
  const { PostgresVersionFeed } = await import('./store/postgres-version-feed.js');
  const feed = new PostgresVersionFeed(database.pool!, store.url, {
    onDrop: (err) => logger.warn({ err: (err as Error).message }, 'cache-version listener lost; each request reads the versions until it is back'),
  });
  return { versions: new VersionWatch(feed.read, 'in-flight', feed), feed };
}

/** The one line a start with the wrong master key ends with: which key, which store (no password). */
function wrongKeyMessage(config: Config): string {
  const key = config.masterKey ? 'MASTER_KEY' : `the master key in ${path.join(config.dataDir, 'master.key')}`;
  let store: string;
  if (config.store.kind === 'sqlite') store = `the SQLite store ${config.store.file}`;
  else {
    const url = new URL(config.store.url);
    url.password = '';
    url.search = '';
    store = `DATABASE_URL ${url.toString()}`;
  }
  return `topup: ${key} does not open this store's secrets (wrong key for ${store}); start with the key its secrets were sealed with`;
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
