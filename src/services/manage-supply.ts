import type { SecretBox } from '../adapters/secret-box.js';
import type { UpstreamV1Credentials } from '../adapters/suppliers/upstream-v1.js';
import { AppError } from '../errors.js';
import type { SupplyRepo } from '../store/supply-repo.js';
import type { Clock, IdGenerator } from './ports.js';

/**
 * Operator set-up of suppliers and routes. Upstream credentials are sealed before they
 * reach the store and never echoed back.
 */
export class ManageSupply {
  constructor(private readonly deps: { supply: SupplyRepo; secrets: SecretBox; clock: Clock; ids: IdGenerator }) {}

  async addUpstreamV1(input: { name: string; baseUrl: string; apiKey: string; apiSecret: string }): Promise<{ id: string }> {
    const { supply, secrets, clock, ids } = this.deps;
    if (!/^[\w .-]{2,64}$/.test(input.name)) throw new AppError('VALIDATION_ERROR', 'supplier name: 2 to 64 letters, digits, spaces, dots, dashes or underscores');
    let url: URL;
    try {
      url = new URL(input.baseUrl);
    } catch {
      throw new AppError('VALIDATION_ERROR', `base URL "${input.baseUrl}" is not a URL; expected e.g. https://upstream.example/api/v1`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('VALIDATION_ERROR', 'base URL must be http:// or https://');
    if (!input.apiKey || !input.apiSecret) throw new AppError('VALIDATION_ERROR', 'the upstream API key and API secret are both required');
    if (await supply.supplierByName(input.name)) throw new AppError('VALIDATION_ERROR', `a supplier named "${input.name}" already exists`);
    const creds: UpstreamV1Credentials = { baseUrl: url.toString().replace(/\/$/, ''), apiKey: input.apiKey, apiSecret: input.apiSecret };
    const id = ids.uuid();
    await supply.insertSupplier({ id, name: input.name, adapter: 'upstream-v1', credentialsEnc: secrets.seal(JSON.stringify(creds)) }, clock.now());
    return { id };
  }

  /** Takes a supplier out of (or back into) service; the supplier gate follows at once. */
  async setSupplier(name: string, patch: { enabled?: boolean; status?: 'active' | 'maintenance' }): Promise<void> {
    const supplier = await this.deps.supply.supplierByName(name);
    if (!supplier) throw new AppError('NOT_FOUND', `no supplier named "${name}"`);
    await this.deps.supply.updateSupplier(supplier.id, {
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
      ...(patch.status === undefined ? {} : { status: patch.status }),
    });
  }

  async addRoute(input: { productCode: string; supplierName: string; sku: string; priority: number; cost: number }): Promise<{ id: string }> {
    const { supply, clock, ids } = this.deps;
    const supplier = await supply.supplierByName(input.supplierName);
    if (!supplier) throw new AppError('NOT_FOUND', `no supplier named "${input.supplierName}"`);
    if (!(await supply.productExists(input.productCode))) throw new AppError('PRODUCT_NOT_FOUND', `no product "${input.productCode}"`);
    if (!input.sku) throw new AppError('VALIDATION_ERROR', "the supplier's SKU is required");
    if (!Number.isInteger(input.priority) || input.priority < 0) throw new AppError('VALIDATION_ERROR', 'priority must be a whole number, 0 or more (lower is tried first)');
    if (!Number.isInteger(input.cost) || input.cost < 0) throw new AppError('VALIDATION_ERROR', 'cost must be a whole number of minor units, 0 or more');
    const id = ids.uuid();
    await supply.insertRoute({ id, productCode: input.productCode, supplierId: supplier.id, sku: input.sku, cost: input.cost, priority: input.priority }, clock.now());
    return { id };
  }
}
