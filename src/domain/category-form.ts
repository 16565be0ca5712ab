/**
 * The order form of a category, as resellers see it in GET /categories. The form drives
 * POST /order (target and zone) and POST /validation, so a malformed one would break
 * ordering for the whole game: these rules are checked before any form is stored.
 */
export type CategoryType = 'game' | 'voucher';

export interface FormField {
  name: string;
  label: string;
  role: 'account_id' | 'server' | 'other';
  type: 'text' | 'number' | 'select';
  required?: boolean;
  placeholder?: string;
  options?: { value: string; label: string }[];
}

/** Slugs and field names end up in URLs, query strings and JSON keys: keep them plain. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** The first problem of a form for a category of this type, or null when it is sound. */
export function formProblem(type: CategoryType, form: readonly FormField[]): string | null {
  if (type === 'voucher') return form.length === 0 ? null : 'a voucher category has no form (send form: [])';
  const seen = new Set<string>();
  for (const [i, f] of form.entries()) {
    const at = `form[${i}] "${f.name}"`;
    if (!FIELD_NAME.test(f.name)) return `${at}: name must be lowercase letters, digits or _ (starting with a letter, at most 40)`;
    if (seen.has(f.name)) return `${at}: field name is used twice; names must be unique`;
    seen.add(f.name);
    if (f.type === 'select') {
      if (!f.options || f.options.length === 0) return `${at}: a select field needs at least one option`;
      const values = new Set(f.options.map((o) => o.value));
      if (values.size !== f.options.length) return `${at}: option values must be unique`;
    } else if (f.options !== undefined) return `${at}: only select fields have options`;
  }
  const accountIds = form.filter((f) => f.role === 'account_id').length;
  if (accountIds !== 1) return `a game form needs exactly one field with role account_id (found ${accountIds})`;
  return null;
}

/** Normalises a sound form for storage: required defaults to true, as GET /categories shows it. */
export function normaliseForm(form: readonly FormField[]): FormField[] {
  return form.map((f) => ({
    name: f.name, label: f.label, role: f.role, type: f.type, required: f.required ?? true,
    ...(f.placeholder ? { placeholder: f.placeholder } : {}),
    ...(f.options ? { options: f.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
  }));
}
