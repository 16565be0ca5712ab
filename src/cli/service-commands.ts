import { sign } from '../domain/signature.js';
import { tuneHeapGrowth } from '../heap-tuning.js';
import type { ServicePlatform } from '../service-platform.js';
import type { DemoCredentials } from '../services/seed-demo.js';
import { loadConfig, parseArgs, progress, requireEnv, type CommandModule } from './support.js';

// The platform and the store load inside the commands that use them: `call` needs neither;
// `worker` and `seed` need the services without the HTTP app (service-platform.js).
const platformModule = () => import('../main.js');
const servicesModule = () => import('../service-platform.js');

function demoBanner(c: DemoCredentials, baseUrl: string): string {
  const body = '{"ref_id":"demo-001","product_code":"FF-100","target":"123456789"}';
  return `
================= Demo reseller created (shown once; store these now) =================
  API key:    ${c.apiKey}
  API secret: ${c.apiSecret}
  Tier gold, balance 1000000 IDR, whitelisted IPs 127.0.0.1 and ::1

Place an order (copy and paste):

  export TOPUP_BASE_URL=${baseUrl} TOPUP_API_KEY=${c.apiKey} TOPUP_API_SECRET=${c.apiSecret}
  npx topup call POST /order '${body}'
  npx topup call GET '/order-status?ref_id=demo-001'

or with curl and openssl only:

  TS=$(date +%s%3N); BODY='${body}'
  SIG=$(printf '%s%s' "$BODY" "$TS" | openssl dgst -sha256 -hmac "$TOPUP_API_SECRET" | sed 's/^.*= //')
  curl -s -X POST "$TOPUP_BASE_URL/order" -H 'Content-Type: application/json' \\
    -H "X-Api-Key: $TOPUP_API_KEY" -H "X-Timestamp: $TS" -H "X-Signature: $SIG" --data "$BODY"
=======================================================================================
`;
}

function operatorBanner(o: { email: string; password: string }, origin: string): string {
  return `
================= First operator created (shown once; store it now) ===================
  Email:    ${o.email}
  Password: ${o.password}
  Operator API: ${origin}/admin/v1 (sign in: POST /admin/v1/auth/sign-in)
=======================================================================================
`;
}

/** Why `listen` failed, in one line, for the errors an operator can fix. */
const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use (is another topup running?); stop it or set PORT to a free port',
  EACCES: 'permission denied (ports below 1024 need privileges); set PORT to 1024 or above',
  EADDRNOTAVAIL: 'this machine has no such address; set HOST to one of its addresses (e.g. 127.0.0.1 or 0.0.0.0)',
};

/** The metrics listener (unless METRICS_PORT=off); a port it cannot take stops the start, in one line. */
async function listenMetrics(platform: ServicePlatform) {
  const { metrics } = platform.config;
  try {
    const url = await platform.listenMetrics();
    if (url) process.stdout.write(`topup metrics on ${url}\n`);
  } catch (err) {
    const why = LISTEN_ERRORS[(err as NodeJS.ErrnoException).code ?? '']?.replace(/PORT/g, 'METRICS_PORT').replace(/set HOST/, 'set METRICS_HOST');
    if (!why) throw err;
    await platform.close().catch(() => {});
    process.stderr.write(`topup: cannot listen for metrics on ${metrics?.host}:${metrics?.port}: ${why} (or METRICS_PORT=off)\n`);
    process.exit(1);
  }
}

async function serve(args: string[]) {
  parseArgs('serve', args);
  const config = loadConfig();
  tuneHeapGrowth(config.heapGrowingPercent);
  progress(`opening the ${config.store.kind} store and running migrations`);
  const { createPlatform } = await platformModule();
  const platform = await createPlatform(config, { runsWorker: config.inProcessWorker });
  // The port first: credentials are created only once they can be printed (a start that
  // died on a taken port used to create them, print nothing, and never show them again).
  let address: string;
  try {
    address = await platform.app.listen({ host: config.host, port: config.port });
  } catch (err) {
    const why = LISTEN_ERRORS[(err as NodeJS.ErrnoException).code ?? ''];
    if (!why) throw err;
    await platform.close().catch(() => {});
    process.stderr.write(`topup: cannot listen on ${config.host}:${config.port}: ${why}; nothing was created\n`);
    process.exit(1);
  }
  await listenMetrics(platform);
  const creds = config.seedDemo ? await platform.seedDemo() : null;
  const firstOperator = await platform.operator.operators.ensureFirst();
  if (config.inProcessWorker) platform.startBackground();
  const baseUrl = `${address.replace('0.0.0.0', '127.0.0.1')}/api/v1`;
  if (firstOperator) process.stdout.write(operatorBanner(firstOperator, address.replace('0.0.0.0', '127.0.0.1')));
  if (creds) process.stdout.write(demoBanner(creds, baseUrl));
  process.stdout.write(`topup listening on ${baseUrl} (store: ${config.store.kind})\n`);
  // Graceful stop: out of the proxy's rotation first (/readyz 503) while still serving, then
  // the listener closes with in-flight requests answered, then the worker stops. A second
  // signal ends the process at once (`once`: the default action is back).
  const stop = async () => {
    const ms = config.shutdownDrainMs;
    platform.readiness.drain();
    if (ms > 0) {
      process.stdout.write(`topup draining: /readyz answers 503 for ${ms} ms (SHUTDOWN_DRAIN_MS), then the listener closes\n`);
      await new Promise((r) => setTimeout(r, ms));
    }
    await platform.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The job worker and supply refresh alone, for deployments that scale them separately: the
 * services without the HTTP app; its probe is the metrics listener's /readyz.
 */
async function worker(args: string[]) {
  parseArgs('worker', args);
  const config = loadConfig();
  tuneHeapGrowth(config.heapGrowingPercent);
  const { createServicePlatform } = await servicesModule();
  const platform = await createServicePlatform(config, { runsWorker: true });
  await listenMetrics(platform);
  platform.startBackground();
  process.stdout.write(`topup worker ${platform.runner.workerId} running (store: ${config.store.kind})\n`);
  const stop = async () => {
    await platform.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function migrate(args: string[]) {
  parseArgs('migrate', args);
  const config = loadConfig();
  progress(`migrating the ${config.store.kind} store`);
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../store/db.js'), import('../store/migrate.js')]);
  const db = openDatabase(config.store);
  const applied = await migrateToLatest(db);
  await db.close();
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
}

async function seed(args: string[]) {
  parseArgs('seed', args);
  const config = loadConfig();
  const { createServicePlatform } = await servicesModule();
  const platform = await createServicePlatform(config, { storeHelpers: false, metrics: false });
  const creds = await platform.seedDemo();
  await platform.close();
  process.stdout.write(creds ? demoBanner(creds, `http://${config.host}:${config.port}/api/v1`) : 'demo data already present; nothing changed\n');
}

/** Signs a request exactly as the spec says, so anyone can try the API from a terminal. */
async function call(args: string[]) {
  const { positional: [method, path, body] } = parseArgs<[string, string, string?]>('call', args);
  const key = requireEnv('call', 'TOPUP_API_KEY');
  const secret = requireEnv('call', 'TOPUP_API_SECRET');
  const base = (process.env.TOPUP_BASE_URL ?? 'http://127.0.0.1:8080/api/v1').replace(/\/$/, '');
  const ts = String(Date.now());
  const payload = method.toUpperCase() === 'GET' ? '' : (body ?? '');
  const headers: Record<string, string> = { 'x-api-key': key, 'x-timestamp': ts, 'x-signature': sign(secret, ts, payload) };
  if (payload) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path.startsWith('/') ? path : `/${path}`}`, { method: method.toUpperCase(), headers, body: payload || undefined });
  const text = await res.text();
  process.stderr.write(`HTTP ${res.status}\n`);
  try {
    process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  } catch {
    process.stdout.write(`${text}\n`);
  }
  process.exitCode = res.ok ? 0 : 1;
}

export const serviceCommands: CommandModule = { serve, worker, migrate, seed, call };
