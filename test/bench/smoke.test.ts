import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_URL } from '../support/stores.js';

/** Keeps the benchmark suite working: its smoke mode runs end to end. No timing is asserted. */
describe('benchmark suite (smoke mode)', () => {
  it('runs every figure on the configured stores and writes Markdown and JSON', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'topup-bench-out-'));
    try {
      const stores = POSTGRES_URL ? 'sqlite,postgres' : 'sqlite';
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], {
        env: { METRICS_PORT: 'off', ...process.env, BENCH_OUT_DIR: out, BENCH_STORES: stores },
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(existsSync(path.join(out, 'benchmarks-smoke.md'))).toBe(true);
      const json = JSON.parse(readFileSync(path.join(out, 'benchmarks-smoke.json'), 'utf8'));
      const ids = new Set(json.rows.map((row: { id: string }) => row.id));
      expect(ids.has('B1')).toBe(true);
      expect(ids.has('B2')).toBe(true);
      expect(ids.has('B5')).toBe(true);
      if (POSTGRES_URL) expect(ids.has('B1-pg')).toBe(true);
      for (const row of json.rows) expect(row.value === null || Number.isFinite(row.value)).toBe(true);
      // B1 and B2 carry the CPU each request cost the service and the bare server.
      for (const row of json.rows.filter((r: { id: string }) => r.id === 'B1' || r.id === 'B2')) {
        expect(row.cpuUs.figure, row.figure).toBeGreaterThan(0);
        expect(row.cpuUs.baseline, row.figure).toBeGreaterThan(0);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);

  it('stopped early, leaves no server running and no scratch directory behind', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'topup-bench-tmp-'));
    const bench = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], {
      // TMPDIR: the bench's scratch directories land where this test can look.
      env: { METRICS_PORT: 'off', ...process.env, TMPDIR: tmp, BENCH_OUT_DIR: tmp, BENCH_STORES: 'sqlite', BENCH_FIGURES: 'B1' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => bench.once('exit', (code) => resolve(code)));
    try {
      // Once the service and the bare server are up, B1 is under way.
      let servers: number[] = [];
      for (let waited = 0; servers.length < 2; waited += 100) {
        if (waited > 120_000) throw new Error('the bench did not start its servers');
        await new Promise((r) => setTimeout(r, 100));
        servers = childrenOf(bench.pid!).filter((pid) => /topup\.js|bare-server/.test(commandLine(pid)));
      }
      expect(readdirSync(tmp).some((d) => d.startsWith('topup-bench-sqlite-'))).toBe(true);

      bench.kill('SIGTERM');
      expect(await exited).toBe(143);
      for (let waited = 0; servers.some(running); waited += 100) {
        if (waited > 10_000) throw new Error(`still running after the bench stopped: ${servers.filter(running).join(', ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(readdirSync(tmp).filter((d) => d.startsWith('topup-bench-'))).toEqual([]);
    } finally {
      bench.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);
});

/** The child processes of `pid` (all its threads' children), from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Still a process (a zombie, reaped by nobody yet, counts as gone). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
