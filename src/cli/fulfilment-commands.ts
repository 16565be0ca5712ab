import type { SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import { CLI_ACTOR } from '../services/operator/actor.js';
import { openDatabase } from '../store/db.js';
import { FulfilmentRepo } from '../store/fulfilment-repo.js';
import { migrateToLatest } from '../store/migrate.js';
import { findOrderId, loadConfig, output, parseArgs, UsageError, withPlatform, type CommandSet } from './support.js';

const SANDBOX_USAGE = 'topup sandbox [--mode up|down|maintenance] [--out-of-stock SKU,SKU] [--availability ok|broken] [--json]';

/** Operator switches of the sandbox supplier, to show every status and gate rule by hand (audited). */
async function sandbox(args: string[]) {
  const { flags, json, positional } = parseArgs(args, ['mode', 'out-of-stock', 'availability'], SANDBOX_USAGE);
  const patch: Partial<SandboxSwitches> = {};
  if (positional.length) throw new UsageError(`usage: ${SANDBOX_USAGE}`);
  if (flags.mode !== undefined) {
    if (!['up', 'down', 'maintenance'].includes(flags.mode)) throw new UsageError(`usage: ${SANDBOX_USAGE}`);
    patch.mode = flags.mode as SandboxSwitches['mode'];
  }
  if (flags['out-of-stock'] !== undefined) patch.outOfStock = flags['out-of-stock'].split(',').map((x) => x.trim()).filter(Boolean);
  if (flags.availability !== undefined) {
    if (!['ok', 'broken'].includes(flags.availability)) throw new UsageError(`usage: ${SANDBOX_USAGE}`);
    patch.availabilityBroken = flags.availability === 'broken';
  }
  await withPlatform(async (p) => {
    const supply = p.operator.supply;
    const switches = Object.keys(patch).length ? await supply.setSandboxSwitches(patch, CLI_ACTOR) : await supply.sandboxSwitches();
    output(json, switches, `${JSON.stringify(switches, null, 2)}\n(the server picks this up at its next supply refresh, SUPPLY_REFRESH_MS)`);
  });
}

async function resendCallbackCommand(args: string[]) {
  const { positional: [idOrCode], json } = parseArgs(args, [], 'topup resend-callback ORDER [--json]');
  if (!idOrCode) throw new UsageError('usage: topup resend-callback ORDER_ID|ORDER_CODE [--json]');
  await withPlatform(async (p) => {
    const { orderId, round } = await p.operator.orders.resendCallback(await findOrderId(p, idOrCode), CLI_ACTOR);
    output(json, { order_id: orderId, round, queued: true }, `round ${round} of callbacks queued for order ${orderId}`);
  });
}

async function callbackLogCommand(args: string[]) {
  const { positional: [idOrCode] } = parseArgs(args, [], 'topup callback-log ORDER [--json]');
  if (!idOrCode) throw new UsageError('usage: topup callback-log ORDER_ID|ORDER_CODE [--json]');
  await withPlatform(async (p) => {
    const log = await p.callbacks.log(await findOrderId(p, idOrCode));
    output(true, log, '');
  });
}

async function callbackUrlCommand(args: string[]) {
  const { positional: [email, url], json } = parseArgs(args, [], 'topup callback-url RESELLER_EMAIL URL|none [--json]');
  if (!email || url === undefined) throw new UsageError('usage: topup callback-url RESELLER_EMAIL URL|none [--json]');
  await withPlatform(async (p) => {
    const id = await p.operator.resellers.idByEmail(email);
    const { callbackUrl } = await p.operator.resellerSettings.setCallbackUrl(id, url === 'none' ? null : url, CLI_ACTOR);
    output(json, { reseller_id: id, callback_url: callbackUrl }, `callback URL of ${email}: ${callbackUrl ?? 'none'}`);
  });
}

async function supplierAddUpstream(args: string[]) {
  const { positional: [name, baseUrl], json } = parseArgs(args, [], 'topup supplier-add-upstream NAME BASE_URL [--json]');
  const apiKey = process.env.UPSTREAM_API_KEY ?? '';
  const apiSecret = process.env.UPSTREAM_API_SECRET ?? '';
  if (!name || !baseUrl || !apiKey || !apiSecret) {
    throw new UsageError('usage: UPSTREAM_API_KEY=… UPSTREAM_API_SECRET=… topup supplier-add-upstream NAME BASE_URL [--json]');
  }
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addUpstreamV1({ name, baseUrl, apiKey, apiSecret }, CLI_ACTOR);
    const hook = `<this server>/hooks/upstream-v1/${id}`;
    output(json, { supplier_id: id, name, adapter: 'upstream-v1', callback_url_to_set_upstream: hook }, `supplier ${name} added (${id}); set its callback URL upstream to ${hook}`);
  });
}

const SUPPLIER_SET_USAGE = 'topup supplier-set NAME [--enabled true|false] [--status active|maintenance] [--json]';

async function supplierSet(args: string[]) {
  const { positional: [name], flags, json } = parseArgs(args, ['enabled', 'status'], SUPPLIER_SET_USAGE);
  const patch: { enabled?: boolean; status?: 'active' | 'maintenance' } = {};
  if (flags.enabled !== undefined) {
    if (flags.enabled !== 'true' && flags.enabled !== 'false') throw new UsageError(`usage: ${SUPPLIER_SET_USAGE}`);
    patch.enabled = flags.enabled === 'true';
  }
  if (flags.status !== undefined) {
    if (flags.status !== 'active' && flags.status !== 'maintenance') throw new UsageError(`usage: ${SUPPLIER_SET_USAGE}`);
    patch.status = flags.status;
  }
  if (!name || Object.keys(patch).length === 0) throw new UsageError(`usage: ${SUPPLIER_SET_USAGE}`);
  await withPlatform(async (p) => {
    await p.operator.supply.setSupplier(name, patch, CLI_ACTOR);
    output(json, { supplier: name, ...patch }, `supplier ${name}: ${JSON.stringify(patch)}`);
  });
}

async function routeAdd(args: string[]) {
  const usage = 'topup route-add PRODUCT SUPPLIER SKU PRIORITY [COST] [--json]';
  const { positional: [productCode, supplierName, sku, priority, cost], json } = parseArgs(args, [], usage);
  if (!productCode || !supplierName || !sku || priority === undefined) throw new UsageError(`usage: ${usage}`);
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addRoute({ productCode, supplierName, sku, priority: Number(priority), cost: cost ?? '0' }, CLI_ACTOR);
    output(json, { route_id: id, product_code: productCode, supplier: supplierName, sku, priority: Number(priority) }, `route ${id}: ${productCode} → ${supplierName} ${sku} (priority ${priority})`);
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


export const fulfilmentCommands: CommandSet = {
  usage: `  sandbox [--mode up|down|maintenance] [--out-of-stock SKU,SKU] [--availability ok|broken]
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
                             (flagged for the operator; never refunded automatically)`,
  commands: {
    sandbox,
    attention,
    'supplier-add-upstream': supplierAddUpstream,
    'route-add': routeAdd,
    'supplier-set': supplierSet,
    'resend-callback': resendCallbackCommand,
    'callback-log': callbackLogCommand,
    'callback-url': callbackUrlCommand,
  },
};
