import { describe, expect, it } from 'vitest';
import { gatewayFee, methodRefusal, quote, ruleProblem, type MethodRule } from '../../src/domain/payment-methods.js';
import { gatewayVerdict, parseGrossAmount, statusConfirms } from '../../src/domain/gateway-status.js';
import { midtransSignature, verifyMidtransSignature } from '../../src/adapters/payments/midtrans.js';

const rule = (r: Partial<MethodRule> = {}): MethodRule => ({ code: 'qris', enabled: true, minAmount: 10_000, maxAmount: 1_000_000, feeFixed: 0, feeBps: 0, feeMode: 'pass', ...r });

describe('gateway fee rules', () => {
  it('adds fixed and percent (basis points, rounded up) fees, passed on or absorbed', () => {
    expect(gatewayFee(rule({ feeBps: 70 }), 100_000)).toBe(700);
    expect(gatewayFee(rule({ feeBps: 70 }), 100_001)).toBe(701); // 700.007 rounds up
    expect(gatewayFee(rule({ feeFixed: 4_000, feeBps: 100 }), 50_000)).toBe(4_500);
    expect(quote(rule({ feeFixed: 4_000 }), 50_000)).toEqual({ amount: 50_000, fee: 4_000, payable: 54_000, feeMode: 'pass' });
    expect(quote(rule({ feeFixed: 4_000, feeMode: 'absorb' }), 50_000)).toEqual({ amount: 50_000, fee: 4_000, payable: 50_000, feeMode: 'absorb' });
  });
  it('bounds and disabled methods refuse, and inconsistent rules say what to fix', () => {
    expect(methodRefusal(rule(), 9_999)).toBe('below_min');
    expect(methodRefusal(rule(), 1_000_001)).toBe('above_max');
    expect(methodRefusal(rule({ enabled: false }), 50_000)).toBe('disabled');
    expect(methodRefusal(rule(), 10_000)).toBeNull();
    expect(ruleProblem(rule({ maxAmount: 5 }))).toMatch(/max_amount/);
    expect(ruleProblem(rule({ feeBps: 5001 }))).toMatch(/fee_bps/);
    expect(ruleProblem(rule({ feeMode: 'split' as never }))).toMatch(/fee_mode/);
    expect(ruleProblem(rule())).toBeNull();
  });
});

describe('gateway statuses', () => {
  it('credits only settlement or capture accepted', () => {
    expect(gatewayVerdict('settlement')).toBe('paid');
    expect(gatewayVerdict('capture', 'accept')).toBe('paid');
    expect(gatewayVerdict('capture', 'challenge')).toBe('pending');
    expect(gatewayVerdict('pending')).toBe('pending');
    expect(gatewayVerdict('expire')).toBe('expired');
    expect(gatewayVerdict('deny')).toBe('failed');
    expect(gatewayVerdict('partial_refund')).toBe('refunded');
  });
  it('a status confirms a notification when as far along and, when final, the same', () => {
    expect(statusConfirms('paid', 'paid')).toBe(true);
    expect(statusConfirms('paid', 'pending')).toBe(false);
    expect(statusConfirms('paid', 'expired')).toBe(false);
    expect(statusConfirms('pending', 'paid')).toBe(true);
    expect(statusConfirms('expired', 'paid')).toBe(false);
    expect(statusConfirms('paid', 'refunded')).toBe(true);
    expect(statusConfirms('refunded', 'paid')).toBe(false);
    expect(statusConfirms('paid', 'unknown')).toBe(false);
  });
  it('reads gross_amount as whole rupiah', () => {
    expect(parseGrossAmount('100000.00')).toBe(100_000);
    expect(parseGrossAmount('100000')).toBe(100_000);
    expect(parseGrossAmount('100000.50')).toBeNull();
    expect(parseGrossAmount('-1.00')).toBeNull();
    expect(parseGrossAmount('1e5')).toBeNull();
  });
  it('signature_key is sha512 of order_id, status_code, gross_amount and the server key', () => {
    const sig = midtransSignature('DEP-1', '200', '100000.00', 'SB-Mid-server-k');
    expect(sig).toMatch(/^[0-9a-f]{128}$/);
    const n = { order_id: 'DEP-1', status_code: '200', gross_amount: '100000.00', signature_key: sig };
    expect(verifyMidtransSignature(n, 'SB-Mid-server-k')).toBe(true);
    expect(verifyMidtransSignature({ ...n, signature_key: sig.toUpperCase() }, 'SB-Mid-server-k')).toBe(true);
    expect(verifyMidtransSignature({ ...n, gross_amount: '100000' }, 'SB-Mid-server-k')).toBe(false);
    expect(verifyMidtransSignature({ ...n, signature_key: 'short' }, 'SB-Mid-server-k')).toBe(false);
  });
});
