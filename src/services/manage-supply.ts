import type { Actor } from './operator/actor.js';
import type { Kysely } from 'kysely';
import { readSandboxSwitches, readSandboxSwitchesForUpdate, writeSandboxSwitches, type SandboxSkuList, type SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import type { RefreshSupply } from './refresh-supply.js';
import type { SecretBox } from '../adapters/secret-box.js';
import type { UpstreamV1Credentials } from '../adapters/suppliers/upstream-v1.js';
import { AppError } from '../errors.js';
import { AuditRepo, type AuditEntry } from '../store/audit-repo.js';
import type { DB } from '../store/schema.js';
import { SupplyRepo } from '../store/supply-repo.js';
import { SupplierBreakerRepo } from '../store/supplier-breaker-repo.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';
import { minorUnits } from './operator/money-input.js';
import { toMajor } from '../domain/money.js';
import { mergeRouteOptions, routeOptionsProblem, type RouteOptions, type RouteOptionsPatch } from '../domain/route-options.js';
import { DIGIFLAZZ_BASE_URL, type DigiflazzCredentials } from '../adapters/suppliers/digiflazz/protocol.js';
import { optionsJson } from '../store/supply-repo.js';
import { BELOW_COST_POLICIES, type BelowCostPolicy } from '../domain/below-cost.js';

/** Who made a change, for the audit log: an operator id, or "cli" for the `topup` CLI. */

export interface RoutePatch {
  sku?: string;
  priority?: number;
  /** Major units, exact (as typed). */
  cost?: number | string;
  enabled?: boolean;
  /** The adapter's settings for this route: merged into its options (null removes one). */
  options?: RouteOptionsPatch;
}

/**
 * Operator set-up of suppliers and routes. Upstream credentials are sealed before they
 * reach the store and never echoed back, nor written to the audit log. Every change
 * commits with its audit line; the supplier gate reads the store, so it follows at once.
 */
export class ManageSupply {
  constructor(private readonly deps: {
    db: Kysely<DB>; dialect: 'sqlite' | 'postgres'; secrets: SecretBox; clock: Clock; ids: IdGenerator; currency: CurrencySettings; refreshSupply: RefreshSupply;
  }) {}

  /** Routes as the operator sees them: cost in major units. */
  private async routes(supply: SupplyRepo, filter: Parameters<SupplyRepo['listRoutes']>[0]) {
    return (await supply.listRoutes(filter)).map((r) => ({ ...r, cost: toMajor(r.cost, this.deps.currency.decimals) }));
  }

  private minor(cost: number | string | undefined) {
    return cost === undefined ? undefined : minorUnits(cost, this.deps.currency, 'cost');
  }

  private change<T>(actor: string, fn: (supply: SupplyRepo, audit: (e: Omit<AuditEntry, 'operatorId'>) => Promise<void>, trx: Kysely<DB>) => Promise<T>): Promise<T> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute((trx) => fn(new SupplyRepo(trx), (e) => AuditRepo.record(trx, { ...e, operatorId: actor }, now), trx));
  }

  listSuppliers() {
    return new SupplyRepo(this.deps.db).listSuppliers();
  }

  private async supplier(supply: SupplyRepo, idOrName: string) {
    const [s] = await supply.listSuppliers(idOrName);
    if (!s) throw new AppError('NOT_FOUND', `no supplier with id or name "${idOrName}"`);
    return s;
  }

  /** The simulated upstream (its behaviour follows the sandbox switches). */
  async addSandbox(name: string, actor: Actor) {
    checkSupplierName(name);
    return this.insertSupplier(actor, { name, adapter: 'sandbox', credentialsEnc: null });
  }

  async addUpstreamV1(input: { name: string; baseUrl: string; apiKey: string; apiSecret: string }, actor: Actor) {
    checkSupplierName(input.name);
    const creds = upstreamCredentials(input);
    return this.insertSupplier(actor, { name: input.name, adapter: 'upstream-v1', credentialsEnc: this.deps.secrets.seal(JSON.stringify(creds)) });
  }

  /**
   * A Digiflazz buyer account. Its prices are rupiah, so the platform's currency must be
   * IDR. The base address is configurable (the supplier's, unless it says otherwise).
   */
  async addDigiflazz(input: { name: string; username: string; apiKey: string; webhookSecret?: string | null; baseUrl?: string; balanceThreshold?: number | string | null }, actor: Actor) {
    checkSupplierName(input.name);
    if (this.deps.currency.code !== 'IDR') throw new AppError('VALIDATION_ERROR', `Digiflazz prices are in IDR; this installation's CURRENCY is ${this.deps.currency.code}`);
    const creds = digiflazzCredentials(input);
    const threshold = input.balanceThreshold === undefined || input.balanceThreshold === null ? null : this.minor(input.balanceThreshold)!;
    const created = await this.insertSupplier(actor, { name: input.name, adapter: 'digiflazz', credentialsEnc: this.deps.secrets.seal(JSON.stringify(creds)) });
    if (threshold !== null) return this.setBalanceThreshold(created.id, input.balanceThreshold!, actor);
    return created;
  }

  /** Below this deposit (major units; null: never) the supplier is flagged for the operator. */
  async setBalanceThreshold(idOrName: string, threshold: number | string | null, actor: Actor) {
    const minor = threshold === null ? null : this.minor(threshold)!;
    return this.change(actor, async (supply, audit) => {
      const before = await this.supplier(supply, idOrName);
      await supply.setBalanceThreshold(before.id, minor);
      const after = (await supply.listSuppliers(before.id))[0]!;
      await audit({ action: 'supplier.update', targetKind: 'supplier', targetId: before.id, before: { balance_threshold: before.balanceThreshold }, after: { balance_threshold: after.balanceThreshold } });
      return after;
    });
  }

  /**
   * New credentials for an existing supplier, checked as its adapter needs them and sealed
   * (four-eyes: they wait sealed in an approval request; services/operator/approvals.ts).
   */
  async sealNewCredentials(idOrName: string, input: { baseUrl?: string; apiKey: string; apiSecret?: string; username?: string; webhookSecret?: string | null }) {
    const supplier = await this.supplier(new SupplyRepo(this.deps.db), idOrName);
    let creds: UpstreamV1Credentials | DigiflazzCredentials;
    if (supplier.adapter === 'upstream-v1') {
      if (input.username !== undefined || input.webhookSecret !== undefined) throw new AppError('VALIDATION_ERROR', 'an upstream-v1 supplier takes credentials {base_url, api_key, api_secret}');
      creds = upstreamCredentials({ baseUrl: input.baseUrl ?? '', apiKey: input.apiKey, apiSecret: input.apiSecret ?? '' });
    } else if (supplier.adapter === 'digiflazz') {
      if (input.apiSecret !== undefined) throw new AppError('VALIDATION_ERROR', 'a digiflazz supplier takes credentials {username, api_key} and optionally webhook_secret and base_url');
      creds = digiflazzCredentials({ username: input.username ?? '', apiKey: input.apiKey, webhookSecret: input.webhookSecret, baseUrl: input.baseUrl });
    } else {
      throw new AppError('VALIDATION_ERROR', `a ${supplier.adapter} supplier has no credentials`);
    }
    return { supplier, sealed: this.deps.secrets.seal(JSON.stringify(creds)) };
  }

  /** Approved new credentials, in the approval's transaction; the audit line says "sealed", never what they are. */
  async applyCredentialsIn(trx: Kysely<DB>, supplierId: string, sealed: string, actor: Actor, approval: { by: string; requestId: string }) {
    const r = await trx.updateTable('suppliers').set({ credentials_enc: sealed }).where('id', '=', supplierId).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND', `no supplier with id ${supplierId}`);
    await AuditRepo.record(trx, {
      operatorId: actor, approvedBy: approval.by, action: 'supplier.credentials', targetKind: 'supplier', targetId: supplierId,
      before: { credentials: 'sealed' }, after: { credentials: 'sealed', approval_request_id: approval.requestId },
    }, this.deps.clock.now());
    return { supplierId };
  }

  /** A supplier's price list as of its last sync (supplier_skus), by SKU: what an import picks from. */
  async listSkus(idOrName: string) {
    const supply = new SupplyRepo(this.deps.db);
    const supplier = await this.supplier(supply, idOrName);
    return { supplier, skus: await supply.syncedSkus(supplier.id) };
  }

  /** What a price-list sync does with a route whose cost reached a price of its product (docs/suppliers/digiflazz.md). */
  async setBelowCostPolicy(idOrName: string, policy: string, actor: Actor) {
    if (!BELOW_COST_POLICIES.includes(policy as BelowCostPolicy)) throw new AppError('VALIDATION_ERROR', `below_cost_policy must be one of ${BELOW_COST_POLICIES.join(', ')}`);
    return this.change(actor, async (supply, audit) => {
      const before = await this.supplier(supply, idOrName);
      await supply.setBelowCostPolicy(before.id, policy as BelowCostPolicy);
      await audit({ action: 'supplier.update', targetKind: 'supplier', targetId: before.id, before: { below_cost_policy: before.belowCostPolicy }, after: { below_cost_policy: policy } });
      return (await supply.listSuppliers(before.id))[0]!;
    });
  }

  private insertSupplier(actor: string, s: { name: string; adapter: string; credentialsEnc: string | null }) {
    return this.change(actor, async (supply, audit) => {
      if (await supply.supplierByName(s.name)) throw new AppError('CONFLICT', `a supplier named "${s.name}" already exists`);
      const id = this.deps.ids.uuid();
      await supply.insertSupplier({ id, ...s }, this.deps.clock.now());
      // The snapshot says whether credentials exist, never what they are.
      await audit({ action: 'supplier.create', targetKind: 'supplier', targetId: id, before: null, after: { name: s.name, adapter: s.adapter, enabled: true, status: 'active', credentials: s.credentialsEnc ? 'sealed' : 'none' } });
      return (await supply.listSuppliers(id))[0]!;
    });
  }

  /** Takes a supplier out of (or back into) service; the supplier gate follows at once. */
  async setSupplier(idOrName: string, patch: { enabled?: boolean; status?: 'active' | 'maintenance' }, actor: Actor) {
    return this.change(actor, async (supply, audit) => {
      const before = await this.supplier(supply, idOrName);
      await supply.updateSupplier(before.id, {
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
        ...(patch.status === undefined ? {} : { status: patch.status }),
      });
      const after = (await supply.listSuppliers(before.id))[0]!;
      await audit({ action: 'supplier.update', targetKind: 'supplier', targetId: before.id, before: serviceState(before), after: serviceState(after) });
      return after;
    });
  }

  /**
   * The operator closes a supplier's circuit breaker by hand (its run of failures
   * forgotten): new orders are taken and sent there at once.
   */
  async resetBreaker(idOrName: string, actor: Actor) {
    return this.change(actor, async (supply, audit, trx) => {
      const before = await this.supplier(supply, idOrName);
      await new SupplierBreakerRepo(trx).reset(before.id, this.deps.clock.now());
      const after = (await supply.listSuppliers(before.id))[0]!;
      const view = (s: typeof before) => ({ breaker: s.breaker.state, reason: s.breaker.reason, consecutive_failures: s.consecutiveFailures, last_error: s.lastError });
      await audit({ action: 'supplier.breaker_reset', targetKind: 'supplier', targetId: before.id, before: view(before), after: view(after) });
      return after;
    });
  }

  listRoutes(productCode?: string) {
    return this.routes(new SupplyRepo(this.deps.db), productCode === undefined ? {} : { productCode });
  }

  async addRoute(input: { productCode: string; supplierName: string; sku: string; priority: number; cost: number | string; enabled?: boolean; options?: RouteOptions }, actor: Actor) {
    checkRoute(input);
    if (input.options) checkOptions(input.options);
    const cost = this.minor(input.cost)!;
    return this.change(actor, async (supply, audit) => {
      const supplier = await this.supplier(supply, input.supplierName);
      if (!(await supply.productExists(input.productCode))) throw new AppError('PRODUCT_NOT_FOUND', `no product "${input.productCode}"`);
      if (await supply.routeExists(input.productCode, supplier.id, input.sku)) throw new AppError('CONFLICT', `${input.productCode} already has a route to ${supplier.name} with SKU "${input.sku}"`);
      const id = this.deps.ids.uuid();
      await supply.insertRoute({ id, productCode: input.productCode, supplierId: supplier.id, sku: input.sku, cost, priority: input.priority, enabled: input.enabled, options: input.options }, this.deps.clock.now());
      const [route] = await this.routes(supply, { routeId: id });
      await audit({ action: 'route.create', targetKind: 'route', targetId: id, before: null, after: route });
      return route!;
    });
  }

  async updateRoute(id: string, patch: RoutePatch, actor: Actor) {
    checkRoute(patch);
    const cost = this.minor(patch.cost);
    return this.change(actor, async (supply, audit) => {
      const [before] = await this.routes(supply, { routeId: id });
      if (!before) throw new AppError('NOT_FOUND', `no route with id "${id}"`);
      if (patch.sku !== undefined && (await supply.routeExists(before.productCode, before.supplierId, patch.sku, id))) {
        throw new AppError('CONFLICT', `${before.productCode} already has a route to ${before.supplierName} with SKU "${patch.sku}"`);
      }
      await supply.updateRoute(id, {
        ...(patch.sku === undefined ? {} : { supplier_sku: patch.sku }),
        ...(cost === undefined ? {} : { cost }),
        ...(patch.priority === undefined ? {} : { priority: patch.priority }),
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
        ...(patch.options === undefined ? {} : { options: optionsJson(checkOptions(mergeRouteOptions(before.options, patch.options))) }),
      });
      const [after] = await this.routes(supply, { routeId: id });
      await audit({ action: 'route.update', targetKind: 'route', targetId: id, before, after });
      return after!;
    });
  }

  /** Orders keep the supplier and SKU they were sent with, so a route can go without losing history. */
  async deleteRoute(id: string, actor: Actor) {
    return this.change(actor, async (supply, audit) => {
      const [before] = await this.routes(supply, { routeId: id });
      if (!before) throw new AppError('NOT_FOUND', `no route with id "${id}"`);
      await supply.deleteRoute(id);
      await audit({ action: 'route.delete', targetKind: 'route', targetId: id, before, after: null });
    });
  }

  sandboxSwitches(): Promise<SandboxSwitches> {
    return readSandboxSwitches(this.deps.db);
  }

  async setSandboxSwitches(patch: Partial<SandboxSwitches>, actor: Actor): Promise<SandboxSwitches> {
    if (patch.outOfStock?.some((sku) => sku.trim() === '')) throw new AppError('VALIDATION_ERROR', 'out_of_stock SKUs must not be empty');
    if (patch.brokenAvailability?.some((sku) => sku.trim() === '')) throw new AppError('VALIDATION_ERROR', 'broken_availability SKUs must not be empty');
    return this.change(actor, async (_supply, audit, trx) => {
      const before = await readSandboxSwitchesForUpdate(trx, this.deps.dialect);
      const after = await writeSandboxSwitches(trx, patch);
      await audit({ action: 'sandbox.update', targetKind: 'sandbox', targetId: 'sandbox', before, after });
      return after;
    });
  }

  /** Every product routed to a sandbox supplier, with the per-SKU switches that apply to it. */
  async sandboxProducts() {
    const [routes, sw] = await Promise.all([new SupplyRepo(this.deps.db).sandboxRoutes(), readSandboxSwitches(this.deps.db)]);
    return routes.map((r) => ({ productCode: r.productCode, sku: r.sku, outOfStock: sw.outOfStock.includes(r.sku), availabilityBroken: sw.brokenAvailability.includes(r.sku) }));
  }

  /**
   * Adds SKUs to one per-SKU list of the sandbox switches (out of stock, or availability
   * check broken), leaving every other SKU as it is: one game's outage rehearsed alone.
   * `target` is a SKU, or a product code (its routes' SKUs on sandbox suppliers). Adding a
   * SKU already listed changes nothing.
   */
  async addSandboxSkus(list: SandboxSkuList, target: SandboxTarget, actor: Actor): Promise<SandboxSwitches> {
    const skus = await this.sandboxSkus(target);
    return this.change(actor, async (_supply, audit, trx) => {
      const before = await readSandboxSwitchesForUpdate(trx, this.deps.dialect);
      const after = await writeSandboxSwitches(trx, { [list]: [...before[list], ...skus.filter((sku) => !before[list].includes(sku))] });
      await audit({ action: 'sandbox.update', targetKind: 'sandbox', targetId: 'sandbox', before, after });
      return after;
    });
  }

  /** Removes SKUs from one per-SKU list; NOT_FOUND when none of them was listed. */
  async removeSandboxSkus(list: SandboxSkuList, target: SandboxTarget, actor: Actor): Promise<SandboxSwitches> {
    const skus = await this.sandboxSkus(target);
    return this.change(actor, async (_supply, audit, trx) => {
      const before = await readSandboxSwitchesForUpdate(trx, this.deps.dialect);
      if (!skus.some((sku) => before[list].includes(sku))) {
        throw new AppError('NOT_FOUND', `${describeTarget(target)} is not in the sandbox's ${list === 'outOfStock' ? 'out-of-stock' : 'broken-availability'} list`);
      }
      const after = await writeSandboxSwitches(trx, { [list]: before[list].filter((sku) => !skus.includes(sku)) });
      await audit({ action: 'sandbox.update', targetKind: 'sandbox', targetId: 'sandbox', before, after });
      return after;
    });
  }

  private async sandboxSkus(target: SandboxTarget): Promise<string[]> {
    if ('sku' in target) {
      const sku = target.sku.trim();
      if (sku === '' || sku.length > 128) throw new AppError('VALIDATION_ERROR', 'sku must be 1 to 128 characters');
      return [sku];
    }
    const routes = await new SupplyRepo(this.deps.db).sandboxRoutes(target.productCode);
    if (routes.length === 0) {
      if (!(await new SupplyRepo(this.deps.db).productExists(target.productCode))) throw new AppError('PRODUCT_NOT_FOUND', `no product "${target.productCode}"`);
      throw new AppError('NOT_FOUND', `product ${target.productCode} has no route to a sandbox supplier`);
    }
    return [...new Set(routes.map((r) => r.sku))];
  }

  /**
   * Refreshes supplier health and route availability now (the scheduled refresh does the
   * same every SUPPLY_REFRESH_MS), so product status follows a supply change at once.
   * Audited after it ran: the refresh writes many rows, none of them the operator's own.
   */
  async refreshNow(actor: Actor) {
    const result = await this.deps.refreshSupply.run();
    await new AuditRepo(this.deps.db).record({
      operatorId: actor, action: 'supply.refresh', targetKind: 'supply', targetId: 'supply', before: null,
      after: { routes_checked: result.routesChecked, availability_check_failed: result.availabilityCheckFailed, suppliers: result.suppliers.map((s) => ({ name: s.name, health: s.health })) },
    }, this.deps.clock.now());
    return { ...result, routes: await this.listRoutes() };
  }

  /** When the last refresh ran (null: never on this store) and what it found. */
  lastRefresh() {
    return new SupplyRepo(this.deps.db).lastRefresh();
  }
}

/** A per-SKU sandbox switch names a SKU, or a product (its sandbox routes' SKUs). */
export type SandboxTarget = { sku: string } | { productCode: string };
const describeTarget = (t: SandboxTarget) => ('sku' in t ? `SKU ${t.sku}` : `product ${t.productCode}`);

function checkSupplierName(name: string) {
  if (!/^[\w .-]{2,64}$/.test(name)) throw new AppError('VALIDATION_ERROR', 'supplier name: 2 to 64 letters, digits, spaces, dots, dashes or underscores');
}

function checkRoute(r: { sku?: string; priority?: number }) {
  if (r.sku !== undefined && (r.sku.trim() === '' || r.sku.length > 128)) throw new AppError('VALIDATION_ERROR', "the supplier's SKU is required (1 to 128 characters)");
  if (r.priority !== undefined && (!Number.isInteger(r.priority) || r.priority < 0)) throw new AppError('VALIDATION_ERROR', 'priority must be a whole number, 0 or more (lower is tried first)');
}

function checkOptions(o: RouteOptions): RouteOptions {
  const problem = routeOptionsProblem(o);
  if (problem) throw new AppError('VALIDATION_ERROR', problem);
  return o;
}

function upstreamCredentials(input: { baseUrl: string; apiKey: string; apiSecret: string }): UpstreamV1Credentials {
  let url: URL;
  try {
    url = new URL(input.baseUrl);
  } catch {
    throw new AppError('VALIDATION_ERROR', `base URL "${input.baseUrl}" is not a URL; expected e.g. https://upstream.example/api/v1`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('VALIDATION_ERROR', 'base URL must be http:// or https://');
  if (!input.apiKey || !input.apiSecret) throw new AppError('VALIDATION_ERROR', 'the upstream API key and API secret are both required');
  return { baseUrl: url.toString().replace(/\/$/, ''), apiKey: input.apiKey, apiSecret: input.apiSecret };
}

function digiflazzCredentials(input: { username: string; apiKey: string; webhookSecret?: string | null; baseUrl?: string }): DigiflazzCredentials {
  if (!input.username || !input.apiKey) throw new AppError('VALIDATION_ERROR', 'the Digiflazz username and API key are both required');
  if (input.webhookSecret !== undefined && input.webhookSecret !== null && input.webhookSecret.length < 8) throw new AppError('VALIDATION_ERROR', 'the webhook secret must be at least 8 characters (set the same secret in the Digiflazz member area)');
  const baseUrl = checkBaseUrl(input.baseUrl ?? DIGIFLAZZ_BASE_URL);
  return { baseUrl, username: input.username, apiKey: input.apiKey, webhookSecret: input.webhookSecret ?? null };
}

function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('VALIDATION_ERROR', `base URL "${raw}" is not a URL; expected e.g. ${DIGIFLAZZ_BASE_URL}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('VALIDATION_ERROR', 'base URL must be http:// or https://');
  return url.toString().replace(/\/$/, '');
}

const serviceState = (s: { enabled: boolean; status: string }) => ({ enabled: s.enabled, status: s.status });
