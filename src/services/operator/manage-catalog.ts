import { formProblem, normaliseForm, SLUG, type CategoryType, type FormField } from '../../domain/category-form.js';
import { toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AuditRepo, type AuditEntry } from '../../store/audit-repo.js';
import { CatalogAdminRepo, type CategoryRow, type ProductRow } from '../../store/catalog-admin-repo.js';
import { TIERS, type Tier } from '../../store/resellers-repo.js';
import type { ServiceCore } from '../core.js';
import { minorUnits } from './money-input.js';

/** Who made a change, for the audit log: an operator id, or "cli" for the `topup` CLI. */
export type Actor = string;
export const CLI_ACTOR: Actor = 'cli';

const PRODUCT_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const NAME_MAX = 100;

export interface CategoryInput {
  slug: string;
  name: string;
  type: CategoryType;
  form?: FormField[];
  checkerEnabled?: boolean;
  sortOrder?: number;
}
export type CategoryPatch = Partial<Pick<CategoryInput, 'name' | 'form' | 'checkerEnabled' | 'sortOrder'>>;

export interface ProductInput {
  code: string;
  name: string;
  categorySlug: string;
  kind?: 'instant' | 'voucher';
  limitGated?: boolean;
  enabled?: boolean;
  sortOrder?: number;
}
export type ProductPatch = Partial<Pick<ProductInput, 'name' | 'kind' | 'limitGated' | 'enabled' | 'sortOrder'>>;

/** One line of a bulk price change; price null removes the product's price for that tier. */
export interface PriceChange {
  productCode: string;
  tier: Tier;
  /** Major units, as the operator typed it (JSON number or decimal text). */
  price: number | string | null;
}

/**
 * The operator's catalog: categories (with their order forms), products and the catalogs
 * that price products per tier for the resellers assigned to them. Every change commits
 * with its audit line. Reads of API v1 go straight to the store, so a change is visible
 * to resellers (and enforced by POST /order) from the next request.
 */
export class ManageCatalog {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'currency'>) {}

  private readonly repo = () => new CatalogAdminRepo(this.core.db);
  private readonly money = (minor: number) => toMajor(minor, this.core.currency.decimals);

  /** Runs a change and its audit line in one transaction. */
  private change<T>(fn: (repo: CatalogAdminRepo, audit: (e: Omit<AuditEntry, 'operatorId'>) => Promise<void>) => Promise<T>, actor: Actor): Promise<T> {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute((trx) => fn(new CatalogAdminRepo(trx), (e) => AuditRepo.record(trx, { ...e, operatorId: actor }, now)));
  }

  // ── Categories ────────────────────────────────────────────────────────────────

  listCategories(): Promise<CategoryRow[]> {
    return this.repo().listCategories();
  }

  async createCategory(input: CategoryInput, actor: Actor): Promise<CategoryRow> {
    if (!SLUG.test(input.slug)) throw new AppError('VALIDATION_ERROR', `slug "${input.slug}": lowercase letters, digits and dashes (a-z, 0-9, -), at most 64, not starting or ending with a dash`);
    const name = checkName(input.name, 'category name');
    const form = checkForm(input.type, input.form ?? []);
    if (input.type === 'voucher' && input.checkerEnabled) throw new AppError('VALIDATION_ERROR', 'a voucher category has no account to check; checker must be false');
    return this.change(async (repo, audit) => {
      if (await repo.category(input.slug)) throw new AppError('CONFLICT', `a category with slug "${input.slug}" already exists`);
      const row = { slug: input.slug, name, type: input.type, form, checkerEnabled: input.checkerEnabled ?? false, sortOrder: input.sortOrder ?? 0 };
      await repo.insertCategory(row, this.core.clock.now());
      await audit({ action: 'category.create', targetKind: 'category', targetId: row.slug, before: null, after: row });
      return { ...row, productCount: 0 };
    }, actor);
  }

  /** The slug never changes (resellers key on it); everything else may. */
  async updateCategory(slug: string, patch: CategoryPatch, actor: Actor): Promise<CategoryRow> {
    return this.change(async (repo, audit) => {
      const before = await repo.category(slug);
      if (!before) throw new AppError('NOT_FOUND', `no category with slug "${slug}"`);
      const next = {
        name: patch.name === undefined ? before.name : checkName(patch.name, 'category name'),
        form: patch.form === undefined ? before.form : checkForm(before.type, patch.form),
        checkerEnabled: patch.checkerEnabled ?? before.checkerEnabled,
        sortOrder: patch.sortOrder ?? before.sortOrder,
      };
      if (before.type === 'voucher' && next.checkerEnabled) throw new AppError('VALIDATION_ERROR', 'a voucher category has no account to check; checker must be false');
      await repo.updateCategory(slug, next);
      const after = { ...before, ...next };
      await audit({ action: 'category.update', targetKind: 'category', targetId: slug, before: snapshot(before), after: snapshot(after) });
      return after;
    }, actor);
  }

  // ── Products ──────────────────────────────────────────────────────────────────

  listProducts(categorySlug?: string): Promise<ProductRow[]> {
    return this.repo().listProducts(categorySlug);
  }

  async createProduct(input: ProductInput, actor: Actor): Promise<ProductRow> {
    if (!PRODUCT_CODE.test(input.code)) throw new AppError('VALIDATION_ERROR', `code "${input.code}": 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit`);
    const name = checkName(input.name, 'product name');
    return this.change(async (repo, audit) => {
      const category = await repo.category(input.categorySlug);
      if (!category) throw new AppError('NOT_FOUND', `no category with slug "${input.categorySlug}"; create it first`);
      if (await repo.product(input.code)) throw new AppError('CONFLICT', `a product with code "${input.code}" already exists`);
      const row = {
        code: input.code, name, categorySlug: category.slug, kind: input.kind ?? (category.type === 'voucher' ? 'voucher' : 'instant'),
        limitGated: input.limitGated ?? false, enabled: input.enabled ?? true, sortOrder: input.sortOrder ?? 0,
      } as const;
      await repo.insertProduct(row, this.core.clock.now());
      await audit({ action: 'product.create', targetKind: 'product', targetId: row.code, before: null, after: row });
      return { ...row, categoryName: category.name, routeCount: 0 };
    }, actor);
  }

  /** Disabling takes effect at once: the product leaves GET /products and POST /order answers PRODUCT_NOT_FOUND. */
  async updateProduct(code: string, patch: ProductPatch, actor: Actor): Promise<ProductRow> {
    return this.change(async (repo, audit) => {
      const before = await repo.product(code);
      if (!before) throw new AppError('PRODUCT_NOT_FOUND', `no product with code "${code}"`);
      const next = {
        name: patch.name === undefined ? before.name : checkName(patch.name, 'product name'),
        kind: patch.kind ?? before.kind,
        limitGated: patch.limitGated ?? before.limitGated,
        enabled: patch.enabled ?? before.enabled,
        sortOrder: patch.sortOrder ?? before.sortOrder,
      };
      await repo.updateProduct(code, next);
      const after = { ...before, ...next };
      await audit({ action: 'product.update', targetKind: 'product', targetId: code, before, after });
      return after;
    }, actor);
  }

  // ── Catalogs and prices ───────────────────────────────────────────────────────

  listCatalogs() {
    return this.repo().listCatalogs();
  }

  async createCatalog(nameInput: string, actor: Actor) {
    const name = checkName(nameInput, 'catalog name');
    return this.change(async (repo, audit) => {
      if (await repo.catalogByName(name)) throw new AppError('CONFLICT', `a catalog named "${name}" already exists`);
      const id = this.core.ids.uuid();
      await repo.insertCatalog(id, name, this.core.clock.now());
      await audit({ action: 'catalog.create', targetKind: 'catalog', targetId: id, before: null, after: { id, name } });
      return (await repo.catalog(id))!;
    }, actor);
  }

  /** A catalog by id, or by its (unique) name for the CLI. */
  async findCatalog(idOrName: string) {
    const repo = this.repo();
    const catalog = (await repo.catalog(idOrName)) ?? (await repo.catalogByName(idOrName));
    if (!catalog) throw new AppError('NOT_FOUND', `no catalog with id or name "${idOrName}"`);
    return catalog;
  }

  /** The catalog with its prices in major units. */
  async viewCatalog(id: string) {
    const catalog = await this.findCatalog(id);
    const prices = await this.repo().prices(catalog.id);
    return { ...catalog, prices: prices.map((p) => ({ ...p, price: this.money(p.price) })) };
  }

  /**
   * Sets and removes prices in one transaction: every line is checked first, so one bad
   * line changes nothing. Prices are exact: more decimals than the currency has is refused.
   */
  async setPrices(catalogId: string, changes: PriceChange[], actor: Actor) {
    if (changes.length === 0) throw new AppError('VALIDATION_ERROR', 'prices is empty; send at least one {product_code, tier, price}');
    const seen = new Set<string>();
    const parsed = changes.map((c, i) => {
      const at = `prices[${i}] (${c.productCode}, ${c.tier})`;
      if (!TIERS.includes(c.tier)) throw new AppError('VALIDATION_ERROR', `${at}: tier must be one of ${TIERS.join(', ')}`);
      const key = `${c.productCode}\u0000${c.tier}`;
      if (seen.has(key)) throw new AppError('VALIDATION_ERROR', `${at}: the same product and tier appear twice`);
      seen.add(key);
      if (c.price === null) return { productCode: c.productCode, tier: c.tier, price: null };
      const minor = minorUnits(c.price, this.core.currency, `${at}: price`);
      if (minor === 0) throw new AppError('VALIDATION_ERROR', `${at}: price must be more than 0; send price null to remove the product from this tier`);
      return { productCode: c.productCode, tier: c.tier, price: minor };
    });
    return this.change(async (repo, audit) => {
      const catalog = await repo.catalog(catalogId);
      if (!catalog) throw new AppError('NOT_FOUND', `no catalog with id "${catalogId}"`);
      const known = await repo.existingProductCodes([...new Set(parsed.map((c) => c.productCode))]);
      const unknown = parsed.find((c) => !known.has(c.productCode));
      if (unknown) throw new AppError('PRODUCT_NOT_FOUND', `no product with code "${unknown.productCode}"; nothing was changed`);
      const before: Record<string, number | null> = {};
      const after: Record<string, number | null> = {};
      for (const c of parsed) {
        const key = `${c.productCode}/${c.tier}`;
        const old = await repo.price(catalog.id, c.productCode, c.tier);
        before[key] = old === null ? null : this.money(old);
        after[key] = c.price === null ? null : this.money(c.price);
        if (c.price === null) await repo.deletePrice(catalog.id, c.productCode, c.tier);
        else await repo.upsertPrice(catalog.id, { productCode: c.productCode, tier: c.tier, price: c.price });
      }
      await audit({ action: 'catalog.prices.set', targetKind: 'catalog', targetId: catalog.id, before, after });
      const prices = await repo.prices(catalog.id);
      return { ...catalog, prices: prices.map((p) => ({ ...p, price: this.money(p.price) })) };
    }, actor);
  }

  async assign(catalogId: string, resellerIdOrEmail: string, actor: Actor) {
    return this.setAssignment(catalogId, resellerIdOrEmail, true, actor);
  }

  async unassign(catalogId: string, resellerIdOrEmail: string, actor: Actor) {
    return this.setAssignment(catalogId, resellerIdOrEmail, false, actor);
  }

  /** Idempotent: assigning twice or unassigning an unassigned catalog changes nothing and writes no audit line. */
  private setAssignment(catalogIdOrName: string, resellerIdOrEmail: string, assigned: boolean, actor: Actor) {
    return this.change(async (repo, audit) => {
      const reseller = await repo.resellerByIdOrEmail(resellerIdOrEmail);
      if (!reseller) throw new AppError('NOT_FOUND', `no reseller with id or email "${resellerIdOrEmail}"`);
      const catalog = (await repo.catalog(catalogIdOrName)) ?? (await repo.catalogByName(catalogIdOrName));
      if (!catalog) throw new AppError('NOT_FOUND', `no catalog with id or name "${catalogIdOrName}"`);
      const before = await repo.resellerCatalogIds(reseller.id);
      if (before.includes(catalog.id) !== assigned) {
        if (assigned) await repo.assign(reseller.id, catalog.id);
        else await repo.unassign(reseller.id, catalog.id);
        const after = await repo.resellerCatalogIds(reseller.id);
        await audit({ action: assigned ? 'reseller.catalog.assign' : 'reseller.catalog.unassign', targetKind: 'reseller', targetId: reseller.id, before: { catalog_ids: before }, after: { catalog_ids: after } });
        return { resellerId: reseller.id, catalogIds: after };
      }
      return { resellerId: reseller.id, catalogIds: before };
    }, actor);
  }
}

function checkName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > NAME_MAX) throw new AppError('VALIDATION_ERROR', `${what} must be 1 to ${NAME_MAX} characters`);
  return trimmed;
}

function checkForm(type: CategoryType, form: FormField[]): FormField[] {
  const problem = formProblem(type, form);
  if (problem) throw new AppError('VALIDATION_ERROR', `form: ${problem}`);
  return normaliseForm(form);
}

const snapshot = (c: CategoryRow) => ({ slug: c.slug, name: c.name, type: c.type, form: c.form, checkerEnabled: c.checkerEnabled, sortOrder: c.sortOrder });
