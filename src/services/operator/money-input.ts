import { parseDecimalPrice, toMajor, type Money } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import type { CurrencySettings } from '../ports.js';

/**
 * An amount an operator typed in major units (a JSON number) as exact minor units, or
 * VALIDATION_ERROR saying what to fix. Never rounds: 1.005 in a 2-decimal currency is
 * refused rather than silently becoming 1.00 or 1.01. Never more than one operation may
 * move (MAX_OPERATION_AMOUNT), which keeps every amount exact. `positive`: 0 is refused
 * too, with the same message as a negative amount, which states the whole rule.
 */
export function minorUnits(value: number | string, currency: CurrencySettings, what: string, opts: { positive?: boolean } = {}): Money {
  const p = parseDecimalPrice(value, currency.decimals);
  if ((!p.ok && p.reason === 'format') || (opts.positive && p.ok && p.minor === 0)) {
    const rule = opts.positive ? 'greater than 0' : '0 or more';
    throw new AppError('VALIDATION_ERROR', `${what} must be a number ${rule}, in major units (got ${JSON.stringify(value)})`);
  }
  const limit = toMajor(currency.maxAmount, currency.decimals);
  if (p.ok ? p.minor > currency.maxAmount : Number(value) > limit) {
    throw new AppError('VALIDATION_ERROR', `${what} must be at most ${limit} ${currency.code} (MAX_OPERATION_AMOUNT); split larger amounts`);
  }
  if (!p.ok) throw new AppError('VALIDATION_ERROR', `${what} ${value} has more decimals than ${currency.code} has (${currency.decimals})`);
  return p.minor;
}
