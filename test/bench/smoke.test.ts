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
        timeout: 840_000,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      const md = readFileSync(path.join(out, 'benchmarks-smoke.md'), 'utf8');
      const json = JSON.parse(readFileSync(path.join(out, 'benchmarks-smoke.json'), 'utf8'));
      type Row = { id: string; figure: string; load: string; value: number | null; ratio: number | null; tags?: Record<string, string | number>; cpuUs?: { figure: number; baseline: number }; clientCpuUs?: number };
      const rows: Row[] = json.rows;
      const ids = new Set(rows.map((row) => row.id));
      for (const id of ['B1', 'B1-err', 'B1-metrics', 'B2', 'B3', 'B4', 'B5', 'B5-op', 'R1', 'CLI']) expect(ids.has(id), id).toBe(true);
      for (const row of rows) {
        expect(row.value === null || Number.isFinite(row.value), row.figure).toBe(true);
        // Every row says what it ran.
        expect(row.load, row.figure).toMatch(/\S/);
      }
      // B1 for one hot reseller with both clients, on each store, in the same rounds.
      for (const store of stores.split(',')) {
        const clients = rows.filter((row) => row.id === 'B1' && row.tags?.store === store && row.tags?.resellers === 1).map((row) => row.tags?.client);
        expect(clients.sort(), store).toEqual(['autocannon', 'raw client']);
      }
      // B1 and B2 carry the CPU each request cost the service and the bare server, and the client's own.
      for (const row of rows.filter((r) => r.id === 'B1' || r.id === 'B2')) {
        expect(row.cpuUs!.figure, row.figure).toBeGreaterThan(0);
        expect(row.cpuUs!.baseline, row.figure).toBeGreaterThan(0);
        expect(row.clientCpuUs, row.figure).toBeGreaterThan(0);
      }
      // The CLI rows: --help and a read-only command against a bare node start.
      expect(rows.filter((row) => row.id === 'CLI').map((row) => row.figure.split(':')[0])).toEqual(['topup --help', 'topup attention (read-only, SQLite)']);
      // The operator's search answers pages, whatever its latency.
      expect(rows.filter((row) => row.id === 'B5-op')).toHaveLength(3 * stores.split(',').length);
      // The profit report's three reads over the seeded aggregates, each answered.
      expect(rows.filter((row) => row.id === 'R1' && row.value !== null)).toHaveLength(3 * stores.split(',').length);
      if (POSTGRES_URL) {
        // Against pgbench one order per transaction, and with the service's group size.
        const pg = rows.filter((row) => row.id === 'B1-pg');
        expect(pg).toHaveLength(2);
        expect(Number(pg[1]!.tags?.group)).toBeGreaterThanOrEqual(1);
      }
      // The report is generated whole: the next goals, judged from this run's rows.
      expect(json.goals.map((g: { figure: string }) => g.figure)).toEqual(['B1 SQLite', 'B2 GET /products', 'B3 terminal → first callback', 'B4 end to end on PostgreSQL', 'B5 history', 'peak RSS']);
      expect(md).toContain('## Next goals');
      expect(md).toContain('Generated whole by `BENCH_STORES=');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 900_000);

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
