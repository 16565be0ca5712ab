import { AppError } from '../errors.js';

/**
 * What a string that enters the service may hold. Control characters are refused (NUL above
 * all: PostgreSQL text cannot hold it, so the same input would be stored on SQLite and be a
 * 500 on PostgreSQL), and so are ill-formed UTF-16 strings (a lone surrogate is stored as
 * U+FFFD by PostgreSQL, so two different inputs would collide). Free text that a person
 * writes (notes, descriptions) may span lines: tab and newline are allowed there only.
 */
/** With the u flag a surrogate pair is one code point; only a lone surrogate is in Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Body fields that hold free text written by a person (or a bank's CSV export): tab and newline allowed. */
export const FREE_TEXT_FIELDS: ReadonlySet<string> = new Set(['note', 'description', 'csv']);

/** Why `value` may not enter the service, or null when it may. */
export function textProblem(value: string, opts: { multiline?: boolean } = {}): string | null {
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)';
  if ((opts.multiline ? CONTROL_EXCEPT_TAB_NEWLINE : CONTROL).test(value)) {
    return opts.multiline
      ? 'must not contain control characters other than tab and newline (NUL, carriage return, escape, …)'
      : 'must not contain control characters (such as NUL, tab or newline)';
  }
  return null;
}

/** VALIDATION_ERROR naming the field when `value` may not enter the service. */
export function assertText(field: string, value: string, opts: { multiline?: boolean } = {}): void {
  const problem = textProblem(value, opts);
  if (problem) throw new AppError('VALIDATION_ERROR', `${field} ${problem}`);
}

/**
 * Checks every string of a parsed JSON value, object keys included, naming the first bad
 * one by its path (`form[2].label`). Strings under a FREE_TEXT_FIELDS key may span lines.
 */
export function assertTextDeep(value: unknown, path = '', multiline = false): void {
  if (typeof value === 'string') {
    assertText(path || 'the value', value, { multiline });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertTextDeep(v, `${path}[${i}]`, multiline));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const where = path ? `${path}.${k}` : k;
      assertText(`field name ${JSON.stringify(k.replace(/[\u0000-\u001f\u007f]/g, '?'))}`, k);
      assertTextDeep(v, where, FREE_TEXT_FIELDS.has(k));
    }
  }
}
