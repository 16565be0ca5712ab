import { ConfigError, loadDotEnv, parseConfig, type Config } from './config.js';
import { sign } from './domain/signature.js';
import { createPlatform, type Platform } from './main.js';
import type { DemoCredentials } from './services/seed-demo.js';
import { readSandboxSwitches, writeSandboxSwitches, type SandboxSwitches } from './adapters/suppliers/sandbox.js';
import { openDatabase } from './store/db.js';
import { migrateToLatest } from './store/migrate.js';
import { FulfilmentRepo } from './store/fulfilment-repo.js';
import { SupplyRepo } from './store/supply-repo.js';
import { ManageSupply } from './services/manage-supply.js';

const USAGE = `Usage: topup <command>

Commands:
  serve                      migrate, seed the demo on first start, and serve the API
                             (with the job worker inside unless WORKER_IN_PROCESS=false)
  worker                     run only the job worker and the supply refresh
  migrate                    run database migrations and exit
  seed                       seed the demo data (prints the demo credentials once)
  sandbox [--mode up|down|maintenance] [--out-of-stock SKU,SKU] [--availability ok|broken]
                             show or switch the sandbox supplier's state
  callback-url EMAIL URL|none set a reseller's callback URL (checked against the SSRF rules)
  resend-callback ORDER      a new round of callback attempts for a terminal order (id or ORD- code)
  callback-log ORDER         every callback round and attempt of an order
  supplier-add-upstream NAME BASE_URL
                             add an upstream-v1 supplier (another installation of this API);
                             env UPSTREAM_API_KEY and UPSTREAM_API_SECRET, sealed at rest
  route-add PRODUCT SUPPLIER SKU PRIORITY [COST]
                             route a product to a supplier (lower priority is tried first)
  supplier-set NAME [--enabled true|false] [--status active|maintenance]
                             take a supplier out of or back into service (supplier gate)
  attention                  orders still processing without a definite supplier answer
                             (flagged for the operator; never refunded automatically)
  call METHOD PATH [BODY]    sign and send a reseller API request
                             (env: TOPUP_API_KEY, TOPUP_API_SECRET, TOPUP_BASE_URL)
`;

function loadConfig(): Config {
  loadDotEnv();
  try {
    return parseConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

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

async function serve() {
  const config = loadConfig();
  const platform = await createPlatform(config);
  const creds = config.seedDemo ? await platform.seedDemo() : null;
  const firstOperator = await platform.operator.operators.ensureFirst();
  if (config.inProcessWorker) platform.startBackground();
  const address = await platform.app.listen({ host: config.host, port: config.port });
  const baseUrl = `${address.replace('0.0.0.0', '127.0.0.1')}/api/v1`;
  if (firstOperator) process.stdout.write(operatorBanner(firstOperator, address.replace('0.0.0.0', '127.0.0.1')));
  if (creds) process.stdout.write(demoBanner(creds, baseUrl));
  process.stdout.write(`topup listening on ${baseUrl} (store: ${config.store.kind})\n`);
  const stop = async () => {
    await platform.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The job worker and supply refresh alone, for deployments that scale them separately. */
async function worker() {
  const config = loadConfig();
  const platform = await createPlatform(config);
  platform.startBackground();
  process.stdout.write(`topup worker ${platform.runner.workerId} running (store: ${config.store.kind})\n`);
  const stop = async () => {
    await platform.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Operator switches of the sandbox supplier, to show every status and gate rule by hand. */
async function sandbox(args: string[]) {
  const config = loadConfig();
  const db = openDatabase(config.store);
  await migrateToLatest(db);
  const patch: Partial<SandboxSwitches> = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1] ?? ''];
    if (flag === '--mode' && ['up', 'down', 'maintenance'].includes(value)) patch.mode = value as SandboxSwitches['mode'];
    else if (flag === '--out-of-stock') patch.outOfStock = value.split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--availability' && ['ok', 'broken'].includes(value)) patch.availabilityBroken = value === 'broken';
    else {
      process.stderr.write('usage: topup sandbox [--mode up|down|maintenance] [--out-of-stock SKU,SKU] [--availability ok|broken]\n');
      process.exit(2);
    }
    i++;
  }
  const switches = Object.keys(patch).length ? await writeSandboxSwitches(db.db, patch) : await readSandboxSwitches(db.db);
  await db.close();
  process.stdout.write(`${JSON.stringify(switches, null, 2)}\n(the server picks this up at its next supply refresh, SUPPLY_REFRESH_MS)\n`);
}

/** Operator commands that act through the services (the admin API is not built yet). */
async function withPlatform<T>(fn: (p: Awaited<ReturnType<typeof createPlatform>>) => Promise<T>): Promise<T> {
  const platform = await createPlatform(loadConfig());
  try {
    return await fn(platform);
  } finally {
    await platform.close();
  }
}

/** An order by its id, or by its ORD- code (the first 12 hex digits of the id). */
async function findOrderId(p: Awaited<ReturnType<typeof createPlatform>>, idOrCode: string): Promise<string> {
  const code = /^ORD-([0-9A-F]{12})$/i.exec(idOrCode)?.[1]?.toLowerCase();
  let q = p.database.db.selectFrom('orders').select('id');
  q = code ? q.where('id', 'like', `${code.slice(0, 8)}-${code.slice(8)}-%`) : q.where('id', '=', idOrCode);
  const rows = await q.execute();
  if (rows.length !== 1) throw new Error(`no single order matches ${idOrCode}`);
  return rows[0]!.id;
}

async function resendCallbackCommand(idOrCode: string | undefined) {
  if (!idOrCode) throw new Error('usage: topup resend-callback ORDER_ID|ORDER_CODE');
  await withPlatform(async (p) => {
    const orderId = await findOrderId(p, idOrCode);
    const { round } = await p.resendCallback.execute(orderId);
    process.stdout.write(`${JSON.stringify({ order_id: orderId, round, queued: true })}\n`);
  });
}

async function callbackLogCommand(idOrCode: string | undefined) {
  if (!idOrCode) throw new Error('usage: topup callback-log ORDER_ID|ORDER_CODE');
  await withPlatform(async (p) => {
    process.stdout.write(`${JSON.stringify(await p.callbacks.log(await findOrderId(p, idOrCode)), null, 2)}\n`);
  });
}

async function callbackUrlCommand(email: string | undefined, url: string | undefined) {
  if (!email || url === undefined) throw new Error('usage: topup callback-url RESELLER_EMAIL URL|none');
  await withPlatform(async (p) => {
    const r = await p.database.db.selectFrom('resellers').select('id').where('email', '=', email).executeTakeFirst();
    if (!r) throw new Error(`no reseller with email ${email}`);
    await p.setCallbackUrl.execute(r.id, url === 'none' ? null : url);
    process.stdout.write(`${JSON.stringify({ reseller_id: r.id, callback_url: url === 'none' ? null : url })}\n`);
  });
}

function manageSupply(p: Platform) {
  return new ManageSupply({ supply: new SupplyRepo(p.database.db), secrets: p.secrets, clock: p.clock, ids: p.ids });
}

async function supplierAddUpstream(name: string | undefined, baseUrl: string | undefined) {
  const apiKey = process.env.UPSTREAM_API_KEY ?? '';
  const apiSecret = process.env.UPSTREAM_API_SECRET ?? '';
  if (!name || !baseUrl || !apiKey || !apiSecret) {
    throw new Error('usage: UPSTREAM_API_KEY=… UPSTREAM_API_SECRET=… topup supplier-add-upstream NAME BASE_URL');
  }
  await withPlatform(async (p) => {
    const { id } = await manageSupply(p).addUpstreamV1({ name, baseUrl, apiKey, apiSecret });
    process.stdout.write(`${JSON.stringify({ supplier_id: id, name, adapter: 'upstream-v1', callback_url_to_set_upstream: `<this server>/hooks/upstream-v1/${id}` })}\n`);
  });
}

async function supplierSet(args: string[]) {
  const [name, ...flags] = args;
  const patch: { enabled?: boolean; status?: 'active' | 'maintenance' } = {};
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1]];
    if (flag === '--enabled' && (value === 'true' || value === 'false')) patch.enabled = value === 'true';
    else if (flag === '--status' && (value === 'active' || value === 'maintenance')) patch.status = value;
    else throw new Error('usage: topup supplier-set NAME [--enabled true|false] [--status active|maintenance]');
  }
  if (!name || Object.keys(patch).length === 0) throw new Error('usage: topup supplier-set NAME [--enabled true|false] [--status active|maintenance]');
  await withPlatform(async (p) => {
    await manageSupply(p).setSupplier(name, patch);
    process.stdout.write(`${JSON.stringify({ supplier: name, ...patch })}\n`);
  });
}

async function routeAdd(args: string[]) {
  const [productCode, supplierName, sku, priority, cost] = args;
  if (!productCode || !supplierName || !sku || priority === undefined) throw new Error('usage: topup route-add PRODUCT SUPPLIER SKU PRIORITY [COST]');
  await withPlatform(async (p) => {
    const { id } = await manageSupply(p).addRoute({ productCode, supplierName, sku, priority: Number(priority), cost: Number(cost ?? 0) });
    process.stdout.write(`${JSON.stringify({ route_id: id, product_code: productCode, supplier: supplierName, sku, priority: Number(priority) })}\n`);
  });
}

/** Orders fulfilment flagged because no supplier answer came within FULFIL_ATTENTION_AFTER_MS. */
async function attention() {
  const config = loadConfig();
  const db = openDatabase(config.store);
  await migrateToLatest(db);
  const rows = await new FulfilmentRepo(db.db).flaggedOrders();
  await db.close();
  if (rows.length === 0) {
    process.stdout.write('no order needs attention\n');
    return;
  }
  for (const r of rows) {
    process.stdout.write(`${r.id}  ref_id=${r.ref_id}  reseller=${r.reseller_id}  product=${r.product_code}  supplier=${r.supplier ?? '-'}  placed=${new Date(Number(r.created_at)).toISOString()}\n`);
  }
  process.stdout.write(`${rows.length} order(s) still processing; ask the supplier about each order id (its reference upstream)\n`);
}

async function migrate() {
  const config = loadConfig();
  const db = openDatabase(config.store);
  const applied = await migrateToLatest(db);
  await db.close();
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
}

async function seed() {
  const config = loadConfig();
  const platform = await createPlatform(config);
  const creds = await platform.seedDemo();
  await platform.close();
  process.stdout.write(creds ? demoBanner(creds, `http://${config.host}:${config.port}/api/v1`) : 'demo data already present; nothing changed\n');
}

/** Signs a request exactly as the spec says, so anyone can try the API from a terminal. */
async function call(method: string | undefined, path: string | undefined, body: string | undefined) {
  const key = process.env.TOPUP_API_KEY;
  const secret = process.env.TOPUP_API_SECRET;
  if (!method || !path || !key || !secret) {
    process.stderr.write('usage: topup call METHOD PATH [BODY]  (TOPUP_API_KEY and TOPUP_API_SECRET must be set)\n');
    process.exit(2);
  }
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

const [command, ...args] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = {
  serve,
  worker,
  migrate,
  seed,
  call: () => call(args[0], args[1], args[2]),
  sandbox: () => sandbox(args),
  attention,
  'supplier-add-upstream': () => supplierAddUpstream(args[0], args[1]),
  'route-add': () => routeAdd(args),
  'supplier-set': () => supplierSet(args),
  'resend-callback': () => resendCallbackCommand(args[0]),
  'callback-log': () => callbackLogCommand(args[0]),
  'callback-url': () => callbackUrlCommand(args[0], args[1]),
};
const run = command ? commands[command] : undefined;
if (!run) {
  process.stdout.write(USAGE);
  process.exit(command ? 2 : 0);
} else {
  run().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(1);
  });
}
