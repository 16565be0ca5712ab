import type { SandboxSkuList, SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import type { Platform } from '../main.js';
import { CLI_ACTOR } from '../services/operator/actor.js';
import { openDatabase } from '../store/db.js';
import { FulfilmentRepo } from '../store/fulfilment-repo.js';
import { AttentionRepo } from '../store/attention-repo.js';
import { migrateToLatest } from '../store/migrate.js';
import { findOrderId, loadConfig, output, parseArgs, UsageError, withPlatform, type CommandSet } from './support.js';

const SANDBOX_USAGE = `topup sandbox [--mode up|down|maintenance] [--out-of-stock SKU,SKU] [--availability ok|broken] [--json]
       topup sandbox out-of-stock|broken-availability add|remove --product CODE|--sku SKU [--json]`;

const SKU_LISTS: Record<string, SandboxSkuList> = { 'out-of-stock': 'outOfStock', 'broken-availability': 'brokenAvailability' };

/** Operator switches of the sandbox supplier, to show every status and gate rule by hand (audited). */
async function sandbox(args: string[]) {
  const { flags, json, positional } = parseArgs(args, ['mode', 'out-of-stock', 'availability', 'product', 'sku'], SANDBOX_USAGE);
  if (positional.length) return sandboxPerSku(positional, flags, json);
  if (flags.product !== undefined || flags.sku !== undefined) throw new UsageError(`usage: ${SANDBOX_USAGE}`);
  const patch: Partial<SandboxSwitches> = {};
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
    await printSwitches(p, json, switches);
  });
}

/** One product (or SKU) at a time, the others untouched: `topup sandbox out-of-stock add --product FF-100`. */
async function sandboxPerSku(positional: string[], flags: Record<string, string>, json: boolean) {
  const [listName, action, ...rest] = positional;
  const list = SKU_LISTS[listName ?? ''];
  const target = flags.product !== undefined && flags.sku === undefined ? { productCode: flags.product } : flags.sku !== undefined && flags.product === undefined ? { sku: flags.sku } : null;
  if (!list || (action !== 'add' && action !== 'remove') || rest.length || !target) throw new UsageError(`usage: ${SANDBOX_USAGE}`);
  await withPlatform(async (p) => {
    const supply = p.operator.supply;
    const switches = action === 'add' ? await supply.addSandboxSkus(list, target, CLI_ACTOR) : await supply.removeSandboxSkus(list, target, CLI_ACTOR);
    await printSwitches(p, json, switches);
  });
}

async function printSwitches(p: Platform, json: boolean, switches: SandboxSwitches) {
  const products = await p.operator.supply.sandboxProducts();
  const lines = products.map((x) => `  ${x.productCode.padEnd(12)} ${x.sku.padEnd(14)} ${x.outOfStock ? 'out of stock' : 'in stock'}${x.availabilityBroken ? ', availability check broken' : ''}`);
  output(json, { ...switches, products }, `mode ${switches.mode}; availability check ${switches.availabilityBroken ? 'broken for every product' : 'ok'}\n${lines.join('\n')}\n` +
    '(product status follows at the next supply refresh, SUPPLY_REFRESH_MS, or now with `topup supply-refresh`)');
}

/** The supply refresh now (what the server does every SUPPLY_REFRESH_MS): product status follows at once. */
async function supplyRefresh(args: string[]) {
  const { positional, json } = parseArgs(args, [], 'topup supply-refresh [--json]');
  if (positional.length) throw new UsageError('usage: topup supply-refresh [--json]');
  await withPlatform(async (p) => {
    const r = await p.operator.supply.refreshNow(CLI_ACTOR);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const data = {
      started_at: iso(r.startedAt), finished_at: iso(r.finishedAt), availability_check_failed: r.availabilityCheckFailed, routes_checked: r.routesChecked,
      suppliers: r.suppliers, routes: r.routes.map((x) => ({ id: x.id, product_code: x.productCode, supplier: x.supplierName, sku: x.sku, available: x.available, checked_at: iso(x.checkedAt) })),
    };
    const routes = data.routes.map((x) => `  ${x.product_code.padEnd(12)} ${x.supplier} ${x.sku}: ${x.available === null ? 'unknown (counts as available)' : x.available ? 'available' : 'unavailable'}`);
    output(json, data, `supply refreshed at ${data.finished_at}: ${r.suppliers.map((s) => `${s.name} ${s.health}`).join(', ') || 'no enabled supplier'}; ` +
      `${r.routesChecked} route(s) checked${r.availabilityCheckFailed ? '; an availability check could not run, so every product is reported active' : ''}\n${routes.join('\n')}`);
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

const DIGIFLAZZ_USAGE = 'DIGIFLAZZ_USERNAME=… DIGIFLAZZ_API_KEY=… [DIGIFLAZZ_WEBHOOK_SECRET=…] topup supplier-add-digiflazz NAME [--base-url URL] [--balance-threshold AMOUNT] [--json]';

/** Credentials come from the environment (never the command line: shell history, ps). */
async function supplierAddDigiflazz(args: string[]) {
  const { positional: [name], flags, json } = parseArgs(args, ['base-url', 'balance-threshold'], DIGIFLAZZ_USAGE);
  const username = process.env.DIGIFLAZZ_USERNAME ?? '';
  const apiKey = process.env.DIGIFLAZZ_API_KEY ?? '';
  const webhookSecret = process.env.DIGIFLAZZ_WEBHOOK_SECRET || null;
  if (!name || !username || !apiKey) throw new UsageError(`usage: ${DIGIFLAZZ_USAGE}`);
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addDigiflazz({ name, username, apiKey, webhookSecret, baseUrl: flags['base-url'], balanceThreshold: flags['balance-threshold'] ?? null }, CLI_ACTOR);
    const hook = `<this server>/hooks/digiflazz/${id}`;
    output(json, { supplier_id: id, name, adapter: 'digiflazz', webhook_url_to_set_at_digiflazz: hook, webhook_secret: webhookSecret ? 'sealed' : 'none' },
      `supplier ${name} added (${id}); in the Digiflazz member area whitelist this server's IP and set the webhook URL ${hook}${webhookSecret ? ' with the same secret' : ' (no webhook secret given: webhooks will be refused; polling still settles orders)'}`);
  });
}

async function supplierSync(args: string[]) {
  const { positional: [name], json } = parseArgs(args, [], 'topup supplier-sync NAME [--json]');
  if (!name) throw new UsageError('usage: topup supplier-sync NAME [--json]');
  await withPlatform(async (p) => {
    const r = await p.operator.priceSync.run(name, CLI_ACTOR);
    const lines = [
      `${r.skus} SKUs; ${r.added.length} new, ${r.removed.length} gone, ${r.changed.length} changes`,
      ...r.changed.map((c) => `  ${c.sku}: ${c.field} ${String(c.before)} → ${String(c.after)}`),
      ...r.belowCost.map((b) => `  route ${b.routeId} (${b.productCode} → ${b.sku}) taken out of service: cost ${b.cost} ≥ lowest price ${b.lowestPrice}`),
    ];
    output(json, r, lines.join('\n'));
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
  const usage = 'topup route-add PRODUCT SUPPLIER SKU PRIORITY [COST] [--customer-no FORMAT] [--testing true|false] [--json]';
  const { positional: [productCode, supplierName, sku, priority, cost], flags, json } = parseArgs(args, ['customer-no', 'testing'], usage);
  if (!productCode || !supplierName || !sku || priority === undefined) throw new UsageError(`usage: ${usage}`);
  if (flags.testing !== undefined && flags.testing !== 'true' && flags.testing !== 'false') throw new UsageError(`usage: ${usage}`);
  const options = { ...(flags['customer-no'] === undefined ? {} : { customerNo: flags['customer-no'] }), ...(flags.testing === undefined ? {} : { testing: flags.testing === 'true' }) };
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addRoute({ productCode, supplierName, sku, priority: Number(priority), cost: cost ?? '0', options }, CLI_ACTOR);
    output(json, { route_id: id, product_code: productCode, supplier: supplierName, sku, priority: Number(priority) }, `route ${id}: ${productCode} → ${supplierName} ${sku} (priority ${priority})`);
  });
}

/** Orders fulfilment flagged because no supplier answer came within FULFIL_ATTENTION_AFTER_MS. */
async function attention() {
  const config = loadConfig();
  const db = openDatabase(config.store);
  await migrateToLatest(db);
  const rows = await new FulfilmentRepo(db.db).flaggedOrders();
  const items = (await new AttentionRepo(db.db).list({ all: false, limit: 100, offset: 0 })).items;
  await db.close();
  for (const i of items) process.stdout.write(`${i.id}  ${i.kind}  ${new Date(i.createdAt).toISOString()}  ${i.summary}\n`);
  if (items.length) process.stdout.write(`${items.length} open attention item(s) (resolve in the console, or POST /admin/v1/attention-items/{id}/resolve)\n`);
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
  sandbox out-of-stock|broken-availability add|remove --product CODE|--sku SKU
                             one product's switch, the others untouched (rehearse one outage)
  supply-refresh             refresh supplier health and route availability now
  callback-url EMAIL URL|none set a reseller's callback URL (checked against the SSRF rules)
  resend-callback ORDER      a new round of callback attempts for a terminal order (id or ORD- code)
  callback-log ORDER         every callback round and attempt of an order
  supplier-add-upstream NAME BASE_URL
                             add an upstream-v1 supplier (another installation of this API);
                             env UPSTREAM_API_KEY and UPSTREAM_API_SECRET, sealed at rest
  supplier-add-digiflazz NAME [--base-url URL] [--balance-threshold AMOUNT]
                             add a Digiflazz account; env DIGIFLAZZ_USERNAME, DIGIFLAZZ_API_KEY
                             and DIGIFLAZZ_WEBHOOK_SECRET, sealed at rest (docs/suppliers/digiflazz.md)
  supplier-sync NAME         read a supplier's price list now (digiflazz): store costs, statuses,
                             cut-off windows, show changes; routes now at or above cost go out of service
  route-add PRODUCT SUPPLIER SKU PRIORITY [COST] [--customer-no FORMAT] [--testing true|false]
                             route a product to a supplier (lower priority is tried first);
                             FORMAT joins {target} and {zone} into the supplier's customer number
  supplier-set NAME [--enabled true|false] [--status active|maintenance]
                             take a supplier out of or back into service (supplier gate)
  attention                  open attention items (e.g. a sync repriced a product or took a route
                             out of service), and orders still processing without a definite
                             supplier answer (flagged for the operator; never refunded automatically)`,
  commands: {
    sandbox,
    'supply-refresh': supplyRefresh,
    attention,
    'supplier-add-upstream': supplierAddUpstream,
    'supplier-add-digiflazz': supplierAddDigiflazz,
    'supplier-sync': supplierSync,
    'route-add': routeAdd,
    'supplier-set': supplierSet,
    'resend-callback': resendCallbackCommand,
    'callback-log': callbackLogCommand,
    'callback-url': callbackUrlCommand,
  },
};
