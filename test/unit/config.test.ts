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

const problemsOf = (env: Record<string, string>) => {
  try {
    parseConfig({ ...base, ...env });
    return [];
  } catch (e) {
    return (e as ConfigError).problems;
  }
};

describe('config: CURRENCY', () => {
  it('takes ISO 4217 codes, in any case', () => {
    expect(parseConfig({ ...base, CURRENCY: 'usd' }).currency).toBe('USD');
    expect(parseConfig({ ...base, CURRENCY: 'IDR' }).currencyDecimals).toBe(0);
  });

  it.each(['XYZ', 'ABC', 'XXX', 'US', 'EURO'])('refuses %s, listed with the other bad variables', (code) => {
    expect(problemsOf({ CURRENCY: code, PORT: 'x' })).toEqual([
      `CURRENCY must be an ISO 4217 currency code such as IDR, USD or EUR (got "${code}")`,
      'PORT must be an integer from 0 to 65535 (got "x")',
    ]);
  });
});

describe('config: MAX_OPERATION_AMOUNT', () => {
  it('defaults to 1,000,000,000 major units and is bounded by what stays exact in minor units', () => {
    expect(parseConfig(base).maxOperationAmount).toBe(1_000_000_000);
    expect(parseConfig({ ...base, MAX_OPERATION_AMOUNT: '999999999999999' }).maxOperationAmount).toBe(999_999_999_999_999);
    expect(problemsOf({ MAX_OPERATION_AMOUNT: '1000000000000000' })).toEqual(['MAX_OPERATION_AMOUNT must be an integer from 1 to 999999999999999 (got "1000000000000000")']);
    expect(problemsOf({ CURRENCY: 'USD', MAX_OPERATION_AMOUNT: '10000000000000' })).toEqual(['MAX_OPERATION_AMOUNT must be an integer from 1 to 9999999999999 (got "10000000000000")']);
    expect(problemsOf({ MAX_OPERATION_AMOUNT: '0' })).toHaveLength(1);
  });
});

describe('config: AUTH_FAILURES_PER_IP and AUTH_FAILURES_PER_KEY', () => {
  it('default to 120 and 240 a minute, and take positive integers', () => {
    expect(parseConfig(base).authFailures).toEqual({ perIp: 120, perKey: 240 });
    expect(parseConfig({ ...base, AUTH_FAILURES_PER_IP: '5', AUTH_FAILURES_PER_KEY: '7' }).authFailures).toEqual({ perIp: 5, perKey: 7 });
    expect(problemsOf({ AUTH_FAILURES_PER_IP: '0', AUTH_FAILURES_PER_KEY: 'many' })).toEqual([
      'AUTH_FAILURES_PER_IP must be an integer from 1 to 1000000 (got "0")',
      'AUTH_FAILURES_PER_KEY must be an integer from 1 to 1000000 (got "many")',
    ]);
  });
});

describe('config: the supplier circuit breaker', () => {
  it('defaults to a 30 s cool-down and 3 probe orders; both settable', () => {
    expect(parseConfig(base).supplierBreaker).toEqual({ failuresToOpen: 3, cooldownMs: 30_000, probeOrders: 3 });
    expect(parseConfig({ ...base, SUPPLIER_BREAKER_COOLDOWN_MS: '500', SUPPLIER_BREAKER_PROBE_ORDERS: '1' }).supplierBreaker).toMatchObject({ cooldownMs: 500, probeOrders: 1 });
  });

  it('refuses values out of range, saying what they take', () => {
    expect(problemsOf({ SUPPLIER_BREAKER_COOLDOWN_MS: '10', SUPPLIER_BREAKER_PROBE_ORDERS: '0' })).toEqual([
      'SUPPLIER_BREAKER_COOLDOWN_MS must be an integer from 100 to 3600000 (got "10")',
      'SUPPLIER_BREAKER_PROBE_ORDERS must be an integer from 1 to 1000 (got "0")',
    ]);
  });
});
