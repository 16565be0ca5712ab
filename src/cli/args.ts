import { COMMANDS, usageLine } from './commands.js';

/** A usage mistake: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

interface FlagSpec {
  required: boolean;
  takesValue: boolean;
  /** Allowed values, when the placeholder spells them (`gold|platinum`). */
  choices: string[] | null;
  placeholder: string;
}
interface Spec {
  positional: { name: string; required: boolean; rest: boolean }[];
  flags: Map<string, FlagSpec>;
}

/** Reads a command's `args` string (syntax: commands.ts). */
export function specOf(args: string): Spec {
  const tokens = args.replace(/\[/g, ' [ ').replace(/\]/g, ' ] ').split(/\s+/).filter(Boolean);
  const spec: Spec = { positional: [], flags: new Map() };
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '[') depth++;
    else if (t === ']') depth--;
    else if (t.startsWith('--')) {
      const next = tokens[i + 1];
      const takesValue = next !== undefined && next !== '[' && next !== ']' && !next.startsWith('--');
      const placeholder = takesValue ? next : '';
      spec.flags.set(t.slice(2), { required: depth === 0, takesValue, placeholder, choices: /^[a-z0-9-]+(\|[a-z0-9-]+)+$/.test(placeholder) ? placeholder.split('|') : null });
      if (takesValue) i++;
    } else {
      spec.positional.push({ name: t.replace(/\.\.\.$/, ''), required: depth === 0, rest: t.endsWith('...') });
    }
  }
  return spec;
}

/** P: the positional words a command declares required (parseArgs has checked them). */
export interface ParsedArgs<P extends (string | undefined)[] = string[]> {
  positional: P;
  flags: Record<string, string>;
  json: boolean;
}

/**
 * Splits a command's words into positional words and `--flag value` pairs by the command's
 * `args` (commands.ts), and says what is wrong: a missing word or flag by name, an unknown
 * flag, a value not among those allowed, a word too many.
 */
export function parseArgs<P extends (string | undefined)[] = string[]>(command: string, args: string[]): ParsedArgs<P> {
  const info = COMMANDS[command];
  if (!info) throw new Error(`no command ${command}`);
  const spec = specOf(info.args);
  const fail = (what: string) => new UsageError(`topup ${command}: ${what}\nusage: ${usageLine(command)}`);
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq > 0 ? eq : undefined);
      const flag = spec.flags.get(name);
      if (!flag) throw fail(`unknown option --${name}`);
      let value = eq > 0 ? a.slice(eq + 1) : 'true';
      if (flag.takesValue && eq < 0) {
        const next = args[i + 1];
        if (next === undefined) throw fail(`--${name} needs a value (${flag.placeholder})`);
        value = next;
        i++;
      }
      if (flag.choices && !flag.choices.includes(value)) throw fail(`--${name} must be ${flag.choices.join(' or ')}, not "${value}"`);
      flags[name] = value;
    } else positional.push(a);
  }
  const rest = spec.positional.some((p) => p.rest);
  spec.positional.forEach((p, i) => {
    if (p.required && positional[i] === undefined) throw fail(`missing ${p.name}`);
  });
  if (!rest && positional.length > spec.positional.length) throw fail(`unexpected argument "${positional[spec.positional.length]}"`);
  for (const [name, f] of spec.flags) if (f.required && flags[name] === undefined) throw fail(`missing --${name} ${f.placeholder}`.trimEnd());
  return { positional: positional as P, flags, json };
}

/** A required environment variable, or a usage error naming it. */
export function requireEnv(command: string, name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`topup ${command}: missing ${name} (environment)\nusage: ${usageLine(command)}`);
  return value;
}
