import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Highest resident set size seen (VmHWM), in MB. */
  peakRssMb: () => number;
  stop(): Promise<void>;
}

/** Starts a Node process and waits until its output matches `ready`. */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const peakRssMb = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not start:\n${out}`)), 60_000);
    const check = () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({
          child,
          output: () => out,
          peakRssMb,
          stop: () =>
            new Promise((res) => {
              if (child.exitCode !== null) return res();
              child.once('exit', () => res());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 5000).unref();
            }),
        });
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`process exited with ${code}:\n${out}`)));
  });
}

export const TOPUP_BIN = path.resolve('bin/topup.js');
