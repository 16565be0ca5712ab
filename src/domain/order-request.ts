import { AppError } from '../errors.js';
import { parseDecimalPrice, type Money } from './money.js';
import { assertText } from './text.js';

/** POST /order body, validated. */
export interface OrderRequest {
  refId: string;
  productCode: string;
  target: string;
  zone: string | null;
  /** Minor units when the reseller sent price; null when omitted. 'never' = can never match. */
  expectedPrice: Money | 'never' | null;
}

export const ORDER_FIELDS = ['ref_id', 'product_code', 'target', 'zone', 'price'] as const;
export const LIMITS = { ref_id: 64, product_code: 128, target: 128, zone: 64 } as const;

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

/**
 * Identifiers hold no control characters and are well-formed Unicode (the rule and why:
 * domain/text.ts).
 */
export function assertNoControlChars(field: string, value: string): void {
  assertText(field, value);
}

function requiredString(body: Record<string, unknown>, field: 'ref_id' | 'product_code' | 'target'): string {
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw invalid(`${field} is required (string)`);
  if (v.length > LIMITS[field]) throw invalid(`${field} must be at most ${LIMITS[field]} characters (got ${v.length})`);
  assertNoControlChars(field, v);
  return v;
}

/** Validates the exact field set and every rule of the spec's POST /order body. */
export function parseOrderRequest(body: unknown, currencyDecimals: number): OrderRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object with ref_id, product_code and target');
  }
  const obj = body as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !(ORDER_FIELDS as readonly string[]).includes(k));
  if (unknown.length) {
    throw invalid(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}; allowed fields are ${ORDER_FIELDS.join(', ')}`);
  }
  const refId = requiredString(obj, 'ref_id');
  const productCode = requiredString(obj, 'product_code');
  const target = requiredString(obj, 'target');

  let zone: string | null = null;
  // A null zone is read as "no zone": clients commonly serialise absent optionals as null.
  if (obj.zone !== undefined && obj.zone !== null) {
    if (typeof obj.zone !== 'string') throw invalid('zone must be a string');
    if (obj.zone.length > LIMITS.zone) throw invalid(`zone must be at most ${LIMITS.zone} characters (got ${obj.zone.length})`);
    assertNoControlChars('zone', obj.zone);
    zone = obj.zone.trim() === '' ? null : obj.zone;
  }

  let expectedPrice: OrderRequest['expectedPrice'] = null;
  if ('price' in obj) {
    const p = obj.price;
    if (p === null || p === '' || (typeof p !== 'number' && typeof p !== 'string')) {
      throw invalid('price must be a number or a numeric string; omit the field entirely to skip the price check');
    }
    const parsed = parseDecimalPrice(p, currencyDecimals);
    if (!parsed.ok && parsed.reason === 'format') {
      throw invalid(`price must be a non-negative number or numeric string such as 15000 or "15000" (got ${JSON.stringify(p)})`);
    }
    expectedPrice = parsed.ok ? parsed.minor : 'never';
  }
  return { refId, productCode, target, zone, expectedPrice };
}
