import { spawn, type ChildProcess } from 'node:child_process';
import { TOPUP_BIN as BIN } from './cli.js';

/** Starts the real CLI (`topup serve` or `topup worker`) and resolves once it says it is ready. */
export function startServerProcess(env: Record<string, string>, command: 'serve' | 'worker' = 'serve'): Promise<{ child: ChildProcess; output: () => string; readyAt: number }> {
  const ready = command === 'serve' ? /topup listening on \S+/ : /topup worker \S+ running/;
  const child = spawn(process.execPath, [BIN, command], {
    env: { ...process.env, PORT: '0', METRICS_PORT: 'off', LOG_LEVEL: 'error', NODE_ENV: 'development', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), 30_000);
    const check = () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out, readyAt: Date.now() });
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code, sig) => reject(new Error(`exited ${code} ${sig}:\n${out}`)));
  });
}
