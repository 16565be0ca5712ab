/** One spelling per address: sign-in and uniqueness compare the trimmed, lower-cased form. */
export const normalizeEmail = (raw: string) => raw.trim().toLowerCase();

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;
export const isEmail = (normalized: string) => EMAIL.test(normalized);
