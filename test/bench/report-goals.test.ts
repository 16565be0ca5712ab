import { describe, expect, it } from 'vitest';
import { goals } from '../../bench/lib/report.js';
import type { Row } from '../../bench/lib/rows.js';

const b5 = (store: string, figure: string, p99: number | null): Row => ({
  id: 'B5', figure, load: '', value: p99, unit: 'ms p99', baseline: '-', baselineValue: null, ratio: null,
  p50: p99, p99, rssMb: null, goal: 'p99 ≤ 10 ms', met: null, tags: { store, orders: 10_000_000 },
});

describe('bench goals table', () => {
  it('counts a B5 row that answered nothing as its store\'s worst, never as a fast one', () => {
    const g = goals([
      b5('sqlite', 'GET /orders page 1, 10,000,000 orders', 8),
      b5('postgres', 'GET /orders page 1, 10,000,000 orders', 9),
      b5('postgres', 'dashboard GET /orders ref_id=hist-99 search, 10,000,000 orders', null),
    ]).find((x) => x.figure === 'B5 history')!;
    expect(g.status).toBe('not met');
    expect(g.measured).toMatch(/SQLite worst 8 ms; PostgreSQL worst nothing answered in \d+ s \(dashboard GET \/orders ref_id=hist-99 search\)/);
  });
});
