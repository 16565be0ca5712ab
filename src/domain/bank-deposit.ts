import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';

/**
 * Rules of bank-transfer deposits (issue 36). The operator's settings, with the defaults a
 * new store starts from; amounts in minor units.
 */
export interface DepositSettings {
  minAmount: number;
  maxAmount: number;
  /** How long a ticket stays open. */
  ticketHours: number;
  /** true: the wallet gets the amount plus the unique code; false (default): the asked amount. */
  creditUniqueCode: boolean;
  /** Per reseller and UTC day: the sum of tickets asked (open, review or paid); null: no cap. */
  dailyCap: number | null;
  /** A matched transfer above this amount waits in `review` for an operator; null: never. */
  reviewAbove: number | null;
  /** The header a mutation service signs its webhook in (Moota: Signature). */
  webhookSignatureHeader: string;
}

export const DEFAULT_DEPOSIT_SETTINGS: DepositSettings = {
  minAmount: 10_000, maxAmount: 100_000_000, ticketHours: 24, creditUniqueCode: false, dailyCap: null, reviewAbove: null, webhookSignatureHeader: 'Signature',
};

/** Unique codes run 1..999: the last three digits of the amount to transfer. */
export const MAX_UNIQUE_CODE = 999;
/** Tries at a random free code before giving up (999 open tickets of one account and amount range). */
export const UNIQUE_CODE_TRIES = 20;
export const randomUniqueCode = () => randomInt(1, MAX_UNIQUE_CODE + 1);

/** What the reseller transfers and what its wallet gets. */
export function ticketAmounts(amount: number, code: number, s: Pick<DepositSettings, 'creditUniqueCode'>) {
  const payable = amount + code;
  return { payable, credited: s.creditUniqueCode ? payable : amount };
}

export function validateSettings(s: DepositSettings): DepositSettings {
  const bad = (m: string) => new AppError('VALIDATION_ERROR', m);
  if (s.minAmount < 1) throw bad('min_amount must be greater than 0');
  if (s.maxAmount < s.minAmount) throw bad('max_amount must be at least min_amount');
  if (!Number.isInteger(s.ticketHours) || s.ticketHours < 1 || s.ticketHours > 24 * 7) throw bad('ticket_hours must be a whole number from 1 to 168');
  if (s.dailyCap !== null && s.dailyCap < s.minAmount) throw bad('daily_cap must be at least min_amount (or null for no cap)');
  if (s.reviewAbove !== null && s.reviewAbove < 1) throw bad('review_above must be greater than 0 (or null: no review)');
  if (!/^[A-Za-z0-9-]{1,64}$/.test(s.webhookSignatureHeader)) throw bad('webhook_signature_header must be a header name (letters, digits, dashes)');
  return s;
}

export const utcDayStart = (now: number) => now - (now % 86_400_000);

/** Does a matched transfer of this amount wait for an operator? */
export const needsReview = (payable: number, s: Pick<DepositSettings, 'reviewAbove'>) => s.reviewAbove !== null && payable > s.reviewAbove;

/** HMAC-SHA256 hex of the raw body (Moota's webhook signature), compared in constant time. */
export function mutationSignatureMatches(secret: string, body: Buffer, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'), 'utf8');
  const given = Buffer.from(presented.trim().toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(expected, given);
}
