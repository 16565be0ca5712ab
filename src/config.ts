import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_REPORT_TIME_ZONE, fixedOffsetMinutes } from './domain/report-calendar.js';
import path from 'node:path';
import type { SmtpSettings } from './adapters/smtp-mailer.js';
import type { TelegramSettings } from './adapters/telegram.js';
import { MAX_EXACT_MINOR } from './domain/money.js';
import { DEFAULT_BREAKER, type BreakerSettings } from './domain/supplier-breaker.js';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from './domain/two-factor.js';

/**
 * Typed configuration, parsed once from the environment (plus an optional .env file).
 * Every problem is collected and reported together so a bad deployment fails fast with
 * the whole list, not one variable per restart.
 */
export type StoreConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string };

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  store: StoreConfig;
  redisUrl: string | null;
  /** 32-byte key for secrets at rest; null means "generate into the data folder". */
  masterKey: Buffer | null;
  currency: string;
  currencyDecimals: number;
  /** The operator's time zone for reports (REPORT_TIME_ZONE, one fixed offset) and its offset in minutes. */
  reportTimeZone: { name: string; offsetMinutes: number };
  /** The largest amount one operation may move (credit, debit, price), in major units. */
  maxOperationAmount: number;
  /**
   * Four-eyes (issue 37): an operator's credit, debit or manual refund above this amount,
   * in major units, waits for a second operator's approval; 0: off (money changes at once).
   */
  fourEyesThreshold: number;
  trustedProxies: string[];
  logLevel: string;
  seedDemo: boolean;
  /** Run the job worker and the supply refresh inside the server process. */
  inProcessWorker: boolean;
  worker: { concurrency: number; pollMs: number; leaseMs: number; heartbeatMs: number; perGroup: number; slowMs: number };
  fulfilment: { pollBaseMs: number; ambiguousBoundMs: number; supplyRefreshMs: number; priceSyncMs: number };
  /** The suppliers' circuit breaker (src/domain/supplier-breaker.ts). */
  supplierBreaker: BreakerSettings;
  checkerTimeoutMs: number;
  /** V8's old-space growth after a full GC for long-running processes, in percent (0: V8's own). */
  heapGrowingPercent: number;
  /** /readyz: how long each check (store, Redis) may take before it counts as failed. */
  readyTimeoutMs: number;
  /**
   * How long a request may take to arrive, from its first byte to the last of its body:
   * a client that stalls is answered 408 and its connection closed, so it holds no socket.
   */
  bodyTimeoutMs: number;
  /**
   * `serve` on SIGTERM/SIGINT: how long /readyz answers 503 while requests are still served,
   * before the listener closes, so the proxy's health check stops sending first.
   */
  shutdownDrainMs: number;
  sandboxDelayMs: number;
  /** Multiplies the spec's per-tier rate limits; only for load tests (default 1). */
  rateLimitScale: number;
  /** API v1: failed authentications a minute per source address and per API key before failures answer 429. */
  authFailures: { perIp: number; perKey: number };
  /** Let callbacks reach loopback/private addresses (sandbox and tests; never in production by default). */
  callbackAllowPrivateTargets: boolean;
  /** Lifetime of an operator or dashboard sign-in session. */
  sessionTtlMs: number;
  /** Who must have two-factor sign-in (OPERATOR_2FA_REQUIRED): owner and finance, every operator, or nobody. */
  operatorTwoFactor: TwoFactorPolicy;
  /**
   * The service's public origin (https://topup.example.com), if set: the one Origin browser
   * sessions accept and the base URL the dashboard shows; unset, both follow the Host header.
   */
  publicBaseUrl: string | null;
  /** Session cookies carry Secure (on unless NODE_ENV is development or test). */
  secureCookies: boolean;
  /** Record refused API v1 requests for the dashboard's "Recent API errors" (off only to measure its cost). */
  apiErrorLog: boolean;
  /** Prometheus metrics on their own listener (METRICS_HOST:METRICS_PORT); null: METRICS_PORT=off, nothing collected. */
  metrics: { host: string; port: number } | null;
  /**
   * Where email goes (SMTP_URL, or SMTP_HOST and its companions) and its sender (SMTP_FROM);
   * null: messages are kept in the outbox and shown in the console, nothing is sent.
   */
  smtp: SmtpSettings | null;
  /**
   * Midtrans (payment gateway deposits): MIDTRANS_SERVER_KEY, when set, is used instead of
   * the key sealed in the settings; MIDTRANS_APP_URL / MIDTRANS_API_URL replace the
   * environment's origins (tests point them at a fake). Null fields: the settings decide.
   */
  midtrans: { serverKey: string | null; appUrl: string | null; apiUrl: string | null };
  /**
   * Operator alerts: how often the scan runs (0: never), from how many open attention
   * items the operator is told, after how long unmatched deposit money is told, and the
   * Telegram chat they also go to (TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID; null: email only).
   */
  alerts: { scanMs: number; attentionCount: number; unmatchedAfterMs: number; telegram: (TelegramSettings & { language: string }) | null };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Minor-unit exponents of common currencies (ISO 4217); others default to 2. */
const CURRENCY_DECIMALS: Record<string, number> = { IDR: 0, JPY: 0, KRW: 0, VND: 0, USD: 2, EUR: 2, MYR: 2, PHP: 2, SGD: 2, THB: 2 };

/** ISO 4217 codes of real currencies, as Node's ICU data knows them (no XXX, XTS, XAU). */
const ISO_4217: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function loadDotEnv(file = '.env', env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    const [, key, raw] = m as unknown as [string, string, string];
    const value = raw.replace(/^(['"])(.*)\1$/, '$2');
    if (env[key] === undefined) env[key] = value; // the real environment wins
  }
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (name: string, fallback: string) => {
    const v = env[name];
    return v === undefined || v === '' ? fallback : v;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const nodeEnv = str('NODE_ENV', 'development');
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV must be development, production or test (got "${nodeEnv}")`);
  }
  const envName = (['development', 'production', 'test'].includes(nodeEnv) ? nodeEnv : 'development') as Config['env'];

  const dataDir = path.resolve(str('DATA_DIR', 'data'));
  const dbUrl = str('DATABASE_URL', '');
  let store: StoreConfig;
  if (dbUrl === '') store = { kind: 'sqlite', file: path.join(dataDir, 'topup.sqlite') };
  else if (/^postgres(ql)?:\/\//.test(dbUrl)) store = { kind: 'postgres', url: dbUrl };
  else if (dbUrl.startsWith('sqlite:')) store = { kind: 'sqlite', file: path.resolve(dbUrl.slice('sqlite:'.length)) };
  else {
    problems.push(`DATABASE_URL must be postgres://… or sqlite:<file> (got "${dbUrl}")`);
    store = { kind: 'sqlite', file: path.join(dataDir, 'topup.sqlite') };
  }

  const redisUrl = str('REDIS_URL', '') || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push(`REDIS_URL must be redis://… or rediss://… (got "${redisUrl}")`);

  let masterKey: Buffer | null = null;
  const mk = str('MASTER_KEY', '');
  if (mk) {
    const buf = /^[0-9a-f]{64}$/i.test(mk) ? Buffer.from(mk, 'hex') : Buffer.from(mk, 'base64');
    if (buf.length !== 32) problems.push('MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
    else masterKey = buf;
  } else if (envName === 'production') {
    problems.push('MASTER_KEY is required in production (32 bytes as hex or base64; e.g. `openssl rand -hex 32`)');
  }

  const currency = str('CURRENCY', 'IDR').toUpperCase();
  if (!ISO_4217.has(currency)) problems.push(`CURRENCY must be an ISO 4217 currency code such as IDR, USD or EUR (got "${currency}")`);
  const currencyDecimals = int('CURRENCY_DECIMALS', CURRENCY_DECIMALS[currency] ?? 2, 0, 4);
  const reportZone = str('REPORT_TIME_ZONE', DEFAULT_REPORT_TIME_ZONE);
  const reportOffset = fixedOffsetMinutes(reportZone);
  if (!reportOffset.ok) problems.push(`REPORT_TIME_ZONE: ${reportOffset.error}`);

  const trustedProxies = str('TRUSTED_PROXIES', '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of trustedProxies) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p)) problems.push(`TRUSTED_PROXIES entry "${p}" is not an IP address or CIDR`);
  }

  const logLevel = str('LOG_LEVEL', envName === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  }

  // Short leases renewed by a heartbeat: a killed worker's jobs are free within one lease.
  const leaseMs = int('WORKER_LEASE_MS', 5000, 1000, 3_600_000);
  const heartbeatMs = int('WORKER_HEARTBEAT_MS', Math.floor(leaseMs / 3), 100, 3_600_000);
  if (heartbeatMs * 2 > leaseMs) problems.push(`WORKER_HEARTBEAT_MS must be at most half of WORKER_LEASE_MS (${leaseMs}), so a late beat does not lose the lease (got ${heartbeatMs})`);

  const config: Config = {
    env: envName,
    host: str('HOST', '127.0.0.1'),
    port: int('PORT', 8080, 0, 65535),
    dataDir,
    store,
    redisUrl,
    masterKey,
    currency,
    currencyDecimals,
    reportTimeZone: { name: reportZone, offsetMinutes: reportOffset.ok ? reportOffset.minutes : 420 },
    // Bounded so that the amount in minor units stays within what is exact (MAX_EXACT_MINOR).
    maxOperationAmount: int('MAX_OPERATION_AMOUNT', 1_000_000_000, 1, Math.floor(MAX_EXACT_MINOR / 10 ** currencyDecimals)),
    // 10 million rupiah by default; major units, like MAX_OPERATION_AMOUNT.
    fourEyesThreshold: int('FOUR_EYES_THRESHOLD', 10_000_000, 0, Math.floor(MAX_EXACT_MINOR / 10 ** currencyDecimals)),
    trustedProxies,
    logLevel,
    seedDemo: bool('SEED_DEMO', envName !== 'production'),
    inProcessWorker: bool('WORKER_IN_PROCESS', true),
    worker: {
      concurrency: int('WORKER_CONCURRENCY', 32, 1, 1000),
      pollMs: int('WORKER_POLL_MS', 50, 5, 60_000),
      leaseMs,
      heartbeatMs,
      perGroup: int('CALLBACKS_PER_RESELLER', 4, 1, 1000),
      slowMs: int('CALLBACK_SLOW_MS', 250, 0, 60_000),
    },
    fulfilment: {
      pollBaseMs: int('FULFIL_POLL_MS', 500, 10, 600_000),
      ambiguousBoundMs: int('FULFIL_ATTENTION_AFTER_MS', 15 * 60_000, 1000, 7 * 86_400_000),
      supplyRefreshMs: int('SUPPLY_REFRESH_MS', 30_000, 100, 3_600_000),
      // 0: no scheduled price-list sync (topup supplier-sync still works).
      priceSyncMs: int('SUPPLIER_SYNC_MS', 3_600_000, 0, 86_400_000),
    },
    supplierBreaker: {
      failuresToOpen: DEFAULT_BREAKER.failuresToOpen,
      cooldownMs: int('SUPPLIER_BREAKER_COOLDOWN_MS', DEFAULT_BREAKER.cooldownMs, 100, 3_600_000),
      probeOrders: int('SUPPLIER_BREAKER_PROBE_ORDERS', DEFAULT_BREAKER.probeOrders, 1, 1000),
    },
    checkerTimeoutMs: int('CHECKER_TIMEOUT_MS', 2000, 10, 60_000),
    heapGrowingPercent: int('HEAP_GROWING_PERCENT', 30, 0, 400),
    readyTimeoutMs: int('READY_TIMEOUT_MS', 1000, 10, 60_000),
    // A body is at most 64 KB: in 10 s that asks a client for no more than 6.4 KB a second.
    bodyTimeoutMs: int('BODY_TIMEOUT_MS', 10_000, 100, 600_000),
    // Production sits behind a proxy whose health check (deploy/Caddyfile: every 2 s) must see
    // the 503 first; elsewhere nothing probes, and Ctrl-C should stop at once.
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', envName === 'production' ? 5000 : 0, 0, 600_000),
    sandboxDelayMs: int('SANDBOX_DELAY_MS', 200, 0, 600_000),
    rateLimitScale: (() => {
      const raw = env.RATE_LIMIT_SCALE;
      if (raw === undefined || raw === '') return 1;
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0 || n > 100_000) {
        problems.push(`RATE_LIMIT_SCALE must be a positive number up to 100000 (got "${raw}")`);
        return 1;
      }
      return n;
    })(),
    // Well above what an honest integration with a bug sends in its first minute (a retry
    // loop at a request a second), so it sees its real error codes; only failures are counted.
    authFailures: { perIp: int('AUTH_FAILURES_PER_IP', 120, 1, 1_000_000), perKey: int('AUTH_FAILURES_PER_KEY', 240, 1, 1_000_000) },
    callbackAllowPrivateTargets: bool('CALLBACK_ALLOW_PRIVATE_TARGETS', envName !== 'production'),
    sessionTtlMs: int('SESSION_TTL_MINUTES', 720, 1, 43_200) * 60_000,
    // Production requires it of owner and finance; development and test leave it to each
    // operator, so the demo and the suites sign in with a password alone unless they ask.
    operatorTwoFactor: (() => {
      const raw = str('OPERATOR_2FA_REQUIRED', envName === 'production' ? 'roles' : 'off').toLowerCase();
      if ((TWO_FACTOR_POLICIES as readonly string[]).includes(raw)) return raw as TwoFactorPolicy;
      problems.push(`OPERATOR_2FA_REQUIRED must be roles, all or off (got "${raw}")`);
      return 'roles' as TwoFactorPolicy;
    })(),
    publicBaseUrl: (() => {
      const raw = str('PUBLIC_BASE_URL', '');
      if (raw === '') return null;
      try {
        const u = new URL(raw);
        if ((u.protocol === 'http:' || u.protocol === 'https:') && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username) return u.origin;
      } catch { /* reported below */ }
      problems.push(`PUBLIC_BASE_URL must be an origin such as https://topup.example.com, with no path (got "${raw}")`);
      return null;
    })(),
    smtp: null,
    midtrans: {
      serverKey: str('MIDTRANS_SERVER_KEY', '') || null,
      appUrl: originOrNull('MIDTRANS_APP_URL', str('MIDTRANS_APP_URL', ''), problems),
      apiUrl: originOrNull('MIDTRANS_API_URL', str('MIDTRANS_API_URL', ''), problems),
    },
    alerts: { scanMs: 0, attentionCount: 0, unmatchedAfterMs: 0, telegram: null },
    secureCookies: envName === 'production',
    apiErrorLog: bool('API_ERROR_LOG', true),
    // On by default, on loopback: the figures are never served on the API's listener.
    metrics: (() => {
      const raw = str('METRICS_PORT', '9464');
      if (raw.toLowerCase() === 'off') return null;
      const port = Number(raw);
      if (!/^\d+$/.test(raw) || port > 65535) problems.push(`METRICS_PORT must be a port from 0 to 65535, or off (got "${raw}")`);
      return { host: str('METRICS_HOST', '127.0.0.1'), port: Number.isInteger(port) && port <= 65535 ? port : 9464 };
    })(),
  };
  config.smtp = smtpSettings(env, str, int, bool, problems);
  config.alerts = {
    scanMs: int('ALERT_SCAN_SECONDS', 60, 0, 86_400) * 1000,
    attentionCount: int('ALERT_ATTENTION_COUNT', 20, 0, 1_000_000),
    unmatchedAfterMs: int('ALERT_UNMATCHED_MINUTES', 60, 1, 10_080) * 60_000,
    telegram: telegramSettings(str, problems),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

function originOrNull(name: string, raw: string, problems: string[]): string | null {
  if (raw === '') return null;
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  } catch { /* reported below */ }
  problems.push(`${name} must be an origin such as https://app.sandbox.midtrans.com (got "${raw}")`);
  return null;
}

/** SMTP_URL, or SMTP_HOST with SMTP_PORT/SECURE/USER/PASSWORD; SMTP_FROM is then required. */
function smtpSettings(
  env: NodeJS.ProcessEnv, str: (n: string, f: string) => string, int: (n: string, f: number, min: number, max: number) => number,
  bool: (n: string, f: boolean) => boolean, problems: string[],
): SmtpSettings | null {
  const url = str('SMTP_URL', '');
  const host = str('SMTP_HOST', '');
  if (url === '' && host === '') {
    for (const name of ['SMTP_FROM', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_PORT', 'SMTP_SECURE']) {
      if (env[name]) problems.push(`${name} is set but neither SMTP_URL nor SMTP_HOST is: set one of them, or unset ${name}`);
    }
    return null;
  }
  const from = str('SMTP_FROM', '');
  if (!/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from.trim())) {
    problems.push(`SMTP_FROM must be the sender's address, such as "Topup <no-reply@topup.example.com>" (got "${from}")`);
  }
  if (url !== '') {
    if (host !== '') problems.push('set SMTP_URL or SMTP_HOST, not both');
    if (!/^smtps?:\/\/[^/]/.test(url)) problems.push('SMTP_URL must be smtp://user:password@host:port or smtps://… (got a value of another form)');
    return { url, from: from.trim() };
  }
  const secure = bool('SMTP_SECURE', false);
  const user = str('SMTP_USER', '') || null;
  return { host, port: int('SMTP_PORT', secure ? 465 : 587, 1, 65535), secure, user, password: user ? str('SMTP_PASSWORD', '') : null, from: from.trim() };
}

/** TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID, both or neither; TELEGRAM_API_URL and TELEGRAM_LANGUAGE optional. */
function telegramSettings(str: (name: string, d: string) => string, problems: string[]): (TelegramSettings & { language: string }) | null {
  const botToken = str('TELEGRAM_BOT_TOKEN', '');
  const chatId = str('TELEGRAM_CHAT_ID', '');
  if (botToken === '' && chatId === '') return null;
  if (botToken === '' || chatId === '') {
    problems.push('set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID together (the bot that writes, and the chat it writes to), or neither');
    return null;
  }
  if (!/^\d+:[A-Za-z0-9_-]+$/.test(botToken)) problems.push('TELEGRAM_BOT_TOKEN must be the token BotFather gave, such as 123456:ABC-DEF… (got a value of another form)');
  if (!/^(-?\d+|@[A-Za-z0-9_]{5,})$/.test(chatId)) problems.push(`TELEGRAM_CHAT_ID must be a chat id such as -1001234567890 or a channel's @name (got "${chatId}")`);
  const apiUrl = str('TELEGRAM_API_URL', 'https://api.telegram.org');
  if (!/^https?:\/\/[^/]/.test(apiUrl)) problems.push(`TELEGRAM_API_URL must be an http(s) URL (got "${apiUrl}")`);
  const language = str('TELEGRAM_LANGUAGE', 'en');
  if (language !== 'en' && language !== 'id') problems.push(`TELEGRAM_LANGUAGE must be en or id (got "${language}")`);
  return { apiUrl, botToken, chatId, language };
}
