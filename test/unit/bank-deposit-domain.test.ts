import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mutationSignatureMatches, needsReview, ticketAmounts, validateSettings, DEFAULT_DEPOSIT_SETTINGS } from '../../src/domain/bank-deposit.js';
import { parseBankAmount, parseMutationPush, statementLines, validateMapping, type StatementMapping } from '../../src/domain/bank-statement.js';

/** The pure rules of bank-transfer deposits: amounts as banks write them, line identities, signatures. */
describe('bank deposit rules', () => {
  it('reads amounts in both notations, with signs and CR/DB marks, exactly', () => {
    expect(parseBankAmount('Rp 1.000.123,00', ',', 0)).toEqual({ minor: 1_000_123, direction: 'CR' });
    expect(parseBankAmount('1,000,123.00 CR', '.', 0)).toEqual({ minor: 1_000_123, direction: 'CR' });
    expect(parseBankAmount('15.000,00 DB', ',', 0)).toEqual({ minor: 15_000, direction: 'DB' });
    expect(parseBankAmount('-50000', '.', 0)).toEqual({ minor: 50_000, direction: 'DB' });
    expect(parseBankAmount('(2,500.00)', '.', 0)).toEqual({ minor: 2_500, direction: 'DB' });
    expect(parseBankAmount('12.50', '.', 2)).toEqual({ minor: 1_250, direction: 'CR' });
    // A fraction the currency cannot hold is no amount, never rounded.
    expect(parseBankAmount('1000.50', '.', 0)).toBeNull();
    expect(parseBankAmount('abc', '.', 0)).toBeNull();
    expect(parseBankAmount('', '.', 0)).toBeNull();
  });

  it('identifies lines by the bank id, else by a hash that tells identical lines apart by occurrence', () => {
    const m: StatementMapping = { date: 'd', description: 'x', amount: 'a', decimal: '.', delimiter: ',' };
    const rows = [{ d: '1', x: 'SETOR', a: '100' }, { d: '1', x: 'SETOR', a: '100' }, { d: '1', x: 'SALDO AWAL', a: '' }, { d: '1', x: 'TARIK', a: '-5' }];
    const lines = statementLines('ba1', rows, m, 0);
    expect(lines.map((l) => [l.row, l.amount, l.direction])).toEqual([[1, 100, 'CR'], [2, 100, 'CR'], [4, 5, 'DB']]);
    expect(lines[0]!.identity).not.toBe(lines[1]!.identity);
    // The same file read again gives the same identities; another account, others.
    expect(statementLines('ba1', rows, m, 0).map((l) => l.identity)).toEqual(lines.map((l) => l.identity));
    expect(statementLines('ba2', rows, m, 0)[0]!.identity).not.toBe(lines[0]!.identity);
    const withId = statementLines('ba1', [{ d: '1', x: 'SETOR', a: '100', id: 'B-77' }], { ...m, mutationId: 'id' }, 0);
    expect(withId[0]!.identity).toBe('id:B-77');
    expect(() => statementLines('ba1', [{ d: '1', x: 'y', a: 'ten' }], m, 0)).toThrow(/row 1/);
    expect(() => validateMapping({ ...m, amount: null })).toThrow(/amount column/);
    expect(() => validateMapping({ ...m, credit: 'c' })).toThrow(/not both/);
  });

  it('checks the webhook signature over the raw bytes in constant time', () => {
    const body = Buffer.from('[{"mutation_id":"1"}]');
    const sig = createHmac('sha256', 'secret-secret-secret').update(body).digest('hex');
    expect(mutationSignatureMatches('secret-secret-secret', body, sig)).toBe(true);
    expect(mutationSignatureMatches('secret-secret-secret', body, sig.toUpperCase())).toBe(true);
    expect(mutationSignatureMatches('another-secret-here', body, sig)).toBe(false);
    expect(mutationSignatureMatches('secret-secret-secret', Buffer.from('[{"mutation_id":"2"}]'), sig)).toBe(false);
    expect(mutationSignatureMatches('secret-secret-secret', body, undefined)).toBe(false);
    expect(mutationSignatureMatches('secret-secret-secret', body, 'short')).toBe(false);
  });

  it('reads a Moota-shaped push and refuses what it cannot credit', () => {
    const ok = parseMutationPush([{ mutation_id: 'm1', bank_id: 'b1', date: '2026-11-27', description: 'TRF', amount: '100123.00', type: 'CR' }], 0);
    expect(ok).toEqual([{ mutationId: 'm1', bankId: 'b1', accountNumber: null, date: '2026-11-27', description: 'TRF', amount: 100_123, direction: 'CR' }]);
    expect(parseMutationPush({ data: [{ mutation_id: 2, account_number: '123', amount: 5, type: 'db' }] }, 0)[0]).toMatchObject({ mutationId: '2', direction: 'DB' });
    for (const bad of [{}, [{ bank_id: 'b', amount: 1, type: 'CR' }], [{ mutation_id: 'x', bank_id: 'b', amount: 0, type: 'CR' }], [{ mutation_id: 'x', amount: 1, type: 'CR' }], [{ mutation_id: 'x', bank_id: 'b', amount: 1, type: 'XX' }]]) {
      expect(() => parseMutationPush(bad, 0)).toThrow();
    }
  });

  it('computes what is paid and credited, the review rule, and settings bounds', () => {
    expect(ticketAmounts(100_000, 123, { creditUniqueCode: false })).toEqual({ payable: 100_123, credited: 100_000 });
    expect(ticketAmounts(100_000, 123, { creditUniqueCode: true })).toEqual({ payable: 100_123, credited: 100_123 });
    expect(needsReview(5_000_001, { reviewAbove: 5_000_000 })).toBe(true);
    expect(needsReview(5_000_000, { reviewAbove: 5_000_000 })).toBe(false);
    expect(needsReview(9e12, { reviewAbove: null })).toBe(false);
    expect(() => validateSettings({ ...DEFAULT_DEPOSIT_SETTINGS, ticketHours: 0 })).toThrow(/ticket_hours/);
    expect(() => validateSettings({ ...DEFAULT_DEPOSIT_SETTINGS, dailyCap: 1 })).toThrow(/daily_cap/);
    expect(() => validateSettings({ ...DEFAULT_DEPOSIT_SETTINGS, webhookSignatureHeader: 'X Sig' })).toThrow(/header/);
  });
});
