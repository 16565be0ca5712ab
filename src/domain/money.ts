/**
 * Money is an integer count of minor units of one configured currency (IDR has none, so
 * 15000 means Rp15.000). It is a JS number restricted to safe integers: exact, and
 * rendered as a JSON number as the spec wants. Never a float in arithmetic or storage.
 */
export type Money = number;

/**
 * The largest amount or balance the service holds, in minor units: 15 digits, so that every
 * value is exact both as minor units and as major units in a JSON number (a double holds
 * every decimal of 15 significant digits), far below Number.MAX_SAFE_INTEGER. Credits that
 * would pass it are refused; refunds only return what a debit took, and are held to the
 * safe-integer bound (REFUND_HEADROOM_MINOR) so that no sequence can make a balance inexact.
 */
export const MAX_EXACT_MINOR = 999_999_999_999_999;

/** A refund may take a balance past MAX_EXACT_MINOR (it returns money debited earlier), never past this. */
export const REFUND_CEILING_MINOR = Number.MAX_SAFE_INTEGER;

export function assertMoney(n: number, what = 'amount'): Money {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} must be a safe integer of minor units (got ${n})`);
  return n;
}

const DECIMAL = /^\s*(\d+)(?:\.(\d+))?\s*$/;

/**
 * Converts a reseller-supplied price (JSON number or numeric string, in major units of the
 * currency as the catalog shows them) to exact minor units. Returns null when the text is
 * not a plain non-negative decimal, or has more fraction digits than the currency allows
 * once trailing zeros are dropped (such a price can never equal a catalog price).
 */
export function parseDecimalPrice(input: number | string, decimals: number): { ok: true; minor: Money } | { ok: false; reason: 'format' | 'precision' } {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return { ok: false, reason: 'format' };
    // Shortest round-trip form; exponent forms only occur for huge/tiny values.
    text = String(input);
    if (/e/i.test(text)) return { ok: false, reason: 'precision' };
  } else text = input;
  const m = DECIMAL.exec(text);
  if (!m) return { ok: false, reason: 'format' };
  const whole = m[1]!;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return { ok: false, reason: 'precision' };
  const digits = (whole + frac.padEnd(decimals, '0')).replace(/^0+(?=\d)/, '');
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: 'precision' };
  return { ok: true, minor };
}

/** Renders minor units in major units as a JSON number (exact for safe integers). */
export function toMajor(minor: Money, decimals: number): number {
  return decimals === 0 ? minor : Number((minor / 10 ** decimals).toFixed(decimals));
}
