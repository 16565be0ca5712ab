import { Type } from '@sinclair/typebox';
import { AppError } from '../../../errors.js';
import type { SandboxSwitches } from '../../../adapters/suppliers/sandbox.js';
import type { OperatorServices } from '../../../services/operator/index.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Money, Nullable } from '../../schemas.js';
import { toMajor } from '../../../domain/money.js';
import type { RouteOptions, RouteOptionsPatch } from '../../../domain/route-options.js';
import { priceSyncView, sandboxView } from '../../supply-views.js';
import { supplierHookPath } from '../supplier-hooks.js';
import { ApprovalRequest, approvalView } from './approval-view.js';

const strict = { additionalProperties: false } as const;
const SupplierStatus = Type.Union([Type.Literal('active'), Type.Literal('maintenance')]);
const BelowCostPolicy = Type.Union([Type.Literal('reprice'), Type.Literal('disable_route')], {
  description: "what a price-list sync does with a route whose SKU's cost reached a price of its product: reprice by the margin rules (a price without a rule: the route goes out of service), or take the route out of service (default)",
});

const CUSTOMER_NO = 'how target and zone form the supplier\'s customer number, with {target} and {zone}: e.g. "{target}{zone}" (Mobile Legends at Digiflazz); default "{target}"';
const TESTING = "digiflazz: send testing: true (the supplier's testing mode, no real transaction)";
const RouteOptionsSchema = Type.Object({
  customer_no: Type.Optional(Type.String({ minLength: 8, maxLength: 64, description: CUSTOMER_NO })),
  testing: Type.Optional(Type.Boolean({ description: TESTING })),
}, { ...strict, description: "the adapter's settings for this route (used by digiflazz)" });
const RouteOptionsPatchSchema = Type.Object({
  customer_no: Type.Optional(Nullable(Type.String({ minLength: 8, maxLength: 64, description: `${CUSTOMER_NO}; null: back to the default` }))),
  testing: Type.Optional(Nullable(Type.Boolean({ description: `${TESTING}; null: back to the default (off)` }))),
}, { ...strict, description: "merged into the route's options: an option left out keeps its value, null removes it" });

const Supplier = Type.Object({
  id: Type.String(), name: Type.String(), adapter: Type.String({ description: 'sandbox, upstream-v1 or digiflazz' }),
  enabled: Type.Boolean(), status: SupplierStatus,
  balance: Type.Object({
    amount: Nullable(Money('the deposit at the supplier as last read, major units; null: never read (digiflazz reads it on every supply refresh)')),
    checked_at: Nullable(IsoTime()),
    threshold: Nullable(Money('below this the supplier is flagged; null: no threshold')),
    flagged_at: Nullable(IsoTime('set when the deposit was read below the threshold or an order was refused for an insufficient deposit; cleared when a read deposit is at or above the threshold')),
  }),
  health: Type.Object({
    consecutive_failures: Type.Integer({ description: 'transport failures and unknown outcomes in a row; 3 open the circuit breaker' }),
    last_error: Nullable(Type.String({ description: 'the last failure, naming its cause where the supplier gave one (e.g. rc 45: this server\'s IP is not whitelisted at the supplier)' })),
    updated_at: Nullable(IsoTime()),
  }),
  breaker: Type.Object({
    state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')], { description: 'closed: orders are taken and sent. open: the gate refuses new orders for products with no other supplier (503 ORDER_FAILED_SUPPLIER_GATE) and nothing new is sent; orders already sent are still asked about. half_open: the probe\'s balance call answered; orders are taken again and up to SUPPLIER_BREAKER_PROBE_ORDERS of them are sent; as many answers (a refusal is one; an unreachable supplier is not) close the breaker, one failure or unknown outcome opens it again' }),
    reason: Nullable(Type.String({ description: 'why it is in this state' })),
    since: Nullable(IsoTime('when it entered this state; null: never left closed')),
    probe_at: Nullable(IsoTime('open: when the cool-down ends and the worker probes the supplier (its balance call)')),
    probe_orders: Type.Integer({ description: 'half_open: orders let through so far' }),
    probe_answers: Type.Integer({ description: 'half_open: definite answers to them so far' }),
  }),
  webhook_url: Nullable(Type.String({ description: 'where the supplier should post its callbacks to this platform (set it in the supplier\'s member area); built on PUBLIC_BASE_URL; null: the sandbox posts none' })),
  below_cost_policy: BelowCostPolicy,
  route_count: Type.Integer(), created_at: IsoTime(),
});
const Route = Type.Object({
  id: Type.String(), product_code: Type.String(), supplier_id: Type.String(), supplier_name: Type.String(), sku: Type.String(),
  priority: Type.Integer({ description: 'lower is tried first' }), cost: Money('what the supplier charges, major units'), enabled: Type.Boolean(),
  available: Nullable(Type.Boolean({ description: 'last availability refresh; null: never checked, or the check could not tell (counts as available)' })),
  checked_at: Nullable(IsoTime('when the last refresh checked this route')),
  options: RouteOptionsSchema,
});
const LastRefresh = Type.Object({
  started_at: IsoTime(), finished_at: IsoTime(),
  availability_check_failed: Type.Boolean({ description: 'some supplier\'s check could not run: every product is reported active (spec, status rule 2)' }),
});
const Switches = Type.Object({
  mode: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('maintenance')]),
  out_of_stock: Type.Array(Type.String(), { description: 'SKUs reported unavailable and refused at submission' }),
  availability: Type.Union([Type.Literal('ok'), Type.Literal('broken')], { description: 'broken: the check cannot run at all (every product reported active)' }),
  broken_availability: Type.Array(Type.String(), { description: 'SKUs whose availability check cannot tell: those products alone are reported active' }),
  products: Type.Array(Type.Object({
    product_code: Type.String(), sku: Type.String({ description: 'of its route to a sandbox supplier' }),
    out_of_stock: Type.Boolean(), availability_check: Type.Union([Type.Literal('ok'), Type.Literal('broken')]),
  }), { description: 'every product routed to a sandbox supplier, with the per-SKU switches that apply to it' }),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
type SupplierView = Awaited<ReturnType<OperatorServices['supply']['listSuppliers']>>[number];
type RouteView = Awaited<ReturnType<OperatorServices['supply']['listRoutes']>>[number];
const supplierView = (s: SupplierView, decimals: number, origin: string) => ({
  id: s.id, name: s.name, adapter: s.adapter, enabled: s.enabled, status: s.status,
  health: { consecutive_failures: s.consecutiveFailures, last_error: s.lastError, updated_at: iso(s.healthUpdatedAt) },
  breaker: { state: s.breaker.state, reason: s.breaker.reason, since: iso(s.breaker.since), probe_at: iso(s.breaker.retryAt), probe_orders: s.breaker.probeOrders, probe_answers: s.breaker.probeAnswers },
  webhook_url: ((path) => (path === null ? null : `${origin}${path}`))(supplierHookPath(s.adapter, s.id)),
  route_count: s.routeCount, created_at: iso(s.createdAt)!, below_cost_policy: s.belowCostPolicy,
  balance: { amount: s.balance === null ? null : toMajor(s.balance, decimals), checked_at: iso(s.balanceCheckedAt), threshold: s.balanceThreshold === null ? null : toMajor(s.balanceThreshold, decimals), flagged_at: iso(s.balanceFlaggedAt) },
});
const route = (r: RouteView) => ({
  id: r.id, product_code: r.productCode, supplier_id: r.supplierId, supplier_name: r.supplierName, sku: r.sku, priority: r.priority,
  cost: r.cost, enabled: r.enabled, available: r.available, checked_at: iso(r.checkedAt),
  options: { ...(r.options.customerNo === undefined ? {} : { customer_no: r.options.customerNo }), ...(r.options.testing === undefined ? {} : { testing: r.options.testing }) },
});
const lastRefresh = (r: { startedAt: number; finishedAt: number; availabilityCheckFailed: boolean } | null) =>
  (r === null ? null : { started_at: iso(r.startedAt)!, finished_at: iso(r.finishedAt)!, availability_check_failed: r.availabilityCheckFailed });
function routeOptions(o: { customer_no?: string; testing?: boolean } | undefined): RouteOptions | undefined;
function routeOptions(o: { customer_no?: string | null; testing?: boolean | null } | undefined): RouteOptionsPatch | undefined;
function routeOptions(o: { customer_no?: string | null; testing?: boolean | null } | undefined) {
  return o === undefined ? undefined : { ...(o.customer_no === undefined ? {} : { customerNo: o.customer_no }), ...(o.testing === undefined ? {} : { testing: o.testing }) };
}

const REFRESH_NOTE = 'Orders see the switches at once; product status (active/inactive) follows at the next supply refresh (SUPPLY_REFRESH_MS), or at once with POST /supply/refresh.';
const GATE_NOTE = 'The supplier gate follows at once: POST /api/v1/order answers 503 ORDER_FAILED_SUPPLIER_GATE for a product with no enabled route to an enabled supplier that is active.';

/** /admin/v1 suppliers (health, service state), product routes, and the sandbox supplier's switches. */
export function supplyRoutes(kit: JsonApiKit<'admin'>, services: OperatorServices) {
  const svc = services.supply;
  const switches = async (s: SandboxSwitches) => sandboxView(s, await svc.sandboxProducts());
  const supplier = (s: SupplierView) => supplierView(s, services.currency.decimals, services.publicBaseUrl);

  kit.route({
    method: 'GET', url: '/suppliers', tag: 'Supply', summary: 'Suppliers with their service state and health (credentials are never shown)',
    response: Type.Object({ suppliers: Type.Array(Supplier) }),
    handler: async () => ({ data: { suppliers: (await svc.listSuppliers()).map(supplier) } }),
  });

  kit.route({
    method: 'POST', url: '/suppliers', tag: 'Supply', summary: 'Add a sandbox, upstream-v1 or digiflazz supplier',
    description: 'upstream-v1 needs credentials {base_url, api_key, api_secret} (the upstream base URL and the API key and secret it issued us). digiflazz needs credentials {username, api_key} and optionally webhook_secret (the secret set with the webhook in the Digiflazz member area; the webhook URL is webhook_url in the answer: /hooks/digiflazz/{supplier id}) and base_url (default https://api.digiflazz.com/v1); the platform currency must be IDR. Credentials are sealed at rest and never returned. balance_threshold (digiflazz): below this deposit the supplier is flagged.',
    body: Type.Object({
      name: Type.String({ minLength: 2, maxLength: 64 }),
      adapter: Type.Union([Type.Literal('sandbox'), Type.Literal('upstream-v1'), Type.Literal('digiflazz')]),
      credentials: Type.Optional(Type.Object({
        base_url: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), api_key: Type.String({ minLength: 1, maxLength: 200 }),
        api_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        username: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'digiflazz' })),
        webhook_secret: Type.Optional(Type.String({ minLength: 8, maxLength: 500, description: 'digiflazz' })),
      }, strict)),
      balance_threshold: Type.Optional(Money('digiflazz: flag the supplier below this deposit, major units')),
    }, strict),
    response: Supplier, errors: ['CONFLICT'],
    handler: async ({ body, who }) => {
      const c = body.credentials;
      if (body.adapter === 'sandbox') {
        if (c || body.balance_threshold !== undefined) throw badInput('a sandbox supplier takes no credentials or balance threshold');
        return { data: supplier(await svc.addSandbox(body.name, who.operatorId)) };
      }
      if (body.adapter === 'digiflazz') {
        if (!c?.username || c.api_secret !== undefined) throw badInput('a digiflazz supplier needs credentials {username, api_key} and optionally webhook_secret and base_url');
        return { data: supplier(await svc.addDigiflazz({ name: body.name, username: c.username, apiKey: c.api_key, webhookSecret: c.webhook_secret ?? null, baseUrl: c.base_url, balanceThreshold: body.balance_threshold ?? null }, who.operatorId)) };
      }
      if (!c?.base_url || !c.api_secret || c.username !== undefined || c.webhook_secret !== undefined || body.balance_threshold !== undefined) {
        throw badInput('an upstream-v1 supplier needs credentials {base_url, api_key, api_secret}');
      }
      return { data: supplier(await svc.addUpstreamV1({ name: body.name, baseUrl: c.base_url, apiKey: c.api_key, apiSecret: c.api_secret }, who.operatorId)) };
    },
  });

  kit.route({
    method: 'PATCH', url: '/suppliers/:id', tag: 'Supply', summary: 'Enable, disable, or put a supplier in or out of maintenance',
    description: GATE_NOTE,
    params: IdParams,
    body: Type.Object({
      enabled: Type.Optional(Type.Boolean()), status: Type.Optional(SupplierStatus),
      balance_threshold: Type.Optional(Nullable(Money('flag the supplier below this deposit, major units; null: no threshold'))),
      below_cost_policy: Type.Optional(BelowCostPolicy),
    }, strict),
    response: Supplier, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => {
      if (body.enabled === undefined && body.status === undefined && body.balance_threshold === undefined && body.below_cost_policy === undefined) {
        throw badInput('send enabled, status, balance_threshold and/or below_cost_policy');
      }
      const { balance_threshold: threshold, below_cost_policy: policy, ...state } = body;
      let s = threshold === undefined ? null : await svc.setBalanceThreshold(params.id, threshold, who.operatorId);
      if (policy !== undefined) s = await svc.setBelowCostPolicy(params.id, policy, who.operatorId);
      if (state.enabled !== undefined || state.status !== undefined) s = await svc.setSupplier(params.id, state, who.operatorId);
      return { data: supplier(s!) };
    },
  });

  kit.route({
    method: 'PUT', url: '/suppliers/:id/credentials', tag: 'Supply', status: 202,
    summary: "Change a supplier's credentials: always a four-eyes request (202), applied when another operator approves it",
    description: 'upstream-v1: {base_url, api_key, api_secret}; digiflazz: {username, api_key} and optionally webhook_secret and base_url. '
      + 'Nothing changes now: the new credentials are checked, sealed and kept in an approval request (state pending) that another operator with supply.manage approves '
      + '(POST /approvals/{id}/approve; the requester cannot). They are never shown back, in the request, the audit log or anywhere else.',
    params: IdParams,
    body: Type.Object({
      base_url: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), api_key: Type.String({ minLength: 1, maxLength: 200 }),
      api_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      username: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'digiflazz' })),
      webhook_secret: Type.Optional(Type.String({ minLength: 8, maxLength: 500, description: 'digiflazz' })),
      note: Type.Optional(Type.String({ maxLength: 500, description: 'why; the approver reads it' })),
    }, strict),
    response: ApprovalRequest, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => {
      const r = await services.approvals.supplierCredentials(params.id, {
        baseUrl: body.base_url, apiKey: body.api_key, apiSecret: body.api_secret, username: body.username, webhookSecret: body.webhook_secret,
      }, body.note, who.operatorId);
      return { data: approvalView(r, services.currency.decimals) };
    },
  });

  kit.route({
    method: 'POST', url: '/suppliers/:id/breaker/reset', tag: 'Supply', summary: "Close a supplier's circuit breaker by hand",
    description: 'The breaker closes and the run of failures is forgotten: new orders are taken and sent to the supplier at once (supplier.breaker_reset in the audit log). Use it when the cause is known to be fixed; otherwise the breaker probes the supplier by itself after its cool-down.',
    params: IdParams,
    response: Supplier, errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: supplier(await svc.resetBreaker(params.id, who.operatorId)) }),
  });

  const Scalar = Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()]));
  kit.route({
    method: 'POST', url: '/suppliers/:id/sync', tag: 'Supply', summary: "Sync a supplier's price list (digiflazz): store each SKU's cost, status and cut-off; show what changed",
    description: "Reads the supplier's whole price list now (the supplier rate-limits it: asked too often, the answer is 502 SUPPLIER_UNAVAILABLE; try again later). Each enabled route's cost (the max_price sent with orders) becomes its SKU's new cost (cost_followed). Each enabled route whose SKU's cost reached a price of its product (at or above it, or, when the cost rose, below that price's margin rule minimum: cost + the tier's margin) is, by the supplier's below_cost_policy, repriced by the margin rules (route.repriced in the audit log) or taken out of service (route.below_cost; also when a price reached has no rule); each one is an attention item (GET /attention-items). The supplier gate and product status follow. Costs in major units.",
    params: IdParams,
    response: Type.Object({
      supplier_id: Type.String(), synced_at: IsoTime(), skus: Type.Integer(), added: Type.Array(Type.String()), removed: Type.Array(Type.String()),
      changed: Type.Array(Type.Object({ sku: Type.String(), field: Type.Union([Type.Literal('cost'), Type.Literal('buyable'), Type.Literal('cut_off'), Type.Literal('name')]), before: Scalar, after: Scalar })),
      cost_followed: Type.Array(Type.Object({ route_id: Type.String(), product_code: Type.String(), sku: Type.String(), before: Money(), after: Money() }), { description: "enabled routes whose cost (max_price) followed their SKU's new cost" }),
      below_cost: Type.Array(Type.Object({
        route_id: Type.String(), product_code: Type.String(), sku: Type.String(), cost: Money(), lowest_price: Money('the lowest price the cost reached'),
        reached: Type.Union([Type.Literal('cost'), Type.Literal('margin')], { description: "cost: a price is at or below the cost; margin: the cost rose and left a price below its margin rule's minimum" }),
        action: Type.Union([Type.Literal('repriced'), Type.Literal('route_disabled')]),
        reason: Type.Union([Type.Literal('policy'), Type.Literal('no_rule'), Type.Literal('out_of_range')], { description: "route_disabled under the reprice policy: no_rule (a price reached has no margin rule for its tier) or out_of_range (the rule's price would pass the largest amount)" }),
        prices: Type.Array(Type.Object({ catalog_id: Type.String(), tier: Type.String(), before: Money(), after: Money() }), { description: 'repriced: each price the cost reached' }),
      })),
    }),
    errors: ['NOT_FOUND', 'SUPPLIER_UNAVAILABLE'],
    handler: async ({ params, who }) => {
      const r = await services.priceSync.run(params.id, who.operatorId);
      return { data: priceSyncView(r, services.currency.decimals) };
    },
  });

  kit.route({
    method: 'GET', url: '/suppliers/:id/skus', tag: 'Supply', summary: "A supplier's price list as of its last sync (what POST /imports/preview picks from)",
    params: IdParams,
    response: Type.Object({
      supplier_id: Type.String(),
      skus: Type.Array(Type.Object({
        sku: Type.String(), name: Type.String(), category: Type.String(), brand: Type.String(), cost: Money(),
        buyable: Type.Boolean({ description: 'both product statuses true and in stock at the sync (the cut-off window aside)' }),
        cut_off: Nullable(Type.String({ description: 'HH:MM-HH:MM in the supplier\'s time zone' })), synced_at: IsoTime(),
      })),
    }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => {
      const r = await svc.listSkus(params.id);
      return {
        data: {
          supplier_id: r.supplier.id,
          skus: r.skus.map((x) => ({ sku: x.sku, name: x.name, category: x.category, brand: x.brand, cost: toMajor(x.cost, services.currency.decimals), buyable: x.buyable, cut_off: x.cutOff, synced_at: iso(x.syncedAt)! })),
        },
      };
    },
  });

  kit.route({
    method: 'GET', url: '/routes', tag: 'Supply', summary: "Routes (a product's suppliers, best first)",
    query: Type.Object({ product_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, strict),
    response: Type.Object({ routes: Type.Array(Route), last_refresh: Nullable(LastRefresh) }),
    handler: async ({ query }) => {
      const [routes, last] = await Promise.all([svc.listRoutes(query.product_code), svc.lastRefresh()]);
      return { data: { routes: routes.map(route), last_refresh: lastRefresh(last) } };
    },
  });

  kit.route({
    method: 'POST', url: '/routes', tag: 'Supply', summary: "Route a product to a supplier's SKU",
    body: Type.Object({
      product_code: Type.String({ minLength: 1, maxLength: 64 }), supplier: Type.String({ minLength: 1, maxLength: 100, description: 'supplier id or name' }),
      sku: Type.String({ minLength: 1, maxLength: 128 }), priority: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
      cost: Money('what the supplier charges, major units, exact'), enabled: Type.Optional(Type.Boolean()),
      options: Type.Optional(RouteOptionsSchema),
    }, strict),
    response: Route, errors: ['NOT_FOUND', 'PRODUCT_NOT_FOUND', 'CONFLICT'],
    handler: async ({ body, who }) => ({
      data: route(await svc.addRoute({ productCode: body.product_code, supplierName: body.supplier, sku: body.sku, priority: body.priority, cost: body.cost, enabled: body.enabled, options: routeOptions(body.options) }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'PATCH', url: '/routes/:id', tag: 'Supply', summary: "Change a route's SKU, priority, cost or options (merged), or enable/disable it",
    description: GATE_NOTE,
    params: IdParams,
    body: Type.Object({
      sku: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })), priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      cost: Type.Optional(Money()), enabled: Type.Optional(Type.Boolean()),
      options: Type.Optional(RouteOptionsPatchSchema),
    }, strict),
    response: Route, errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ params, body, who }) => ({ data: route(await svc.updateRoute(params.id, { ...body, options: routeOptions(body.options) }, who.operatorId)) }),
  });

  kit.route({
    method: 'DELETE', url: '/routes/:id', tag: 'Supply', summary: 'Delete a route (orders keep the supplier and SKU they were sent with)',
    params: IdParams, response: Type.Object({ deleted: Type.Literal(true) }), errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => {
      await svc.deleteRoute(params.id, who.operatorId);
      return { data: { deleted: true as const } };
    },
  });

  kit.route({
    method: 'GET', url: '/sandbox', tag: 'Supply', summary: "The sandbox supplier's switches",
    response: Switches,
    handler: async () => ({ data: await switches(await svc.sandboxSwitches()) }),
  });

  kit.route({
    method: 'PUT', url: '/sandbox', tag: 'Supply', summary: "Switch the sandbox supplier: up/down/maintenance, out-of-stock SKUs, availability check",
    description: `Fields left out keep their value; a list sent replaces the whole list (to change one product, use the per-product routes). ${REFRESH_NOTE}`,
    body: Type.Object({
      mode: Type.Optional(Switches.properties.mode), out_of_stock: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 })),
      availability: Type.Optional(Switches.properties.availability),
      broken_availability: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 })),
    }, strict),
    response: Switches,
    handler: async ({ body, who }) => ({
      data: await switches(await svc.setSandboxSwitches({
        ...(body.mode === undefined ? {} : { mode: body.mode }),
        ...(body.out_of_stock === undefined ? {} : { outOfStock: body.out_of_stock }),
        ...(body.availability === undefined ? {} : { availabilityBroken: body.availability === 'broken' }),
        ...(body.broken_availability === undefined ? {} : { brokenAvailability: body.broken_availability }),
      }, who.operatorId)),
    }),
  });

  // One product (or SKU) at a time: rehearse one game's outage without touching the others.
  const lists = [
    { path: 'out-of-stock', list: 'outOfStock', what: 'out of stock (reported unavailable, refused at submission)' },
    { path: 'broken-availability', list: 'brokenAvailability', what: 'with a broken availability check (reported active, spec status rule 2, for it alone)' },
  ] as const;
  const targets = [
    { path: 'products/:code', name: 'product', param: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, strict), of: (p: { code?: string; sku?: string }) => ({ productCode: p.code! }) },
    { path: 'skus/:sku', name: 'SKU', param: Type.Object({ sku: Type.String({ minLength: 1, maxLength: 128 }) }, strict), of: (p: { code?: string; sku?: string }) => ({ sku: p.sku! }) },
  ] as const;
  for (const l of lists) {
    for (const t of targets) {
      const forProduct = t.name === 'product' ? ' (every SKU of its routes to sandbox suppliers)' : '';
      kit.route({
        method: 'PUT', url: `/sandbox/${t.path}/${l.path}`, tag: 'Supply',
        summary: `Mark one ${t.name} ${l.what}${forProduct}; already marked: no change`,
        description: REFRESH_NOTE,
        params: t.param, body: Type.Object({}, strict), response: Switches,
        errors: t.name === 'product' ? ['NOT_FOUND', 'PRODUCT_NOT_FOUND'] : [],
        handler: async ({ params, who }) => ({ data: await switches(await svc.addSandboxSkus(l.list, t.of(params), who.operatorId)) }),
      });
      kit.route({
        method: 'DELETE', url: `/sandbox/${t.path}/${l.path}`, tag: 'Supply',
        summary: `Clear that switch for one ${t.name}${forProduct}`,
        description: `NOT_FOUND when it was not set. ${REFRESH_NOTE}`,
        params: t.param, response: Switches,
        errors: t.name === 'product' ? ['NOT_FOUND', 'PRODUCT_NOT_FOUND'] : ['NOT_FOUND'],
        handler: async ({ params, who }) => ({ data: await switches(await svc.removeSandboxSkus(l.list, t.of(params), who.operatorId)) }),
      });
    }
  }

  kit.route({
    method: 'POST', url: '/supply/refresh', tag: 'Supply',
    summary: 'Refresh supplier health and route availability now, and return what it found',
    description: 'The same refresh that runs every SUPPLY_REFRESH_MS: product status (GET /api/v1/products) follows at once. Audited as supply.refresh.',
    body: Type.Object({}, strict),
    response: Type.Object({
      ...LastRefresh.properties,
      routes_checked: Type.Integer(),
      suppliers: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), health: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('maintenance')]) })),
      routes: Type.Array(Route),
    }),
    handler: async ({ who }) => {
      const r = await svc.refreshNow(who.operatorId);
      return {
        data: {
          ...lastRefresh(r)!, routes_checked: r.routesChecked, suppliers: r.suppliers.map((s) => ({ id: s.id, name: s.name, health: s.health })), routes: r.routes.map(route),
        },
      };
    },
  });

  kit.route({
    method: 'GET', url: '/supply/status', tag: 'Supply',
    summary: 'When the last supply refresh ran (null: never on this store) and whether every availability check could run',
    response: Type.Object({ last_refresh: Nullable(LastRefresh) }),
    handler: async () => ({ data: { last_refresh: lastRefresh(await svc.lastRefresh()) } }),
  });
}

const badInput = (message: string) => new AppError('VALIDATION_ERROR', message);
