import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sandboxAccount } from '../../domain/sandbox-accounts.js';
import type { Clock } from '../../services/ports.js';
import type { DB } from '../../store/schema.js';
import type { SubmitRequest, Supplier, SupplierAnswer } from './types.js';

/** Operator switches of the sandbox upstream (stored, so every process sees them). */
export interface SandboxSwitches {
  /** 'up', 'down' (connections refused) or 'maintenance'. */
  mode: 'up' | 'down' | 'maintenance';
  /** SKUs reported unavailable (and refused at submission). */
  outOfStock: string[];
  /** When true, availability checks fail for every SKU (the check itself cannot run). */
  availabilityBroken: boolean;
  /** SKUs the availability check cannot tell (one product's check broken, the others' not). */
  brokenAvailability: string[];
}

/** The per-SKU lists of the switches, which operators add to and remove from one SKU at a time. */
export type SandboxSkuList = 'outOfStock' | 'brokenAvailability';

const DEFAULT_SWITCHES: SandboxSwitches = { mode: 'up', outOfStock: [], availabilityBroken: false, brokenAvailability: [] };
const KEY = 'sandbox.switches';

export async function readSandboxSwitches(db: Kysely<DB>): Promise<SandboxSwitches> {
  const row = await db.selectFrom('system_state').select('value').where('key', '=', KEY).executeTakeFirst();
  return row ? { ...DEFAULT_SWITCHES, ...(JSON.parse(row.value) as Partial<SandboxSwitches>) } : DEFAULT_SWITCHES;
}

/**
 * The switches, read for a change in transaction `trx`: on PostgreSQL the row is locked, so
 * two operators adding SKUs at once both keep theirs (SQLite's write transactions are
 * serial already: they begin immediate).
 */
export async function readSandboxSwitchesForUpdate(trx: Kysely<DB>, dialect: 'sqlite' | 'postgres'): Promise<SandboxSwitches> {
  if (dialect === 'sqlite') return readSandboxSwitches(trx);
  await trx.insertInto('system_state').values({ key: KEY, value: JSON.stringify(DEFAULT_SWITCHES) }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await trx.selectFrom('system_state').select('value').where('key', '=', KEY).forUpdate().executeTakeFirstOrThrow();
  return { ...DEFAULT_SWITCHES, ...(JSON.parse(row.value) as Partial<SandboxSwitches>) };
}

export async function writeSandboxSwitches(db: Kysely<DB>, patch: Partial<SandboxSwitches>): Promise<SandboxSwitches> {
  const next = { ...(await readSandboxSwitches(db)), ...patch };
  await db.insertInto('system_state').values({ key: KEY, value: JSON.stringify(next) }).onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(next) })).execute();
  return next;
}

/**
 * A simulated upstream. Outcomes follow the sandbox test-account table; references are
 * remembered in the store (with a submission count that proves no double orders), and an
 * outcome becomes visible `delayMs` after the first submission, like a real upstream.
 */
export class SandboxSupplier implements Supplier {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly delayMs: number,
  ) {}

  async submit(req: SubmitRequest): Promise<SupplierAnswer> {
    const sw = await readSandboxSwitches(this.db);
    if (sw.mode === 'down') return { kind: 'refused', code: 'SUPPLIER_UNREACHABLE', message: 'connection refused' };
    if (sw.mode === 'maintenance') return { kind: 'refused', code: 'SUPPLIER_MAINTENANCE', message: 'upstream in maintenance' };
    if (sw.outOfStock.includes(req.sku)) return { kind: 'refused', code: 'PRODUCT_UNAVAILABLE', message: 'out of stock' };
    const now = this.clock.now();
    // The stored row comes back with the write (a resubmission keeps its first ready_at and
    // target): what status() would read, without reading it again.
    const row = await this.db
      .insertInto('sandbox_orders')
      .values({ reference: req.reference, sku: req.sku, target: req.target, submissions: 1, ready_at: now + this.delayMs, created_at: now })
      .onConflict((oc) => oc.column('reference').doUpdateSet((eb) => ({ submissions: eb('sandbox_orders.submissions', '+', 1) })))
      .returning(['reference', 'target', 'ready_at'])
      .executeTakeFirstOrThrow();
    return this.delayMs > 0 ? { kind: 'pending' } : this.statusOf(row);
  }

  async status(reference: string): Promise<SupplierAnswer> {
    const row = await this.db.selectFrom('sandbox_orders').select(['reference', 'target', 'ready_at']).where('reference', '=', reference).executeTakeFirst();
    return row ? this.statusOf(row) : { kind: 'not-found' };
  }

  private statusOf(row: { reference: string; target: string; ready_at: number | string }): SupplierAnswer {
    if (this.clock.now() < Number(row.ready_at)) return { kind: 'pending' };
    const outcome = sandboxAccount(row.target).fulfilment;
    if (outcome.kind === 'failed') return { kind: 'failed', otherRoute: false, code: outcome.code, message: outcome.upstreamMessage };
    // A stable voucher code per reference, so repeated queries agree.
    const code = createHash('sha256').update(row.reference).digest('hex').slice(0, 16).toUpperCase().replace(/(.{4})(?!$)/g, '$1-');
    return { kind: 'success', voucherCode: `SBX-${code}` };
  }

  async available(skus: readonly string[]): Promise<Map<string, boolean | null>> {
    const sw = await readSandboxSwitches(this.db);
    if (sw.availabilityBroken) throw new Error('sandbox availability check is switched off');
    return new Map(skus.map((sku) => [sku, sw.brokenAvailability.includes(sku) ? null : !sw.outOfStock.includes(sku)]));
  }

  async health(): Promise<'up' | 'down' | 'maintenance'> {
    return (await readSandboxSwitches(this.db)).mode;
  }
}
