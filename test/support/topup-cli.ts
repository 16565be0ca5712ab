import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

const BIN = path.resolve('bin/topup.js');

export interface CliRun { status: number | null; stdout: string; stderr: string }

/** Runs `topup` as an operator would, against the test app's store (a new node + tsx process each time). */
export function runTopup(t: TestApp, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const full = { ...process.env, NODE_ENV: 'test', DATA_DIR: t.store.dataDir, DATABASE_URL: t.store.url, MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'silent', REDIS_URL: '', ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The --json output of a run that succeeded. */
export function jsonOf(r: CliRun): any {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
