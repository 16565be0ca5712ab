import type { AccountChecker } from '../adapters/checkers/types.js';
import { AppError } from '../errors.js';
import type { CatalogCache } from './catalog-cache.js';
import type { ResellerPrincipal } from './authenticate.js';
import { checkWithTimeout } from './check-account.js';
import { optionValueProblem } from '../domain/order-zone.js';

const FIELDS = ['category_slug', 'fields', 'product_code'];

export interface ValidationResult {
  category_slug: string;
  valid: boolean;
  verdict: 'valid' | 'INVALID_ID' | 'REGION_LOCK' | 'PURCHASE_LIMIT';
  nickname: string | null;
  target: string;
  zone: string | null;
}

/**
 * POST /validation: checks a game account with the same checker as the pre-order check.
 * The request carries the game's form values by field name; the answer also says which
 * target and zone to send in POST /order.
 */
export class ValidateAccount {
  constructor(private readonly deps: { catalog: CatalogCache; checker: AccountChecker; timeoutMs: number }) {}

  async execute(who: ResellerPrincipal, body: unknown): Promise<ValidationResult> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('VALIDATION_ERROR', 'the request body must be a JSON object: {"category_slug": "...", "fields": {"<field name>": "<value>"}}');
    }
    const b = body as Record<string, unknown>;
    const unknown = Object.keys(b).filter((k) => !FIELDS.includes(k));
    if (unknown.length) throw new AppError('VALIDATION_ERROR', `unknown field '${unknown[0]}'; allowed fields are ${FIELDS.join(', ')}`);
    if (typeof b.category_slug !== 'string' || b.category_slug === '') throw new AppError('VALIDATION_ERROR', 'category_slug is required (string), from GET /categories');
    const fields = b.fields ?? {};
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new AppError('VALIDATION_ERROR', 'fields must be an object of form field name to value');
    if (b.product_code !== undefined && typeof b.product_code !== 'string') throw new AppError('VALIDATION_ERROR', 'product_code must be a string');

    const category = (await this.deps.catalog.listCategories(who)).find((c) => c.slug === b.category_slug);
    if (!category || !category.checkerEnabled) {
      throw new AppError('GAME_NOT_SUPPORTED', `account validation is not available for category_slug "${String(b.category_slug)}"; GET /categories shows validation_supported per game`);
    }
    const values = fields as Record<string, unknown>;
    for (const f of category.form) {
      const v = values[f.name];
      if ((f.required ?? true) && (typeof v !== 'string' || v.trim() === '')) {
        throw new AppError('VALIDATION_FIELDS_MISSING', `fields.${f.name} (${f.label}) is required for ${category.name}`);
      }
      const problem = typeof v === 'string' && v !== '' ? optionValueProblem(f, v) : null;
      if (problem) throw new AppError('VALIDATION_ERROR', problem);
    }
    const valueOf = (role: string) => category.form.filter((f) => f.role === role).map((f) => String(values[f.name] ?? '')).filter(Boolean);
    const target = valueOf('account_id').join('');
    const zoneParts = valueOf('server');
    const zone = zoneParts.length ? zoneParts.join('|') : null;

    const verdict = await checkWithTimeout(this.deps.checker, { categorySlug: category.slug, target, zone, productCode: (b.product_code as string | undefined) ?? null }, this.deps.timeoutMs);
    if (verdict.verdict === 'unavailable') throw new AppError('CHECKER_UNAVAILABLE', 'the account checker could not be reached; retry shortly');
    return { category_slug: category.slug, valid: verdict.verdict === 'valid', verdict: verdict.verdict, nickname: verdict.nickname, target, zone };
  }
}
