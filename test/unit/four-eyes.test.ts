import { describe, expect, it } from 'vitest';
import { cancelRefusal, decisionRefusal, needsApproval } from '../../src/domain/four-eyes.js';

describe('four-eyes rules', () => {
  it('money waits only above the threshold (off: never); supplier credentials always', () => {
    expect(needsApproval('wallet.credit', 100, 100)).toBe(false);
    expect(needsApproval('wallet.credit', 101, 100)).toBe(true);
    expect(needsApproval('wallet.debit', 101, 100)).toBe(true);
    expect(needsApproval('order.refund', 101, 100)).toBe(true);
    expect(needsApproval('wallet.credit', 10 ** 15, null)).toBe(false);
    expect(needsApproval('supplier.credentials', null, null)).toBe(true);
    expect(needsApproval('supplier.credentials', null, 100)).toBe(true);
  });

  it('another operator whose roles may do the action decides; never the requester', () => {
    const pending = { kind: 'wallet.credit' as const, state: 'pending' as const, requestedBy: 'a' };
    expect(decisionRefusal(pending, { id: 'a', roles: ['owner'] })?.code).toBe('FOUR_EYES_SELF_APPROVAL');
    expect(decisionRefusal(pending, { id: 'b', roles: ['finance'] })).toBeNull();
    expect(decisionRefusal(pending, { id: 'b', roles: ['owner'] })).toBeNull();
    expect(decisionRefusal(pending, { id: 'b', roles: ['catalog'] })?.code).toBe('FORBIDDEN_ROLE');
    expect(decisionRefusal({ ...pending, kind: 'supplier.credentials' }, { id: 'b', roles: ['finance'] })?.code).toBe('FORBIDDEN_ROLE');
    expect(decisionRefusal({ ...pending, kind: 'supplier.credentials' }, { id: 'b', roles: ['catalog'] })).toBeNull();
    expect(decisionRefusal({ ...pending, state: 'approved' }, { id: 'b', roles: ['owner'] })?.code).toBe('INVALID_STATE');
  });

  it('only the requester cancels, and only while pending', () => {
    expect(cancelRefusal({ state: 'pending', requestedBy: 'a' }, 'a')).toBeNull();
    expect(cancelRefusal({ state: 'pending', requestedBy: 'a' }, 'b')?.code).toBe('FORBIDDEN_ROLE');
    expect(cancelRefusal({ state: 'rejected', requestedBy: 'a' }, 'a')?.code).toBe('INVALID_STATE');
  });
});
