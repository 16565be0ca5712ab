import { describe, expect, it } from 'vitest';
import { classifyFailure, cleanUpstreamWording } from '../../src/domain/failure.js';
import { sandboxAccount } from '../../src/domain/sandbox-accounts.js';
import { referenceToken, serialNumber } from '../../src/domain/serial.js';
import { nextSupplierReference, orderIdOfReference } from '../../src/domain/supplier-reference.js';

describe('serial numbers', () => {
  it('instant: SRL- and 10 characters, no slash; voucher: token / redeemable code', () => {
    const token = referenceToken();
    expect(token).toMatch(/^[A-Z2-9]{10}$/);
    expect(serialNumber('instant', token)).toMatch(/^SRL-[A-Z2-9]{10}$/);
    const v = serialNumber('voucher', token, 'ABCD-1234');
    expect(v).toBe(`SRL-${token}/ABCD-1234`);
    expect(v.slice(v.lastIndexOf('/') + 1)).toBe('ABCD-1234');
    expect(() => serialNumber('voucher', token)).toThrow();
  });
});

describe('failure classification', () => {
  const base = { upstreamMessage: null, limitGated: false, checkerVerified: false, supplierNames: ['Acme Topups'] };

  it('gives every known code a customer sentence that names no supplier', () => {
    for (const code of ['NO_SUPPLIER_AVAILABLE', 'PRODUCT_UNAVAILABLE', 'SUPPLIER_MAINTENANCE', 'SUPPLIER_UNREACHABLE', 'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT'] as const) {
      const f = classifyFailure({ ...base, code, upstreamMessage: 'Acme Topups: something broke' });
      expect(f.code).toBe(code);
      expect(f.reason).toMatch(/\.$/);
      expect(f.reason).not.toMatch(/acme/i);
    }
  });

  it('keeps the upstream wording of an unclassified rejection, cleaned of supplier names', () => {
    const f = classifyFailure({ ...base, code: 'SUPPLIER_REJECTED', upstreamMessage: 'Acme Topups: order refused because acme topups is busy' });
    expect(f.code).toBe('SUPPLIER_REJECTED');
    expect(f.reason).toBe('Order refused because the provider is busy.');
    expect(cleanUpstreamWording('', [])).toBe('The top-up was rejected.');
  });

  it('infers WDP_LIMIT_LIKELY only for a limit-gated product on a checker-verified account', () => {
    const rejected = { ...base, code: 'SUPPLIER_REJECTED' as const, upstreamMessage: 'no' };
    expect(classifyFailure({ ...rejected, limitGated: true, checkerVerified: true }).code).toBe('WDP_LIMIT_LIKELY');
    expect(classifyFailure({ ...rejected, limitGated: true, checkerVerified: false }).code).toBe('SUPPLIER_REJECTED');
    expect(classifyFailure({ ...rejected, limitGated: false, checkerVerified: true }).code).toBe('SUPPLIER_REJECTED');
    expect(classifyFailure({ ...base, code: 'SUPPLIER_MAINTENANCE', limitGated: true, checkerVerified: true }).code).toBe('SUPPLIER_MAINTENANCE');
  });

  it('a bare failure keeps both fields null', () => {
    expect(classifyFailure({ ...base, code: null, upstreamMessage: 'whatever' })).toEqual({ code: null, reason: null });
  });
});

describe('sandbox test accounts', () => {
  it('drive the checker and the supplier from one table; anything else is valid and succeeds', () => {
    expect(sandboxAccount('4040404040').verdict).toBe('INVALID_ID');
    expect(sandboxAccount('5030503050')).toEqual({ verdict: 'no_answer', fulfilment: { kind: 'success' } });
    expect(sandboxAccount('7000000004')).toMatchObject({ verdict: 'valid', fulfilment: { kind: 'failed', code: 'PRODUCT_UNAVAILABLE' } });
    expect(sandboxAccount('123456789')).toEqual({ verdict: 'valid', fulfilment: { kind: 'success' } });
  });
});

describe('supplier references', () => {
  it('one per attempt: the order id first, then -r2, -r3; each leads back to its order', () => {
    const id = '0b9c4a6e-1d2f-4e8a-9b7c-123456789012';
    const refs = [nextSupplierReference(id, null)];
    for (let i = 0; i < 3; i++) refs.push(nextSupplierReference(id, refs.at(-1)!));
    expect(refs).toEqual([id, `${id}-r2`, `${id}-r3`, `${id}-r4`]);
    expect(new Set(refs).size).toBe(4);
    expect(refs.map(orderIdOfReference)).toEqual([id, id, id, id]);
    expect(refs.every((r) => r.length <= 64)).toBe(true);
  });
});
