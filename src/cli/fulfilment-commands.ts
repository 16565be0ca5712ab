import { readSandboxSwitches, writeSandboxSwitches, type SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import type { Platform } from '../main.js';
import { openDatabase } from '../store/db.js';
import { FulfilmentRepo } from '../store/fulfilment-repo.js';
import { migrateToLatest } from '../store/migrate.js';
import { findOrderId, loadConfig, withPlatform, type CommandSet } from './support.js';

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
  return p.operator.supply;
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
    'supplier-add-upstream': (args) => supplierAddUpstream(args[0], args[1]),
    'route-add': routeAdd,
    'supplier-set': supplierSet,
    'resend-callback': (args) => resendCallbackCommand(args[0]),
    'callback-log': (args) => callbackLogCommand(args[0]),
    'callback-url': (args) => callbackUrlCommand(args[0], args[1]),
  },
};
