import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { freePort } from '../support/ports.js';

const BIN = path.resolve('bin/topup.js');

interface ComposeService {
  command: string[];
  environment: Record<string, string>;
}

/**
 * A service of compose.yaml as a process: its command and its environment, `${VAR:?…}` and
 * `${VAR:-default}` filled from `vars`. Read from the file itself, so the test and the
 * deployment cannot drift apart.
 */
export function composeService(name: string, vars: Record<string, string>): { args: string[]; env: Record<string, string> } {
  const doc = load(readFileSync('compose.yaml', 'utf8')) as { services: Record<string, ComposeService> };
  const s = doc.services[name];
  if (!s) throw new Error(`compose.yaml has no service ${name}`);
  const fill = (v: string) =>
    String(v).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, key: string, op: string | undefined, rest: string) => {
      if (vars[key] !== undefined) return vars[key]!;
      if (op === '-') return rest;
      throw new Error(`compose.yaml needs ${key} (${rest ?? 'no default'})`);
    });
  return { args: s.command, env: Object.fromEntries(Object.entries(s.environment).map(([k, v]) => [k, fill(v)])) };
}

export interface Proc {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * `node bin/topup.js <args>` with exactly `env` (plus PATH and HOME): nothing of the test
 * runner's environment leaks in. Resolves once the process says it is ready.
 */
export function startTopup(args: string[], env: Record<string, string>, ready: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TMPDIR: process.env.TMPDIR ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, sig) => resolve(code ?? sig ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: not ready after 60 s:\n${out}`)), 60_000);
    const check = () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({ child, output: () => out, exited });
      }
    };
    child.stdout!.on('data', check);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${how}) before it was ready:\n${out}`));
    });
  });
}
