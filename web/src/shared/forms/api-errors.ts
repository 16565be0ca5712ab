import { ApiError } from '../api/client.js';

export interface FormErrors {
  /** The API's message, by the field it names. */
  fields: Record<string, string>;
  /** What names no field of the form (or is no input error at all). */
  general: string | null;
}

/**
 * Places the API's message by the field it is about. The UI checks nothing itself: the
 * API's validation is the one rule, and its message names the field ("ip …",
 * "callback_url …", "unknown field 'x'"). A one-field form takes any input error.
 */
export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!error) return { fields: {}, general: null };
  if (!(error instanceof ApiError)) return { fields: {}, general: (error as Error).message ?? String(error) };
  const inputError = error.status === 400 || error.status === 409 || error.status === 422;
  if (inputError) {
    const named = fields.find((f) => new RegExp(`(^|[^a-z_])${f}([^a-z_]|$)`, 'i').test(error.message));
    if (named) return { fields: { [named]: error.message }, general: null };
    if (fields.length === 1) return { fields: { [fields[0]!]: error.message }, general: null };
  }
  return { fields: {}, general: error.message };
}
