import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/topup-config-test' };

describe('config: HEAP_GROWING_PERCENT', () => {
  it('defaults to 30% (the measured peak-RSS setting) and accepts 0 (V8 decides) up to 400', () => {
    expect(parseConfig(base).heapGrowingPercent).toBe(30);
    expect(parseConfig({ ...base, HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(parseConfig({ ...base, HEAP_GROWING_PERCENT: '400' }).heapGrowingPercent).toBe(400);
  });

  it.each(['-1', '401', '1.5', 'lots'])('refuses %s, saying what it takes', (raw) => {
    let problems: string[] = [];
    try {
      parseConfig({ ...base, HEAP_GROWING_PERCENT: raw });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([`HEAP_GROWING_PERCENT must be an integer from 0 to 400 (got "${raw}")`]);
  });
});
