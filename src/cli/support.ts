import { ConfigError, loadDotEnv, parseConfig, type Config } from '../config.js';
import type { ServicePlatform } from '../service-platform.js';
import { UsageError } from './args.js';

export { parseArgs, requireEnv, UsageError } from './args.js';
export type { CommandModule } from './commands.js';

export function loadConfig(): Config {
  loadDotEnv();
  try {
    return parseConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/**
 * Runs fn with the services (store, adapters, services; no HTTP app, no metrics) and closes
 * them afterwards.
 */
export async function withPlatform<T>(fn: (p: ServicePlatform) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Loaded here, not at the top: commands that need only the store stay quick to start.
  const { createServicePlatform } = await import('../service-platform.js');
  const platform = await createServicePlatform(config, { storeHelpers: false, metrics: false });
  try {
    return await fn(platform);
  } finally {
    await platform.close();
  }
}

/** Prints a result: JSON for --json (scripts), else the human text. */
export function output(json: boolean, data: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

/** Progress of long-running commands goes to stderr, so --json output stays clean. */
export const progress = (line: string) => process.stderr.write(`… ${line}\n`);

/** An order by its id, or by its ORD- code (the first 12 hex digits of the id). */
export async function findOrderId(p: ServicePlatform, idOrCode: string): Promise<string> {
  const id = await p.repos.operatorOrders.idOf(idOrCode);
  if (id === null) throw new UsageError(`no single order matches ${idOrCode}`);
  return id;
}

/** Epoch-millisecond `*_at` fields (store rows) as ISO 8601 times, at any depth, for output. */
export function isoTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(isoTimes);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k.endsWith('_at') && typeof v === 'number' ? new Date(v).toISOString() : isoTimes(v)]));
}
