import { randomInt } from 'node:crypto';

/**
 * A deposit's life. A bank ticket is `open` until a transfer matches it (`paid`), it
 * expires or its reseller cancels it; a gateway payment is `open` from its creation until
 * the gateway says paid (`paid`) or not (`failed`, `expired`, `cancelled`). `review`: paid,
 * but above the manual-review amount, so an operator confirms before the credit.
 * `reversed`: the gateway refunded a credited payment and the operator debited it back.
 */
export const DEPOSIT_STATES = ['open', 'review', 'paid', 'expired', 'cancelled', 'failed', 'reversed'] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];
export type DepositChannel = 'bank' | 'gateway';
export type DepositMatch = 'operator' | 'statement' | 'webhook' | 'gateway';

/** States from which a deposit may still be credited. */
export const CREDITABLE_STATES: readonly DepositState[] = ['open', 'review', 'expired'];

// Crockford's base32 without I, L, O, U: read aloud and typed into a bank's note field.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** DEP- and ten characters (50 bits): the id people copy, quote and write as the note. */
export function newDepositId(): string {
  let s = 'DEP-';
  for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

export function depositNote(id: string, channel: DepositChannel): string {
  return channel === 'bank' ? `Deposit ${id} by bank transfer` : `Deposit ${id} by payment gateway`;
}
