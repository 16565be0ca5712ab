import { CLI_ACTOR } from '../services/operator/manage-catalog.js';
import type { FormField } from '../domain/category-form.js';
import { output, parseArgs, UsageError, withPlatform, type CommandModule } from './support.js';

/** Catalog and supply set-up from the shell, through the same services (and audit log, as "cli") as the operator API. */

/** A `true|false` flag (parseArgs checked the value) or undefined when not given. */
const boolFlag = (value: string | undefined): boolean | undefined => (value === undefined ? undefined : value === 'true');

async function categoryAdd(args: string[]) {
  const { positional: [slug, name], flags, json } = parseArgs<[string, string]>('category-add', args);
  let form: FormField[] | undefined;
  if (flags.form !== undefined) {
    try {
      form = JSON.parse(flags.form) as FormField[];
    } catch (e) {
      throw new UsageError(`--form is not JSON (${(e as Error).message}); e.g. '[{"name":"user_id","label":"User ID","role":"account_id","type":"text"}]'`);
    }
    if (!Array.isArray(form)) throw new UsageError('--form must be a JSON array of fields');
  }
  await withPlatform(async (p) => {
    const c = await p.operator.catalog.createCategory(
      { slug, name, type: flags.type as 'game' | 'voucher', form, checkerEnabled: boolFlag(flags.checker), sortOrder: flags.sort === undefined ? undefined : Number(flags.sort) },
      CLI_ACTOR,
    );
    output(json, c, `category ${c.slug} (${c.type}) "${c.name}" added with ${c.form.length} form field(s)`);
  });
}

async function productAdd(args: string[]) {
  const { positional: [code, name], flags, json } = parseArgs<[string, string]>('product-add', args);
  await withPlatform(async (p) => {
    const r = await p.operator.catalog.createProduct(
      { code, name, categorySlug: flags.category!, kind: flags.kind as 'instant' | 'voucher' | undefined, limitGated: boolFlag(flags['limit-gated']) },
      CLI_ACTOR,
    );
    output(json, r, `product ${r.code} "${r.name}" (${r.kind}) added to ${r.categorySlug}; price it with price-set and route it with route-add`);
  });
}

async function catalogAdd(args: string[]) {
  const { positional: [name], json } = parseArgs<[string]>('catalog-add', args);
  await withPlatform(async (p) => {
    const c = await p.operator.catalog.createCatalog(name, CLI_ACTOR);
    output(json, c, `catalog "${c.name}" added (id ${c.id})`);
  });
}

async function priceSet(args: string[]) {
  const { positional: [catalog, productCode, tier, price], json } = parseArgs<[string, string, string, string]>('price-set', args);
  await withPlatform(async (p) => {
    const { id } = await p.operator.catalog.findCatalog(catalog);
    const r = await p.operator.catalog.setPrices(id, [{ productCode, tier: tier as 'gold', price: price === 'none' ? null : price }], CLI_ACTOR);
    const now = r.prices.find((x) => x.productCode === productCode && x.tier === tier);
    output(json, { catalog_id: r.id, product_code: productCode, tier, price: now?.price ?? null }, now ? `${r.name}: ${productCode} for ${tier} costs ${now.price}` : `${r.name}: ${productCode} has no ${tier} price any more`);
  });
}

async function catalogAssign(args: string[]) {
  const { positional: [catalog, email], json } = parseArgs<[string, string]>('catalog-assign', args);
  await withPlatform(async (p) => {
    const r = await p.operator.catalog.assign(catalog, email, CLI_ACTOR);
    output(json, { reseller_id: r.resellerId, catalog_ids: r.catalogIds }, `${email} now has ${r.catalogIds.length} catalog(s)`);
  });
}

async function supplierAddSandbox(args: string[]) {
  const { positional: [name], json } = parseArgs<[string]>('supplier-add-sandbox', args);
  await withPlatform(async (p) => {
    const s = await p.operator.supply.addSandbox(name, CLI_ACTOR);
    output(json, { supplier_id: s.id, name: s.name, adapter: s.adapter }, `sandbox supplier "${s.name}" added (id ${s.id}); route products to it with route-add`);
  });
}

export const catalogCommands: CommandModule = {
  'category-add': categoryAdd,
  'product-add': productAdd,
  'catalog-add': catalogAdd,
  'price-set': priceSet,
  'catalog-assign': catalogAssign,
  'supplier-add-sandbox': supplierAddSandbox,
};
