import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { formErrors } from './api-errors.js';

/**
 * A form that sends its fields to the API: the mutation plus its error placed by the
 * field the API's message names (shared by every form of both apps).
 */
export function useApiForm<TVars, TData>(fields: readonly string[], options: UseMutationOptions<TData, Error, TVars>) {
  const mutation = useMutation(options);
  const errors = formErrors(mutation.error, fields);
  return { ...mutation, errors };
}

/** The named text fields of a submitted form. */
export function formValues(e: React.FormEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault();
  return Object.fromEntries([...new FormData(e.currentTarget).entries()].map(([k, v]) => [k, String(v)]));
}
