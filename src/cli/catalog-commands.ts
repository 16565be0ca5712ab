import { CLI_ACTOR } from '../services/operator/manage-catalog.js';
import type { FormField } from '../domain/category-form.js';
import { output, parseArgs, UsageError, withPlatform, type CommandSet } from './support.js';

/** Catalog and supply set-up from the shell, through the same services (and audit log, as "cli") as the operator API. */

const boolFlag = (value: string | undefined, name: string, usage: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`--${name} must be true or false\nusage: ${usage}`);
  return value === 'true';
};

const CATEGORY_ADD = 'topup category-add SLUG NAME --type game|voucher [--form JSON] [--checker true|false] [--sort N] [--json]';
async function categoryAdd(args: string[]) {
  const { positional: [slug, name], flags, json } = parseArgs(args, ['type', 'form', 'checker', 'sort'], CATEGORY_ADD);
  if (!slug || !name || (flags.type !== 'game' && flags.type !== 'voucher')) throw new UsageError(`usage: ${CATEGORY_ADD}`);
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
      { slug, name, type: flags.type as 'game' | 'voucher', form, checkerEnabled: boolFlag(flags.checker, 'checker', CATEGORY_ADD), sortOrder: flags.sort === undefined ? undefined : Number(flags.sort) },
      CLI_ACTOR,
    );
    output(json, c, `category ${c.slug} (${c.type}) "${c.name}" added with ${c.form.length} form field(s)`);
  });
}

const PRODUCT_ADD = 'topup product-add CODE NAME --category SLUG [--kind instant|voucher] [--limit-gated true|false] [--json]';
async function productAdd(args: string[]) {
  const { positional: [code, name], flags, json } = parseArgs(args, ['category', 'kind', 'limit-gated'], PRODUCT_ADD);
  if (!code || !name || !flags.category || (flags.kind !== undefined && flags.kind !== 'instant' && flags.kind !== 'voucher')) throw new UsageError(`usage: ${PRODUCT_ADD}`);
  await withPlatform(async (p) => {
    const r = await p.operator.catalog.createProduct(
      { code, name, categorySlug: flags.category!, kind: flags.kind as 'instant' | 'voucher' | undefined, limitGated: boolFlag(flags['limit-gated'], 'limit-gated', PRODUCT_ADD) },
      CLI_ACTOR,
    );
    output(json, r, `product ${r.code} "${r.name}" (${r.kind}) added to ${r.categorySlug}; price it with price-set and route it with route-add`);
  });
}

const CATALOG_ADD = 'topup catalog-add NAME [--json]';
async function catalogAdd(args: string[]) {
  const { positional: [name], json } = parseArgs(args, [], CATALOG_ADD);
  if (!name) throw new UsageError(`usage: ${CATALOG_ADD}`);
  await withPlatform(async (p) => {
    const c = await p.operator.catalog.createCatalog(name, CLI_ACTOR);
    output(json, c, `catalog "${c.name}" added (id ${c.id})`);
  });
}

const PRICE_SET = 'topup price-set CATALOG PRODUCT TIER PRICE|none [--json]   (CATALOG: name or id; PRICE in major units)';
async function priceSet(args: string[]) {
  const { positional: [catalog, productCode, tier, price], json } = parseArgs(args, [], PRICE_SET);
  if (!catalog || !productCode || !tier || price === undefined) throw new UsageError(`usage: ${PRICE_SET}`);
  await withPlatform(async (p) => {
    const { id } = await p.operator.catalog.findCatalog(catalog);
    const r = await p.operator.catalog.setPrices(id, [{ productCode, tier: tier as 'gold', price: price === 'none' ? null : price }], CLI_ACTOR);
    const now = r.prices.find((x) => x.productCode === productCode && x.tier === tier);
    output(json, { catalog_id: r.id, product_code: productCode, tier, price: now?.price ?? null }, now ? `${r.name}: ${productCode} for ${tier} costs ${now.price}` : `${r.name}: ${productCode} has no ${tier} price any more`);
  });
}

const CATALOG_ASSIGN = 'topup catalog-assign CATALOG RESELLER_EMAIL [--json]';
async function catalogAssign(args: string[]) {
  const { positional: [catalog, email], json } = parseArgs(args, [], CATALOG_ASSIGN);
  if (!catalog || !email) throw new UsageError(`usage: ${CATALOG_ASSIGN}`);
  await withPlatform(async (p) => {
    const r = await p.operator.catalog.assign(catalog, email, CLI_ACTOR);
    output(json, { reseller_id: r.resellerId, catalog_ids: r.catalogIds }, `${email} now has ${r.catalogIds.length} catalog(s)`);
  });
}

const SUPPLIER_ADD_SANDBOX = 'topup supplier-add-sandbox NAME [--json]';
async function supplierAddSandbox(args: string[]) {
  const { positional: [name], json } = parseArgs(args, [], SUPPLIER_ADD_SANDBOX);
  if (!name) throw new UsageError(`usage: ${SUPPLIER_ADD_SANDBOX}`);
  await withPlatform(async (p) => {
    const s = await p.operator.supply.addSandbox(name, CLI_ACTOR);
    output(json, { supplier_id: s.id, name: s.name, adapter: s.adapter }, `sandbox supplier "${s.name}" added (id ${s.id}); route products to it with route-add`);
  });
}

export const catalogCommands: CommandSet = {
  usage: `  category-add SLUG NAME --type game|voucher [--form JSON] [--checker true|false] [--sort N]
                             add a category; a game's form needs one account_id field
  product-add CODE NAME --category SLUG [--kind instant|voucher] [--limit-gated true|false]
                             add a product (enabled; hidden until priced and routed)
  catalog-add NAME           add an empty catalog
  price-set CATALOG PRODUCT TIER PRICE|none
                             set (or remove) a product's price for a tier, in major units
  catalog-assign CATALOG RESELLER_EMAIL
                             let a reseller buy from a catalog
  supplier-add-sandbox NAME  add a sandbox (simulated) supplier`,
  commands: {
    'category-add': categoryAdd,
    'product-add': productAdd,
    'catalog-add': catalogAdd,
    'price-set': priceSet,
    'catalog-assign': catalogAssign,
    'supplier-add-sandbox': supplierAddSandbox,
  },
};
