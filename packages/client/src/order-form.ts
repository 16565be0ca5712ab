import { TopupError } from './errors.js';
import type { Category, OrderRequest } from './types.js';

/** A category's form field, as GET /categories returns it. */
export type FormField = Category['form'][number];

/** What your end user entered, keyed by form field `name` (select fields: the option's value). */
export type FormValues = Record<string, string | number | null | undefined>;

/** The `target` and `zone` of POST /order; spread it into `placeOrder`'s body. */
export type OrderTarget = Pick<OrderRequest, 'target' | 'zone'>;

/** A form value that cannot make an order: `field` is the form field's `name`. */
export class TopupFormError extends TopupError {
  override name = 'TopupFormError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const text = (v: FormValues[string]) => (v === null || v === undefined ? '' : String(v).trim());

/**
 * Builds POST /order's `target` and `zone` from a game's form (spec, POST /order rule 2):
 * the account_id field's value is the target; the server fields' values, in the form's
 * order, are joined with `|` into the zone (omitted when the game has no server field). A
 * select field takes only one of its option values, never a label. Fields of role `other`
 * are not part of an order. Throws TopupFormError, naming the field, for a missing required
 * value or a value the select does not offer, so the mistake is caught before any request.
 */
export function orderTarget(category: Pick<Category, 'name' | 'form'>, values: FormValues): OrderTarget {
  let target: string | null = null;
  const zone: string[] = [];
  for (const f of category.form) {
    if (f.role === 'other') continue;
    const value = text(values[f.name]);
    if (value === '') {
      if (f.required || f.role === 'account_id') throw new TopupFormError(f.name, `${f.name} (${f.label}) is required for ${category.name}`);
      continue;
    }
    if (f.options && !f.options.some((o) => o.value === value)) {
      const allowed = f.options.map((o) => `"${o.value}" (${o.label})`).join(', ');
      throw new TopupFormError(f.name, `${f.name} (${f.label}) of ${category.name} must be one of the option values ${allowed}; got "${value}"`);
    }
    if (f.role === 'account_id') target = value;
    else zone.push(value);
  }
  if (target === null) throw new TopupFormError('', `${category.name} has no account_id field: a voucher's target is a reference of your own`);
  return zone.length ? { target, zone: zone.join('|') } : { target };
}
