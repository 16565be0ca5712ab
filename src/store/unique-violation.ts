/**
 * Unique-constraint violation on either store (the ref_id race, a second refund, …). A
 * module of its own: the order writer thread needs it without the rest of the store.
 */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
