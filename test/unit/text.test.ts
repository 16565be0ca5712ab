import { describe, expect, it } from 'vitest';
import { assertTextDeep, textProblem } from '../../src/domain/text.js';
import { describeSchemaError } from '../../src/http/validation.js';

describe('text that may enter the service (domain/text.ts)', () => {
  it('refuses C0 controls, DEL and lone surrogates; keeps any well-formed text', () => {
    for (const bad of ['a\u0000', '\u001f', 'x\u007f', '\t', '\n', 'p-\ud801', '\udc00', 'a\ud800b']) expect(textProblem(bad), JSON.stringify(bad)).not.toBeNull();
    for (const good of ['', 'plain', '😀'.repeat(10), 'Ærø', '\u0080 C1 is not C0', '中文']) expect(textProblem(good), good).toBeNull();
  });

  it('lets tab and newline into free text only, never NUL or carriage return', () => {
    expect(textProblem('line 1\n\tline 2', { multiline: true })).toBeNull();
    expect(textProblem('a\r\nb', { multiline: true })).toMatch(/control characters other than tab and newline/);
    expect(textProblem('a\u0000', { multiline: true })).not.toBeNull();
  });

  it('walks a JSON value and names the first bad string by its path; notes and descriptions may span lines', () => {
    expect(() => assertTextDeep({ note: 'two\nlines', form: [{ label: 'ok' }] })).not.toThrow();
    expect(() => assertTextDeep({ form: [{ label: 'ok' }, { label: 'b\u0000' }] })).toThrow('form[1].label must not contain control characters');
    expect(() => assertTextDeep({ name: 'two\nlines' })).toThrow('name must not contain control characters');
    expect(() => assertTextDeep({ ['k\u0000']: 1 })).toThrow('field name "k?" must not contain control characters');
    expect(() => assertTextDeep({ fields: { user_id: '1\ud800' } })).toThrow('fields.user_id must be well-formed Unicode');
  });
});

describe('validation messages (http/validation.ts)', () => {
  const e = (instancePath: string, keyword: string, params: Record<string, unknown>, message?: string) => ({ instancePath, keyword, params, message });
  it('name the field as the client does, never body. or querystring.', () => {
    expect(describeSchemaError(e('/tier', 'enum', { allowedValues: ['gold', 'platinum'] }), 'body')).toBe('tier must be one of gold, platinum');
    expect(describeSchemaError(e('/status', 'enum', { allowedValues: ['a'] }), 'querystring')).toBe('status must be one of a');
    expect(describeSchemaError(e('/prices/0', 'additionalProperties', { additionalProperty: 'currency' }), 'body')).toBe("unknown field 'prices[0].currency'");
    expect(describeSchemaError(e('', 'required', { missingProperty: 'note' }), 'body')).toBe('note is required');
    expect(describeSchemaError(e('', 'type', { type: 'object' }, 'must be object'), 'body')).toBe('the request body must be object');
  });

  it('a missing header says missing', () => {
    expect(describeSchemaError(e('', 'required', { missingProperty: 'idempotency-key' }), 'headers')).toBe('header idempotency-key is missing');
  });
});
