import { Type } from '@sinclair/typebox';
import { AppError } from '../../../errors.js';
import type { SandboxSwitches } from '../../../adapters/suppliers/sandbox.js';
import type { OperatorServices } from '../../../services/operator/index.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Money, Nullable } from '../../schemas.js';

const strict = { additionalProperties: false } as const;
const SupplierStatus = Type.Union([Type.Literal('active'), Type.Literal('maintenance')]);

const Supplier = Type.Object({
  id: Type.String(), name: Type.String(), adapter: Type.String({ description: 'sandbox or upstream-v1' }),
  enabled: Type.Boolean(), status: SupplierStatus,
  health: Type.Object({
    consecutive_failures: Type.Integer({ description: '3 or more in a row: the supplier gate treats it as unreachable' }),
    last_error: Nullable(Type.String()), updated_at: Nullable(IsoTime()),
  }),
  route_count: Type.Integer(), created_at: IsoTime(),
});
const Route = Type.Object({
  id: Type.String(), product_code: Type.String(), supplier_id: Type.String(), supplier_name: Type.String(), sku: Type.String(),
  priority: Type.Integer({ description: 'lower is tried first' }), cost: Money('what the supplier charges, major units'), enabled: Type.Boolean(),
  available: Nullable(Type.Boolean({ description: 'last availability refresh; null: never checked, or the check could not tell (counts as available)' })),
  checked_at: Nullable(IsoTime('when the last refresh checked this route')),
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
const supplier = (s: SupplierView) => ({
  id: s.id, name: s.name, adapter: s.adapter, enabled: s.enabled, status: s.status,
  health: { consecutive_failures: s.consecutiveFailures, last_error: s.lastError, updated_at: iso(s.healthUpdatedAt) },
  route_count: s.routeCount, created_at: iso(s.createdAt)!,
});
const route = (r: RouteView) => ({
  id: r.id, product_code: r.productCode, supplier_id: r.supplierId, supplier_name: r.supplierName, sku: r.sku, priority: r.priority,
  cost: r.cost, enabled: r.enabled, available: r.available, checked_at: iso(r.checkedAt),
});
const lastRefresh = (r: { startedAt: number; finishedAt: number; availabilityCheckFailed: boolean } | null) =>
  (r === null ? null : { started_at: iso(r.startedAt)!, finished_at: iso(r.finishedAt)!, availability_check_failed: r.availabilityCheckFailed });

const REFRESH_NOTE = 'Orders see the switches at once; product status (active/inactive) follows at the next supply refresh (SUPPLY_REFRESH_MS), or at once with POST /supply/refresh.';
const GATE_NOTE = 'The supplier gate follows at once: POST /api/v1/order answers 503 ORDER_FAILED_SUPPLIER_GATE for a product with no enabled route to an enabled supplier that is active.';

/** /admin/v1 suppliers (health, service state), product routes, and the sandbox supplier's switches. */
export function supplyRoutes(kit: JsonApiKit<'admin'>, services: OperatorServices) {
  const svc = services.supply;
  const switches = async (s: SandboxSwitches) => ({
    mode: s.mode, out_of_stock: s.outOfStock, availability: s.availabilityBroken ? 'broken' as const : 'ok' as const, broken_availability: s.brokenAvailability,
    products: (await svc.sandboxProducts()).map((p) => ({
      product_code: p.productCode, sku: p.sku, out_of_stock: p.outOfStock, availability_check: p.availabilityBroken ? 'broken' as const : 'ok' as const,
    })),
  });

  kit.route({
    method: 'GET', url: '/suppliers', tag: 'Supply', summary: 'Suppliers with their service state and health (credentials are never shown)',
    response: Type.Object({ suppliers: Type.Array(Supplier) }),
    handler: async () => ({ data: { suppliers: (await svc.listSuppliers()).map(supplier) } }),
  });

  kit.route({
    method: 'POST', url: '/suppliers', tag: 'Supply', summary: 'Add a sandbox or upstream-v1 supplier',
    description: 'upstream-v1 needs credentials (the upstream base URL and the API key and secret it issued us); they are sealed at rest and never returned.',
    body: Type.Object({
      name: Type.String({ minLength: 2, maxLength: 64 }),
      adapter: Type.Union([Type.Literal('sandbox'), Type.Literal('upstream-v1')]),
      credentials: Type.Optional(Type.Object({
        base_url: Type.String({ minLength: 1, maxLength: 500 }), api_key: Type.String({ minLength: 1, maxLength: 200 }), api_secret: Type.String({ minLength: 1, maxLength: 500 }),
      }, strict)),
    }, strict),
    response: Supplier, errors: ['CONFLICT'],
    handler: async ({ body, who }) => {
      if (body.adapter === 'sandbox') {
        if (body.credentials) throw badInput('a sandbox supplier takes no credentials');
        return { data: supplier(await svc.addSandbox(body.name, who.operatorId)) };
      }
      if (!body.credentials) throw badInput('an upstream-v1 supplier needs credentials {base_url, api_key, api_secret}');
      const c = body.credentials;
      return { data: supplier(await svc.addUpstreamV1({ name: body.name, baseUrl: c.base_url, apiKey: c.api_key, apiSecret: c.api_secret }, who.operatorId)) };
    },
  });

  kit.route({
    method: 'PATCH', url: '/suppliers/:id', tag: 'Supply', summary: 'Enable, disable, or put a supplier in or out of maintenance',
    description: GATE_NOTE,
    params: IdParams,
    body: Type.Object({ enabled: Type.Optional(Type.Boolean()), status: Type.Optional(SupplierStatus) }, strict),
    response: Supplier, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => {
      if (body.enabled === undefined && body.status === undefined) throw badInput('send enabled and/or status');
      return { data: supplier(await svc.setSupplier(params.id, body, who.operatorId)) };
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
    }, strict),
    response: Route, errors: ['NOT_FOUND', 'PRODUCT_NOT_FOUND', 'CONFLICT'],
    handler: async ({ body, who }) => ({
      data: route(await svc.addRoute({ productCode: body.product_code, supplierName: body.supplier, sku: body.sku, priority: body.priority, cost: body.cost, enabled: body.enabled }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'PATCH', url: '/routes/:id', tag: 'Supply', summary: "Change a route's SKU, priority, cost, or enable/disable it",
    description: GATE_NOTE,
    params: IdParams,
    body: Type.Object({
      sku: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })), priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      cost: Type.Optional(Money()), enabled: Type.Optional(Type.Boolean()),
    }, strict),
    response: Route, errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ params, body, who }) => ({ data: route(await svc.updateRoute(params.id, body, who.operatorId)) }),
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
