import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
        env: { ...process.env, BENCH_OUT_DIR: out, BENCH_STORES: stores },
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
});
