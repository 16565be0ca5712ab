import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Highest resident set size seen (VmHWM), in MB. */
  peakRssMb: () => number;
  /** CPU time used so far (user + system, all threads), in ms. */
  cpuMs: () => number;
  stop(): Promise<void>;
}

/**
 * What the bench leaves behind if it stops early (an error, ^C, a kill): the servers it
 * started, which would go on holding their ports and stores, and its scratch directories.
 * Both are cleaned up on the way out, whichever way that is.
 */
const liveChildren = new Set<ChildProcess>();
const scratchDirs = new Set<string>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});
// Without a handler these signals end the process without running 'exit' handlers.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.once(signal, () => process.exit(code));

/** A directory removed when the bench exits, unless `keep` takes it back first. */
export function scratchDir(dir: string): { keep: () => void } {
  scratchDirs.add(dir);
  return { keep: () => scratchDirs.delete(dir) };
}

/** Starts a Node process and waits until its output matches `ready`. */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
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
  const cpuMs = () => {
    try {
      // Fields 14 and 15 (utime, stime), after the parenthesised command name.
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
      return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks();
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
          cpuMs,
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

let ticks = 0;
function clockTicks(): number {
  if (!ticks) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

export const TOPUP_BIN = path.resolve('bin/topup.js');
