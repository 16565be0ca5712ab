/**
 * Every `topup` command: its arguments, what it does, and the module that runs it. Only
 * text and import thunks, so that `topup --help` and `topup X --help` load nothing else
 * (the start of a CLI process is mostly module loading). The `args` string is the one
 * definition of a command's arguments: parseArgs (args.ts) reads it, so a required word or
 * flag missing, an unknown flag, or a value outside `a|b` is reported from it.
 *
 * Syntax of `args`: WORDS are positional (required unless in [ ]; `NAME...` takes the rest),
 * `--flag VALUE` takes a value (required unless in [ ]), a VALUE spelled `a|b|c` in
 * lower case allows those values only. Every command also takes --json and --help.
 */
export type Command = (args: string[]) => Promise<void>;
export type CommandModule = Record<string, Command>;

export interface CommandInfo {
  args: string;
  /** One or more lines: the first is the summary in `topup --help`. */
  help: string;
  /** Environment variables it reads besides the common configuration. */
  env?: string;
  load: () => Promise<CommandModule>;
}

const service = () => import('./service-commands.js').then((m) => m.serviceCommands);
const store = () => import('./store-commands.js').then((m) => m.storeCommands);
const operator = () => import('./operator-commands.js').then((m) => m.operatorCommands);
const catalog = () => import('./catalog-commands.js').then((m) => m.catalogCommands);
const fulfilment = () => import('./fulfilment-commands.js').then((m) => m.fulfilmentCommands);
const pricing = () => import('./pricing-commands.js').then((m) => m.pricingCommands);

export const AREAS: { title: string; commands: Record<string, CommandInfo> }[] = [
  {
    title: 'Service',
    commands: {
      serve: { args: '', load: service, help: 'migrate, seed the demo on first start, and serve the API\n(with the job worker inside unless WORKER_IN_PROCESS=false)' },
      worker: { args: '', load: service, help: 'run only the job worker and the supply refresh' },
      migrate: { args: '', load: service, help: 'run database migrations and exit' },
      seed: { args: '', load: service, help: 'seed the demo data (prints the demo credentials once)' },
      call: { args: 'METHOD PATH [BODY]', load: service, env: 'TOPUP_API_KEY, TOPUP_API_SECRET (required), TOPUP_BASE_URL', help: 'sign and send a reseller API request' },
      backup: { args: 'FILE', load: store, help: 'a consistent copy of the SQLite store, also while the service runs\n(PostgreSQL: use pg_dump, see docs/operations.md)' },
      restore: { args: 'FILE [--force]', load: store, help: 'check a backup (integrity, migrations, ledger) and put it in place of the\nSQLite store; the service must be stopped; --force replaces an existing store (kept aside)' },
    },
  },
  {
    title: 'Operators and resellers (audited as operator "cli")',
    commands: {
      'operator-add': { args: 'EMAIL NAME... [--roles ROLES]', load: operator, help: 'add an operator; prints the generated password once; ROLES comma-separated\n(owner,finance,support,catalog,viewer; default viewer; the first operator is owner)' },
      'operator-roles': { args: 'EMAIL ROLES', load: operator, help: 'set an operator\'s roles, comma-separated (e.g. owner,finance);\nthe last owner keeps owner' },
      'operator-reset-password': { args: 'EMAIL', load: operator, help: 'give an operator a new generated password (printed once) and end its sessions' },
      'operator-two-factor-off': { args: 'EMAIL', load: operator, help: 'turn off an operator\'s two-factor sign-in (lost phone and recovery codes);\nthey enrol again at the next sign-in if their roles need it' },
      'reseller-create': { args: 'EMAIL NAME... [--tier gold|platinum|diamond] [--approve true|false]', load: operator, help: 'create a reseller (pending unless approved at once)' },
      'reseller-approve': { args: 'EMAIL --tier gold|platinum|diamond', load: operator, help: 'approve a pending reseller with a tier' },
      'reseller-invite': { args: 'EMAIL', load: operator, help: 'a one-time link (7 days) where the reseller sets its dashboard password;\nprinted once (PUBLIC_BASE_URL sets the link\'s origin)' },
      credit: { args: 'EMAIL AMOUNT --note TEXT [--idempotency-key K]', load: operator, help: 'credit a reseller\'s wallet (major units; a ledger entry)\n(applied once per key: the same key and arguments again print the first result;\ndefault: a new key each run)' },
      debit: { args: 'EMAIL AMOUNT --note TEXT [--idempotency-key K]', load: operator, help: 'debit a reseller\'s wallet (major units; a ledger entry)\n(applied once per key, as credit)' },
      refund: { args: 'ORDER --note TEXT [--idempotency-key K]', load: operator, help: 'refund a processing or success order (id or ORD- code)\n(applied once per key, as credit)' },
    },
  },
  {
    title: 'Catalog',
    commands: {
      'category-add': { args: 'SLUG NAME --type game|voucher [--form JSON] [--checker true|false] [--sort N]', load: catalog, help: 'add a category; a game\'s form needs one account_id field' },
      'product-add': { args: 'CODE NAME --category SLUG [--kind instant|voucher] [--limit-gated true|false]', load: catalog, help: 'add a product (enabled; hidden until priced and routed)' },
      'catalog-add': { args: 'NAME', load: catalog, help: 'add an empty catalog' },
      'price-set': { args: 'CATALOG PRODUCT TIER PRICE', load: catalog, help: 'set a product\'s price for a tier, in major units (PRICE none removes it;\nCATALOG: name or id)' },
      'catalog-assign': { args: 'CATALOG RESELLER_EMAIL', load: catalog, help: 'let a reseller buy from a catalog' },
    },
  },
  {
    title: 'Supply and fulfilment',
    commands: {
      sandbox: {
        args: '[LIST ACTION] [--mode up|down|maintenance] [--out-of-stock SKUS] [--availability ok|broken] [--product CODE] [--sku SKU]',
        load: fulfilment,
        help: 'show or switch the sandbox supplier\'s state (SKUS: comma-separated);\n' +
          'LIST ACTION (out-of-stock|broken-availability add|remove) with --product or --sku:\none product\'s switch, the others untouched (rehearse one outage)',
      },
      'supply-refresh': { args: '', load: fulfilment, help: 'refresh supplier health and route availability now' },
      'supplier-add-sandbox': { args: 'NAME', load: catalog, help: 'add a sandbox (simulated) supplier' },
      'supplier-add-upstream': { args: 'NAME BASE_URL', load: fulfilment, env: 'UPSTREAM_API_KEY, UPSTREAM_API_SECRET (required; sealed at rest)', help: 'add an upstream-v1 supplier (another installation of this API)' },
      'supplier-add-digiflazz': {
        args: 'NAME [--base-url URL] [--balance-threshold AMOUNT]', load: fulfilment,
        env: 'DIGIFLAZZ_USERNAME, DIGIFLAZZ_API_KEY (required), DIGIFLAZZ_WEBHOOK_SECRET; sealed at rest',
        help: 'add a Digiflazz account (docs/suppliers/digiflazz.md)',
      },
      'supplier-sync': { args: 'NAME', load: fulfilment, help: 'read a supplier\'s price list now (digiflazz): store costs, statuses,\ncut-off windows, show changes; routes now at or above cost are repriced\nor go out of service (the supplier\'s below-cost policy)' },
      'supplier-import': {
        args: 'SUPPLIER --sku SKUS --category SLUG [--catalog CATALOG] [--customer-no FORMAT] [--apply]', load: pricing,
        help: 'import synced SKUs (SKUS: comma-separated) as products with margin-rule prices;\na preview unless --apply (CATALOG: id or name; FORMAT: the routes\' customer_no,\ne.g. \'{target}|{zone}\', by default what the game\'s form implies; docs/suppliers/digiflazz.md)',
      },
      'supplier-below-cost': { args: 'SUPPLIER reprice|disable_route', load: pricing, help: 'what a sync does when a SKU\'s cost reaches a price of its product' },
      'supplier-set': { args: 'NAME [--enabled true|false] [--status active|maintenance]', load: fulfilment, help: 'take a supplier out of or back into service (supplier gate)' },
      'route-add': {
        args: 'PRODUCT SUPPLIER SKU PRIORITY [COST] [--customer-no FORMAT] [--testing true|false]', load: fulfilment,
        help: 'route a product to a supplier (lower priority is tried first);\nFORMAT joins {target} and {zone} into the supplier\'s customer number',
      },
      attention: { args: '', load: fulfilment, help: 'open attention items (a sync repriced a product or took a route out of service)\nand orders still processing without a definite supplier answer\n(flagged for the operator; never refunded automatically)' },
      'callback-url': { args: 'RESELLER_EMAIL URL', load: fulfilment, help: 'set a reseller\'s callback URL (checked against the SSRF rules; URL none removes it)' },
      'resend-callback': { args: 'ORDER', load: fulfilment, help: 'a new round of callback attempts for a terminal order (id or ORD- code)' },
      'callback-log': { args: 'ORDER', load: fulfilment, help: 'every callback round and attempt of an order (JSON)' },
    },
  },
];

export const COMMANDS: Record<string, CommandInfo> = Object.assign({}, ...AREAS.map((a) => a.commands));

const indent = (text: string, by: string) => text.split('\n').join(`\n${by}`);

/** `topup --help`. */
export function usage(): string {
  const areas = AREAS.map(({ title, commands }) => `${title}:\n${Object.entries(commands).map(([name, c]) => {
    const head = `  ${name}${c.args ? ` ${c.args}` : ''}`;
    const summary = indent(c.help, ' '.repeat(6));
    return head.length <= 26 && !c.help.includes('\n') ? `${head.padEnd(29)}${summary}` : `${head}\n      ${summary}`;
  }).join('\n')}`);
  return `Usage: topup <command> [arguments] [--json]
       topup <command> --help     one command's arguments

${areas.join('\n\n')}

Configuration comes from the environment and ./.env (DATABASE_URL, DATA_DIR, REDIS_URL, …: docs/operations.md).
`;
}

/** The usage line of one command. */
export const usageLine = (name: string) => `topup ${name}${COMMANDS[name]?.args ? ` ${COMMANDS[name]!.args}` : ''} [--json]`;

/** `topup X --help`. */
export function commandHelp(name: string): string {
  const c = COMMANDS[name]!;
  return `Usage: ${usageLine(name)}\n\n  ${indent(c.help, '  ')}\n${c.env ? `\n  Environment: ${c.env}\n` : ''}`;
}
