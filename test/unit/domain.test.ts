import { describe, expect, it } from 'vitest';
import { ipAllowed, normalizeIp } from '../../src/domain/ip.js';
import { parseDateRange, parsePage, parseStatusFilter, pageMeta } from '../../src/domain/list-query.js';
import { parseDecimalPrice, toMajor } from '../../src/domain/money.js';
import { parseOrderRequest } from '../../src/domain/order-request.js';
import { isoMillis, orderCode } from '../../src/domain/order.js';
import { sign, signatureMatches, timestampFresh } from '../../src/domain/signature.js';
import { AppError } from '../../src/errors.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'OK';
};

describe('money', () => {
  it('parses prices exactly into minor units', () => {
    expect(parseDecimalPrice(15000, 0)).toEqual({ ok: true, minor: 15000 });
    expect(parseDecimalPrice('15000.000', 0)).toEqual({ ok: true, minor: 15000 });
    expect(parseDecimalPrice('0.1', 2)).toEqual({ ok: true, minor: 10 });
    expect(parseDecimalPrice(0.3, 2)).toEqual({ ok: true, minor: 30 });
    expect(parseDecimalPrice('15000.5', 0)).toEqual({ ok: false, reason: 'precision' });
    expect(parseDecimalPrice('1e3', 0)).toEqual({ ok: false, reason: 'format' });
    expect(parseDecimalPrice(-1, 0)).toEqual({ ok: false, reason: 'format' });
    expect(parseDecimalPrice('99999999999999999999', 0)).toEqual({ ok: false, reason: 'precision' });
    expect(toMajor(1234, 2)).toBe(12.34);
    expect(toMajor(1234, 0)).toBe(1234);
  });
});

describe('order code and signatures', () => {
  it('order_code is ORD- and the first 12 hex of the UUID, upper-cased', () => {
    expect(orderCode('6c198c27-1514-40a4-8de1-fb0fd107bca9')).toBe('ORD-6C198C271514');
    expect(orderCode('6C198C27-1514-40A4-8DE1-FB0FD107BCA9')).toBe('ORD-6C198C271514');
    expect(orderCode('6c198c2715144')).toBe('ORD-6C198C271514'); // not canonical: the general rule
  });
  it('isoMillis writes exactly what toISOString writes, across days, edges and out-of-range times', () => {
    const edges = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 86_399_999, 86_400_000, Date.UTC(2026, 10, 24, 23, 59, 59, 999), Date.UTC(2028, 1, 29, 12), Date.UTC(9999, 11, 31, 23, 59, 59, 999), 253_402_300_800_000, -1, -86_400_001, 1.5, 1_794_507_337_680.7];
    const walk = Array.from({ length: 20_000 }, (_, i) => 1_794_507_337_680 + i * 7_919_417 * (i % 2 ? 1 : -1));
    for (const ms of [...edges, ...walk, ...edges]) expect(isoMillis(ms), String(ms)).toBe(new Date(ms).toISOString());
  });
  it('signs body + timestamp and compares safely', () => {
    const s = sign('secret', '1700000000000', '{"a":1}');
    expect(s).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureMatches('secret', '1700000000000', '{"a":1}', s)).toBe(true);
    expect(signatureMatches('secret', '1700000000000', '{"a": 1}', s)).toBe(false);
    expect(signatureMatches('secret', '1700000000000', '{"a":1}', s.slice(0, 10))).toBe(false);
    expect(sign('k', '1')).toBe(sign('k', '1', ''));
    expect(timestampFresh(0, 5 * 60_000)).toBe(true);
    expect(timestampFresh(0, 5 * 60_000 + 1)).toBe(false);
  });
});

describe('ip whitelist', () => {
  it('compares IPv4, IPv4-mapped and IPv6 forms semantically', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('2001:0DB8:0000::0001')).toBe('2001:db8::1');
    expect(normalizeIp('999.1.1.1')).toBeNull();
    expect(ipAllowed('::ffff:10.0.0.1', ['10.0.0.1'])).toBe(true);
    expect(ipAllowed('2001:db8::1', ['2001:0db8::0:1'])).toBe(true);
    expect(ipAllowed('10.0.0.2', ['10.0.0.1', '::1'])).toBe(false);
    expect(ipAllowed('not-an-ip', ['10.0.0.1'])).toBe(false);
  });
});

describe('list queries', () => {
  it('pages', () => {
    expect(parsePage({})).toEqual({ page: 1, limit: 50, offset: 0 });
    expect(parsePage({ page: '3', limit: '10' })).toEqual({ page: 3, limit: 10, offset: 20 });
    for (const q of [{ page: '0' }, { limit: '101' }, { limit: '' }, { page: ['1', '2'] }]) expect(code(() => parsePage(q))).toBe('INVALID_PAGINATION');
    expect(pageMeta(0, { page: 1, limit: 50, offset: 0 })).toEqual({ total: 0, page: 1, limit: 50, total_pages: 0, has_more: false });
  });
  it('date ranges', () => {
    const now = Date.UTC(2026, 10, 23);
    expect(parseDateRange({}, now)).toEqual({ from: null, to: null });
    expect(parseDateRange({ start_date: '2026-11-01', end_date: '2026-11-01' }, now)).toEqual({ from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 2) - 1 });
    expect(code(() => parseDateRange({ start_date: '2026-01-01' }, now))).toBe('DATE_RANGE_TOO_LARGE');
    expect(code(() => parseDateRange({ start_date: '2026-11-10', end_date: '2026-11-01' }, now))).toBe('INVALID_DATE_RANGE');
    expect(code(() => parseDateRange({ end_date: '2026-11-01T10:00:00' }, now))).toBe('INVALID_DATE_RANGE');
  });
  it('status filters', () => {
    expect(parseStatusFilter(undefined)).toBeNull();
    expect(parseStatusFilter('success,FAILED')).toEqual(['success', 'failed']);
    expect(code(() => parseStatusFilter('ok'))).toBe('INVALID_STATUS_FILTER');
    expect(code(() => parseStatusFilter(['success']))).toBe('INVALID_STATUS_FILTER');
  });
});

describe('order request', () => {
  const ok = { ref_id: 'r1', product_code: 'P', target: 't' };
  it('accepts the minimal body and reads price forms', () => {
    expect(parseOrderRequest(ok, 0)).toEqual({ refId: 'r1', productCode: 'P', target: 't', zone: null, expectedPrice: null });
    expect(parseOrderRequest({ ...ok, price: '100' }, 0).expectedPrice).toBe(100);
    expect(parseOrderRequest({ ...ok, price: 100.5 }, 0).expectedPrice).toBe('never');
    expect(parseOrderRequest({ ...ok, zone: null }, 0).zone).toBeNull();
  });
  it('refuses what the spec refuses', () => {
    for (const body of [null, [], 'x', { ...ok, extra: 1 }, { ...ok, price: null }, { ...ok, price: '' }, { ...ok, target: 1 }]) {
      expect(code(() => parseOrderRequest(body, 0))).toBe('VALIDATION_ERROR');
    }
  });
});
