import type { Actor } from './operator/actor.js';
import type { Kysely } from 'kysely';
import { readSandboxSwitches, writeSandboxSwitches, type SandboxSwitches } from '../adapters/suppliers/sandbox.js';
import type { SecretBox } from '../adapters/secret-box.js';
import type { UpstreamV1Credentials } from '../adapters/suppliers/upstream-v1.js';
import { AppError } from '../errors.js';
import { AuditRepo, type AuditEntry } from '../store/audit-repo.js';
import type { DB } from '../store/schema.js';
import { SupplyRepo } from '../store/supply-repo.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';
import { minorUnits } from './operator/money-input.js';
import { toMajor } from '../domain/money.js';
import { routeOptionsProblem, type RouteOptions } from '../domain/route-options.js';
import { DIGIFLAZZ_BASE_URL, type DigiflazzCredentials } from '../adapters/suppliers/digiflazz/protocol.js';
import { optionsJson } from '../store/supply-repo.js';

/** Who made a change, for the audit log: an operator id, or "cli" for the `topup` CLI. */

export interface RoutePatch {
  sku?: string;
  priority?: number;
  /** Major units, exact (as typed). */
  cost?: number | string;
  enabled?: boolean;
  /** The adapter's settings for this route (replaced whole when given). */
  options?: RouteOptions;
}

/**
 * Operator set-up of suppliers and routes. Upstream credentials are sealed before they
 * reach the store and never echoed back, nor written to the audit log. Every change
 * commits with its audit line; the supplier gate reads the store, so it follows at once.
 */
export class ManageSupply {
  constructor(private readonly deps: { db: Kysely<DB>; secrets: SecretBox; clock: Clock; ids: IdGenerator; currency: CurrencySettings }) {}

  /** Routes as the operator sees them: cost in major units. */
  private async routes(supply: SupplyRepo, filter: Parameters<SupplyRepo['listRoutes']>[0]) {
    return (await supply.listRoutes(filter)).map((r) => ({ ...r, cost: toMajor(r.cost, this.deps.currency.decimals) }));
  }

  private minor(cost: number | string | undefined) {
    return cost === undefined ? undefined : minorUnits(cost, this.deps.currency.decimals, 'cost');
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
    let url: URL;
    try {
      url = new URL(input.baseUrl);
    } catch {
      throw new AppError('VALIDATION_ERROR', `base URL "${input.baseUrl}" is not a URL; expected e.g. https://upstream.example/api/v1`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('VALIDATION_ERROR', 'base URL must be http:// or https://');
    if (!input.apiKey || !input.apiSecret) throw new AppError('VALIDATION_ERROR', 'the upstream API key and API secret are both required');
    const creds: UpstreamV1Credentials = { baseUrl: url.toString().replace(/\/$/, ''), apiKey: input.apiKey, apiSecret: input.apiSecret };
    return this.insertSupplier(actor, { name: input.name, adapter: 'upstream-v1', credentialsEnc: this.deps.secrets.seal(JSON.stringify(creds)) });
  }

  /**
   * A Digiflazz buyer account. Its prices are rupiah, so the platform's currency must be
   * IDR. The base address is configurable (the supplier's, unless it says otherwise).
   */
  async addDigiflazz(input: { name: string; username: string; apiKey: string; webhookSecret?: string | null; baseUrl?: string; balanceThreshold?: number | string | null }, actor: Actor) {
    checkSupplierName(input.name);
    if (this.deps.currency.code !== 'IDR') throw new AppError('VALIDATION_ERROR', `Digiflazz prices are in IDR; this installation's CURRENCY is ${this.deps.currency.code}`);
    if (!input.username || !input.apiKey) throw new AppError('VALIDATION_ERROR', 'the Digiflazz username and API key are both required');
    if (input.webhookSecret !== undefined && input.webhookSecret !== null && input.webhookSecret.length < 8) throw new AppError('VALIDATION_ERROR', 'the webhook secret must be at least 8 characters (set the same secret in the Digiflazz member area)');
    const baseUrl = checkBaseUrl(input.baseUrl ?? DIGIFLAZZ_BASE_URL);
    const creds: DigiflazzCredentials = { baseUrl, username: input.username, apiKey: input.apiKey, webhookSecret: input.webhookSecret ?? null };
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

  listRoutes(productCode?: string) {
    return this.routes(new SupplyRepo(this.deps.db), productCode === undefined ? {} : { productCode });
  }

  async addRoute(input: { productCode: string; supplierName: string; sku: string; priority: number; cost: number | string; enabled?: boolean; options?: RouteOptions }, actor: Actor) {
    checkRoute(input);
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
        ...(patch.options === undefined ? {} : { options: optionsJson(patch.options) }),
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
    return this.change(actor, async (_supply, audit, trx) => {
      const before = await readSandboxSwitches(trx);
      const after = await writeSandboxSwitches(trx, patch);
      await audit({ action: 'sandbox.update', targetKind: 'sandbox', targetId: 'sandbox', before, after });
      return after;
    });
  }
}

function checkSupplierName(name: string) {
  if (!/^[\w .-]{2,64}$/.test(name)) throw new AppError('VALIDATION_ERROR', 'supplier name: 2 to 64 letters, digits, spaces, dots, dashes or underscores');
}

function checkRoute(r: RoutePatch) {
  if (r.sku !== undefined && (r.sku.trim() === '' || r.sku.length > 128)) throw new AppError('VALIDATION_ERROR', "the supplier's SKU is required (1 to 128 characters)");
  if (r.priority !== undefined && (!Number.isInteger(r.priority) || r.priority < 0)) throw new AppError('VALIDATION_ERROR', 'priority must be a whole number, 0 or more (lower is tried first)');
  const problem = r.options === undefined ? null : routeOptionsProblem(r.options);
  if (problem) throw new AppError('VALIDATION_ERROR', problem);
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
