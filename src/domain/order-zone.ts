import type { FormField } from './category-form.js';

/** Server-role values are joined with this, in the form's order (spec, POST /order rule 2). */
const SEPARATOR = '|';
/** Past this many options a field's list in a message is cut short (GET /categories has them all). */
const LISTED_OPTIONS = 20;

/**
 * Whether `zone` is made of the server fields' values, in the form's order: a select
 * field's part is one of its option values (never a label), a free field's part any
 * non-empty text, and an optional field may be left out (POST /validation drops empty
 * values). A game whose server fields declare no options takes any zone. Option values
 * are matched as prefixes rather than split at the separator, so a value that holds one
 * still fits.
 */
export function zoneFitsForm(serverFields: readonly FormField[], zone: string): boolean {
  if (!serverFields.some((f) => f.options)) return true;
  return fits(serverFields, 0, zone);
}

function fits(fields: readonly FormField[], i: number, rest: string): boolean {
  const f = fields[i];
  if (!f) return rest === '';
  if (f.required === false && fits(fields, i + 1, rest)) return true;
  for (const part of candidates(f, rest)) {
    if (rest === part ? fits(fields, i + 1, '') : rest.length > part.length + 1 && fits(fields, i + 1, rest.slice(part.length + 1))) return true;
  }
  return false;
}

/** The parts `rest` could start with for this field: each followed by the separator or the end. */
function* candidates(f: FormField, rest: string): Generator<string> {
  if (f.options) {
    for (const { value } of f.options) {
      if (rest === value || rest.startsWith(value + SEPARATOR)) yield value;
    }
    return;
  }
  for (let at = rest.indexOf(SEPARATOR); at > 0; at = rest.indexOf(SEPARATOR, at + 1)) yield rest.slice(0, at);
  if (rest !== '') yield rest;
}

/** What to send as zone, for a message: the shape and each select field's allowed values. */
export function zoneHelp(serverFields: readonly FormField[]): string {
  const shape = serverFields.map((f) => `<${f.name}>`).join(SEPARATOR);
  const allowed = serverFields.map((f) => {
    const optional = f.required === false ? ' (optional: may be left out)' : '';
    if (!f.options) return `${f.name} any text${optional}`;
    return `${f.name} one of ${listedValues(f.options)}${optional}`;
  });
  return serverFields.some((f) => f.options)
    ? `send ${shape}, the option values (not their labels) in the form's order: ${allowed.join('; ')}`
    : `send ${shape} (in the form's order)`;
}

/** Why a select field's value is refused, or null when it is one of its option values. */
export function optionValueProblem(f: FormField, value: string): string | null {
  if (!f.options || f.options.some((o) => o.value === value)) return null;
  return `fields.${f.name} must be one of ${listedValues(f.options)} (the option values, not their labels)`;
}

function listedValues(options: NonNullable<FormField['options']>): string {
  const listed = options.slice(0, LISTED_OPTIONS).map((o) => `"${o.value}"`).join(', ');
  return options.length > LISTED_OPTIONS ? `${listed} and ${options.length - LISTED_OPTIONS} more (GET /categories)` : listed;
}
