import { parseDecimalPrice, type Money } from '../../domain/money.js';
import { AppError } from '../../errors.js';

/**
 * An amount an operator typed in major units (JSON number or decimal text) as exact minor
 * units, or VALIDATION_ERROR saying what to fix. Never rounds: 1.005 in a 2-decimal
 * currency is refused rather than silently becoming 1.00 or 1.01.
 */
export function minorUnits(value: number | string, decimals: number, what: string): Money {
  const p = parseDecimalPrice(value, decimals);
  if (p.ok) return p.minor;
  throw new AppError('VALIDATION_ERROR', p.reason === 'precision'
    ? `${what} ${value} has more than ${decimals} decimal(s) (the currency's minor units) or is too large`
    : `${what} must be a number, 0 or more, in major units (got ${JSON.stringify(value)})`);
}
