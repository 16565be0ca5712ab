import { describe, expect, it } from 'vitest';
import { formProblem, normaliseForm, type FormField } from '../../src/domain/category-form.js';

const account: FormField = { name: 'user_id', label: 'User ID', role: 'account_id', type: 'text' };
const select: FormField = { name: 'server', label: 'Server', role: 'server', type: 'select', options: [{ value: 'a', label: 'A' }] };

describe('category form rules', () => {
  it('accepts a game form with one account_id field and a voucher without a form', () => {
    expect(formProblem('game', [account, select])).toBeNull();
    expect(formProblem('voucher', [])).toBeNull();
  });

  it('names the problem of each bad form', () => {
    expect(formProblem('voucher', [account])).toMatch(/voucher category has no form/);
    expect(formProblem('game', [])).toMatch(/exactly one field with role account_id \(found 0\)/);
    expect(formProblem('game', [account, { ...account, name: 'uid2' }])).toMatch(/found 2/);
    expect(formProblem('game', [account, { ...select, name: 'user_id' }])).toMatch(/"user_id".*used twice/);
    expect(formProblem('game', [account, { ...select, options: [] }])).toMatch(/at least one option/);
    expect(formProblem('game', [account, { ...select, options: undefined }])).toMatch(/at least one option/);
    expect(formProblem('game', [account, { ...select, options: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] }])).toMatch(/option values must be unique/);
    expect(formProblem('game', [{ ...account, options: [{ value: 'a', label: 'A' }] }])).toMatch(/only select fields have options/);
    expect(formProblem('game', [{ ...account, name: 'User ID' }])).toMatch(/name must be lowercase/);
  });

  it('stores required explicitly (default true) and drops empty placeholders', () => {
    expect(normaliseForm([{ ...account, placeholder: '' }, { ...select, required: false }])).toEqual([
      { name: 'user_id', label: 'User ID', role: 'account_id', type: 'text', required: true },
      { name: 'server', label: 'Server', role: 'server', type: 'select', required: false, options: [{ value: 'a', label: 'A' }] },
    ]);
  });
});
