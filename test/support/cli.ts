import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import type { TestStore } from './stores.js';

/**
 * The real `topup` CLI as child processes: the compiled build (dist/, rebuilt when stale
 * by the compiled-build globalSetup), started exactly as an operator starts it.
 */
export const TOPUP_BIN = path.resolve('bin/topup.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A new user's environment on a data folder: SQLite there, no Redis, nothing inherited that would change it. */
export const userEnv = (dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', MASTER_KEY: '', ...env,
});

/** The environment of an operator's command on a test app's store (its master key is the test one). */
export const storeEnv = (store: TestStore, env: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env, NODE_ENV: 'test', DATA_DIR: store.dataDir, DATABASE_URL: store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent', REDIS_URL: '', ...env,
});

/** Runs one command to its end (without blocking the test's event loop: its app may be serving). */
export function topup(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TOPUP_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The same, blocking: for tests with no server in their own process. */
export function topupSync(env: NodeJS.ProcessEnv, ...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [TOPUP_BIN, ...args], { env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A command's --json output, once it exited 0. */
export function jsonOf(r: CliResult): any {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/**
 * Runs `topup serve` until it listens (resolves with its output so far) or exits (rejects
 * with an Error carrying its exit `code` and `output`).
 */
export function serveProcess(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [TOPUP_BIN, 'serve'], { env: { PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), timeoutMs);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (/topup listening on \S+/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`serve exited with ${code}:\n${output}`), { code, output }));
    });
  });
}
