import { ConfigError, loadDotEnv, parseConfig, type Config } from '../config.js';
import { createPlatform, type Platform } from '../main.js';

/** One `topup` command: receives the words after its name. */
export type Command = (args: string[]) => Promise<void>;
export interface CommandSet {
  /** Lines for `topup` usage, one command each (continuation lines indented). */
  usage: string;
  commands: Record<string, Command>;
}

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

/** Runs fn with the whole platform (store, services) and closes it afterwards. */
export async function withPlatform<T>(fn: (p: Platform) => Promise<T>): Promise<T> {
  const platform = await createPlatform(loadConfig(), { storeHelpers: false });
  try {
    return await fn(platform);
  } finally {
    await platform.close();
  }
}

/** A usage mistake: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/**
 * Splits `args` into positional words and `--flag value` pairs (`--json` takes no value).
 * Unknown flags are usage errors.
 */
export function parseArgs(args: string[], known: string[], usage: string): { positional: string[]; flags: Record<string, string>; json: boolean } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a.startsWith('--')) {
      const name = a.slice(2);
      const value = args[i + 1];
      if (!known.includes(name) || value === undefined) throw new UsageError(`usage: ${usage}`);
      flags[name] = value;
      i++;
    } else positional.push(a);
  }
  return { positional, flags, json };
}

/** Prints a result: JSON for --json (scripts), else the human text. */
export function output(json: boolean, data: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

/** Progress of long-running commands goes to stderr, so --json output stays clean. */
export const progress = (line: string) => process.stderr.write(`… ${line}\n`);

/** An order by its id, or by its ORD- code (the first 12 hex digits of the id). */
export async function findOrderId(p: Platform, idOrCode: string): Promise<string> {
  const code = /^ORD-([0-9A-F]{12})$/i.exec(idOrCode)?.[1]?.toLowerCase();
  let q = p.database.db.selectFrom('orders').select('id');
  q = code ? q.where('id', 'like', `${code.slice(0, 8)}-${code.slice(8)}-%`) : q.where('id', '=', idOrCode);
  const rows = await q.execute();
  if (rows.length !== 1) throw new UsageError(`no single order matches ${idOrCode}`);
  return rows[0]!.id;
}
