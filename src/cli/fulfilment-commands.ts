import { randomUUID } from 'node:crypto';
import type { SandboxSkuList, SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import type { ServicePlatform } from '../service-platform.js';
import { priceSyncView, sandboxView } from '../http/supply-views.js';
import { CLI_ACTOR } from '../services/operator/actor.js';
import { usageLine } from './commands.js';
import { findOrderId, isoTimes, loadConfig, output, parseArgs, requireEnv, UsageError, withPlatform, type CommandModule } from './support.js';

const sandboxUsage = (what: string) => new UsageError(`topup sandbox: ${what}\nusage: ${usageLine('sandbox')}`);

const SKU_LISTS: Record<string, SandboxSkuList> = { 'out-of-stock': 'outOfStock', 'broken-availability': 'brokenAvailability' };

/** Operator switches of the sandbox supplier, to show every status and gate rule by hand (audited). */
async function sandbox(args: string[]) {
  const { flags, json, positional } = parseArgs('sandbox', args);
  if (positional.length) return sandboxPerSku(positional, flags, json);
  if (flags.product !== undefined || flags.sku !== undefined) throw sandboxUsage('--product and --sku go with LIST ACTION (e.g. out-of-stock add)');
  const patch: Partial<SandboxSwitches> = {};
  if (flags.mode !== undefined) patch.mode = flags.mode as SandboxSwitches['mode'];
  if (flags['out-of-stock'] !== undefined) patch.outOfStock = flags['out-of-stock'].split(',').map((x) => x.trim()).filter(Boolean);
  if (flags.availability !== undefined) patch.availabilityBroken = flags.availability === 'broken';
  await withPlatform(async (p) => {
    const supply = p.operator.supply;
    const switches = Object.keys(patch).length ? await supply.setSandboxSwitches(patch, CLI_ACTOR) : await supply.sandboxSwitches();
    await printSwitches(p, json, switches);
  });
}

/** One product (or SKU) at a time, the others untouched: `topup sandbox out-of-stock add --product FF-100`. */
async function sandboxPerSku(positional: string[], flags: Record<string, string>, json: boolean) {
  const [listName, action] = positional;
  const list = SKU_LISTS[listName ?? ''];
  const target = flags.product !== undefined && flags.sku === undefined ? { productCode: flags.product } : flags.sku !== undefined && flags.product === undefined ? { sku: flags.sku } : null;
  if (!list) throw sandboxUsage(`LIST must be out-of-stock or broken-availability, not "${listName}"`);
  if (action !== 'add' && action !== 'remove') throw sandboxUsage(action === undefined ? 'missing ACTION (add or remove)' : `ACTION must be add or remove, not "${action}"`);
  if (!target) throw sandboxUsage('give either --product CODE or --sku SKU');
  await withPlatform(async (p) => {
    const supply = p.operator.supply;
    const switches = action === 'add' ? await supply.addSandboxSkus(list, target, CLI_ACTOR) : await supply.removeSandboxSkus(list, target, CLI_ACTOR);
    await printSwitches(p, json, switches);
  });
}

async function printSwitches(p: ServicePlatform, json: boolean, switches: SandboxSwitches) {
  const products = await p.operator.supply.sandboxProducts();
  const view = sandboxView(switches, products);
  const lines = view.products.map((x) => `  ${x.product_code.padEnd(12)} ${x.sku.padEnd(14)} out_of_stock=${x.out_of_stock} availability_check=${x.availability_check}`);
  output(json, view, `mode ${view.mode}; availability ${view.availability === 'broken' ? 'broken (for every product)' : 'ok'}\n${lines.join('\n')}\n` +
    '(product status follows at the next supply refresh, SUPPLY_REFRESH_MS, or now with `topup supply-refresh`)');
}

/** The supply refresh now (what the server does every SUPPLY_REFRESH_MS): product status follows at once. */
async function supplyRefresh(args: string[]) {
  const { json } = parseArgs('supply-refresh', args);
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
  const { positional: [idOrCode], json } = parseArgs<[string]>('resend-callback', args);
  // This run's id, as a request's: the round's delivery log lines carry it.
  const requestId = `cli-${randomUUID()}`;
  await withPlatform(async (p) => {
    const { orderId, round } = await p.operator.orders.resendCallback(await findOrderId(p, idOrCode), CLI_ACTOR, requestId);
    // Without a callback URL (or a live API key to sign with) the worker skips the round:
    // say so now rather than "queued" for a callback that will never be sent.
    const target = await p.callbacks.target(orderId);
    const skipped = !target?.callbackUrl ? 'no callback URL' : !target.secretEnc ? 'no live API key to sign with' : null;
    output(json, { order_id: orderId, round, queued: skipped === null, skipped, request_id: requestId },
      skipped ? `round ${round} for order ${orderId}: skipped: ${skipped}${skipped === 'no callback URL' ? ' (set one with `topup callback-url`)' : ''} (request id ${requestId})`
        : `round ${round} of callbacks queued for order ${orderId} (request id ${requestId}, in its delivery log lines)`);
  });
}

async function callbackLogCommand(args: string[]) {
  const { positional: [idOrCode] } = parseArgs<[string]>('callback-log', args);
  await withPlatform(async (p) => {
    const log = await p.callbacks.log(await findOrderId(p, idOrCode));
    output(true, isoTimes(log), '');
  });
}

async function callbackUrlCommand(args: string[]) {
  const { positional: [email, url], json } = parseArgs<[string, string]>('callback-url', args);
  await withPlatform(async (p) => {
    const id = await p.operator.resellers.idByEmail(email);
    const { callbackUrl } = await p.operator.resellerSettings.setCallbackUrl(id, url === 'none' ? null : url, CLI_ACTOR);
    output(json, { reseller_id: id, callback_url: callbackUrl }, `callback URL of ${email}: ${callbackUrl ?? 'none'}`);
  });
}

async function supplierAddUpstream(args: string[]) {
  const { positional: [name, baseUrl], json } = parseArgs<[string, string]>('supplier-add-upstream', args);
  const apiKey = requireEnv('supplier-add-upstream', 'UPSTREAM_API_KEY');
  const apiSecret = requireEnv('supplier-add-upstream', 'UPSTREAM_API_SECRET');
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addUpstreamV1({ name, baseUrl, apiKey, apiSecret }, CLI_ACTOR);
    const hook = `<this server>/hooks/upstream-v1/${id}`;
    output(json, { supplier_id: id, name, adapter: 'upstream-v1', callback_url_to_set_upstream: hook }, `supplier ${name} added (${id}); set its callback URL upstream to ${hook}`);
  });
}

/** Credentials come from the environment (never the command line: shell history, ps). */
async function supplierAddDigiflazz(args: string[]) {
  const { positional: [name], flags, json } = parseArgs<[string]>('supplier-add-digiflazz', args);
  const username = requireEnv('supplier-add-digiflazz', 'DIGIFLAZZ_USERNAME');
  const apiKey = requireEnv('supplier-add-digiflazz', 'DIGIFLAZZ_API_KEY');
  const webhookSecret = process.env.DIGIFLAZZ_WEBHOOK_SECRET || null;
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addDigiflazz({ name, username, apiKey, webhookSecret, baseUrl: flags['base-url'], balanceThreshold: flags['balance-threshold'] ?? null }, CLI_ACTOR);
    const hook = `<this server>/hooks/digiflazz/${id}`;
    output(json, { supplier_id: id, name, adapter: 'digiflazz', webhook_url_to_set_at_digiflazz: hook, webhook_secret: webhookSecret ? 'sealed' : 'none' },
      `supplier ${name} added (${id}); in the Digiflazz member area whitelist this server's IP and set the webhook URL ${hook}${webhookSecret ? ' with the same secret' : ' (no webhook secret given: webhooks will be refused; polling still settles orders)'}`);
  });
}

async function supplierSync(args: string[]) {
  const { positional: [name], json } = parseArgs<[string]>('supplier-sync', args);
  await withPlatform(async (p) => {
    const r = priceSyncView(await p.operator.priceSync.run(name, CLI_ACTOR), p.core.currency.decimals);
    const lines = [
      `synced at ${r.synced_at}: ${r.skus} SKUs; ${r.added.length} new, ${r.removed.length} gone, ${r.changed.length} changes`,
      ...r.changed.map((c) => `  ${c.sku}: ${c.field} ${String(c.before)} → ${String(c.after)}`),
      ...r.cost_followed.map((c) => `  route ${c.route_id} (${c.product_code} → ${c.sku}): cost ${c.before} → ${c.after}`),
      ...r.below_cost.map((b) => `  route ${b.route_id} (${b.product_code} → ${b.sku}) ${b.action === 'repriced' ? 'repriced' : 'taken out of service'}: cost ${b.cost} ${b.reached === 'cost' ? '≥' : 'leaves below the margin rule'} lowest_price ${b.lowest_price}`),
    ];
    output(json, r, lines.join('\n'));
  });
}

async function supplierSet(args: string[]) {
  const { positional: [name], flags, json } = parseArgs<[string]>('supplier-set', args);
  const patch: { enabled?: boolean; status?: 'active' | 'maintenance' } = {};
  if (flags.enabled !== undefined) patch.enabled = flags.enabled === 'true';
  if (flags.status !== undefined) patch.status = flags.status as 'active' | 'maintenance';
  if (Object.keys(patch).length === 0) throw new UsageError(`topup supplier-set: give --enabled or --status (or both)\nusage: ${usageLine('supplier-set')}`);
  await withPlatform(async (p) => {
    await p.operator.supply.setSupplier(name, patch, CLI_ACTOR);
    output(json, { supplier: name, ...patch }, `supplier ${name}: ${JSON.stringify(patch)}`);
  });
}

async function routeAdd(args: string[]) {
  const { positional: [productCode, supplierName, sku, priority, cost], flags, json } = parseArgs<[string, string, string, string, string?]>('route-add', args);
  const options = { ...(flags['customer-no'] === undefined ? {} : { customerNo: flags['customer-no'] }), ...(flags.testing === undefined ? {} : { testing: flags.testing === 'true' }) };
  await withPlatform(async (p) => {
    const { id } = await p.operator.supply.addRoute({ productCode, supplierName, sku, priority: Number(priority), cost: cost ?? '0', options }, CLI_ACTOR);
    output(json, { route_id: id, product_code: productCode, supplier: supplierName, sku, priority: Number(priority) }, `route ${id}: ${productCode} → ${supplierName} ${sku} (priority ${priority})`);
  });
}

/** Orders fulfilment flagged because no supplier answer came within FULFIL_ATTENTION_AFTER_MS. */
async function attention(args: string[]) {
  parseArgs('attention', args);
  const config = loadConfig();
  // The store alone, not the platform: a quick read-only command.
  const [{ openDatabase }, { migrateToLatest }, { FulfilmentRepo }, { AttentionRepo }] = await Promise.all([
    import('../store/db.js'), import('../store/migrate.js'), import('../store/fulfilment-repo.js'), import('../store/attention-repo.js'),
  ]);
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
    process.stdout.write(`${r.id}  ref_id=${r.ref_id}  reseller=${r.reseller_id}  product=${r.product_code}  supplier=${r.supplier ?? '-'}  supplier_ref=${r.supplier_ref}  placed=${new Date(Number(r.created_at)).toISOString()}\n`);
  }
  process.stdout.write(`${rows.length} order(s) still processing; ask the supplier about each supplier_ref (the attempt's reference upstream)\n`);
}


export const fulfilmentCommands: CommandModule = {
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
};
