import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { toMajor } from '../../../domain/money.js';
import type { DepositSettings } from '../../../domain/bank-deposit.js';
import type { BankAccount } from '../../../store/bank-deposits-repo.js';
import { MAX_STATEMENT_BYTES } from '../../../services/deposits/statement-import.js';
import { accountMap, BankAccountView, DepositView, MutationView, presentAccount, presentDeposit, presentMutation } from '../../deposit-views.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, Money, Nullable, PageQueryProps, StringEnum } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;
const Note = Type.Optional(Type.String({ maxLength: 500, description: 'why; kept in the audit log' }));

const Mapping = Type.Object({
  date: Type.String({ minLength: 1, maxLength: 100, description: 'header of the date column' }),
  description: Type.String({ minLength: 1, maxLength: 100 }),
  amount: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'a signed amount, or one marked CR/DB' }))),
  credit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  debit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  mutation_id: Type.Optional(Nullable(Type.String({ maxLength: 100, description: "the bank's own id of a line, if the export has one" }))),
  decimal: StringEnum(['.', ','] as const, 'decimal separator of amounts'),
  delimiter: StringEnum(['comma', 'semicolon', 'tab'] as const, 'column separator'),
}, strict);

const AccountAdmin = Type.Object({
  ...BankAccountView.properties, mutation_bank_id: Nullable(Type.String({ description: "the mutation service's id of this account (Moota bank_id)" })),
  statement_mapping: Nullable(Mapping),
});
const AccountBody = Type.Object({
  bank: Type.String({ maxLength: 60 }), number: Type.String({ maxLength: 40 }), holder: Type.String({ maxLength: 100 }), active: Type.Boolean(),
  mutation_bank_id: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
}, strict);

const Settings = Type.Object({
  min_amount: Money(), max_amount: Money(), ticket_hours: Type.Integer({ description: 'how long a ticket stays open' }),
  credit_unique_code: Type.Boolean({ description: 'true: the wallet also gets the unique code; false: the asked amount' }),
  daily_cap: Nullable(Money('per reseller and UTC day, the sum of deposits asked (bank tickets and gateway payments, open, in review or paid); null: none')),
  review_above: Nullable(Money('a matched transfer above this waits in review for an operator; null: never')),
  webhook_signature_header: Type.String({ description: 'header the mutation service signs in (Moota: Signature)' }),
}, strict);

const PreviewLine = Type.Object({
  row: Type.Integer(), identity: Type.String(), date: Type.String(), description: Type.String(), amount: Money(), direction: Type.String(),
  status: Type.String({ description: 'matched | review | unmatched | already_imported | debit' }),
  deposit: Nullable(DepositView),
  previous_state: Nullable(Type.String({ description: 'already_imported: what the line became then' })),
});
const CsvBody = Type.Object({ csv: Type.String({ minLength: 1, maxLength: MAX_STATEMENT_BYTES, description: 'the export as text; lines end in \\n (send CRLF files with \\r removed)' }) }, strict);
const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t' } as const;
const DELIMITER_NAME = { ',': 'comma', ';': 'semicolon', '\t': 'tab' } as const;

/**
 * Deposits on the operator side (issue 36): bank accounts, settings, tickets, marking paid,
 * the unmatched-money queue and statement import. Changes need deposits.manage.
 */
export function depositRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { depositSettings, deposits, statementImport: statements, currency } = deps.services;
  const m = (v: number | null) => (v === null ? null : toMajor(v, currency.decimals));
  const accounts = async () => accountMap(await depositSettings.accounts());
  const adminAccount = (a: BankAccount) => ({
    ...presentAccount(a), mutation_bank_id: a.mutationBankId,
    statement_mapping: a.mapping ? { date: a.mapping.date, description: a.mapping.description, amount: a.mapping.amount ?? null, credit: a.mapping.credit ?? null, debit: a.mapping.debit ?? null, mutation_id: a.mapping.mutationId ?? null, decimal: a.mapping.decimal, delimiter: DELIMITER_NAME[a.mapping.delimiter] } : null,
  });
  const settingsView = (s: DepositSettings, secretSet: boolean) => ({
    min_amount: m(s.minAmount)!, max_amount: m(s.maxAmount)!, ticket_hours: s.ticketHours, credit_unique_code: s.creditUniqueCode, daily_cap: m(s.dailyCap), review_above: m(s.reviewAbove),
    webhook_signature_header: s.webhookSignatureHeader, webhook_secret_set: secretSet, webhook_url: `${deps.services.publicBaseUrl}/hooks/bank-mutations`,
  });
  const SettingsOut = Type.Object({ ...Settings.properties, webhook_secret_set: Type.Boolean(), webhook_url: Type.String({ description: 'give this to the mutation service' }) });

  kit.route({
    method: 'GET', url: '/bank-accounts', tag: 'Deposits', summary: 'The bank accounts resellers transfer to (active and not)',
    response: Type.Object({ bank_accounts: Type.Array(AccountAdmin) }),
    handler: async () => ({ data: { bank_accounts: (await depositSettings.accounts()).map(adminAccount) } }),
  });
  kit.route({
    method: 'POST', url: '/bank-accounts', tag: 'Deposits', summary: 'Add a receiving bank account',
    body: AccountBody, response: AccountAdmin, errors: ['CONFLICT'],
    handler: async ({ body, who }) => ({ data: adminAccount(await depositSettings.createAccount(body, who.operatorId)) }),
  });
  kit.route({
    method: 'PUT', url: '/bank-accounts/:id', tag: 'Deposits', summary: 'Change a bank account (inactive: offered to no new ticket; open tickets still match)',
    params: IdParams, body: AccountBody, response: AccountAdmin, errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ params, body, who }) => ({ data: adminAccount(await depositSettings.updateAccount(params.id, body, who.operatorId)) }),
  });
  kit.route({
    method: 'PUT', url: '/bank-accounts/:id/statement-mapping', tag: 'Deposits',
    summary: "Save the columns of this bank's statement export (by header name)",
    params: IdParams, body: Mapping, response: AccountAdmin, errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => ({
      data: adminAccount(await depositSettings.setMapping(params.id, {
        date: body.date, description: body.description, amount: body.amount ?? null, credit: body.credit ?? null, debit: body.debit ?? null, mutationId: body.mutation_id ?? null,
        decimal: body.decimal, delimiter: DELIMITERS[body.delimiter],
      }, who.operatorId)),
    }),
  });

  kit.route({
    method: 'GET', url: '/deposit-settings', tag: 'Deposits', summary: 'Deposit limits, ticket lifetime, review amount and the mutation webhook',
    response: SettingsOut,
    handler: async () => {
      const r = await depositSettings.get();
      return { data: settingsView(r.settings, r.webhookSecretSet) };
    },
  });
  kit.route({
    method: 'PUT', url: '/deposit-settings', tag: 'Deposits', summary: 'Change the deposit settings (all of them; audited)',
    body: Settings, response: SettingsOut,
    handler: async ({ body, who }) => {
      const s = await depositSettings.put(body, who.operatorId);
      return { data: settingsView(s, (await depositSettings.get()).webhookSecretSet) };
    },
  });
  kit.route({
    method: 'PUT', url: '/deposit-settings/webhook-secret', tag: 'Deposits',
    summary: "Set the mutation webhook's shared secret (sealed at rest, never shown again) or remove it with null",
    body: Type.Object({ secret: Nullable(Type.String({ maxLength: 256 })) }, strict), response: Type.Object({ webhook_secret_set: Type.Boolean() }),
    handler: async ({ body, who }) => ({ data: { webhook_secret_set: (await depositSettings.setWebhookSecret(body.secret, who.operatorId)).secretSet } }),
  });

  kit.route({
    method: 'GET', url: '/deposits', tag: 'Deposits', paged: true, summary: 'Deposits of every reseller, newest first (filters: state, channel, reseller_id)',
    query: Type.Object({ state: Type.Optional(Type.String()), channel: Type.Optional(Type.String()), reseller_id: Type.Optional(Type.String({ maxLength: 100 })), ...PageQueryProps }, strict),
    response: Type.Object({ deposits: Type.Array(DepositView) }), errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await deposits.list(query);
      const acc = await accounts();
      return { data: { deposits: r.items.map((d) => presentDeposit(d, currency.decimals, acc)) }, meta: pageMeta(r.total, r.page) };
    },
  });
  kit.route({
    method: 'GET', url: '/deposits/summary', tag: 'Deposits', summary: "Open tickets, tickets in review, unmatched money, and today's (UTC) credits by channel",
    response: Type.Object({
      open: Type.Integer(), review: Type.Integer(), unmatched: Type.Integer(),
      today: Type.Array(Type.Object({ channel: Type.String(), count: Type.Integer(), amount: Money() })),
    }),
    handler: async () => {
      const s = await deposits.summary();
      return { data: { ...s, today: s.today.map((t) => ({ ...t, amount: m(t.amount)! })) } };
    },
  });
  kit.route({
    method: 'POST', url: '/deposits/:id/mark-paid', tag: 'Deposits',
    summary: "Mark a bank ticket paid (open, expired, or held for review) and credit the reseller's wallet once",
    description: 'reference: the bank\'s reference of the transfer (required, except when confirming a ticket in review). A second call answers INVALID_STATE and credits nothing.',
    params: IdParams, body: Type.Object({ reference: Type.Optional(Type.String({ maxLength: 200 })), note: Note }, strict),
    response: Type.Object({ deposit: DepositView, balance: Money('the wallet after the credit') }), errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => {
      const r = await deposits.markPaid(params.id, body.reference, who.operatorId, body.note);
      return { data: { deposit: presentDeposit(r.deposit, currency.decimals, await accounts()), balance: m(r.balanceAfter)! } };
    },
  });

  kit.route({
    method: 'GET', url: '/bank-mutations', tag: 'Deposits', paged: true, summary: 'Bank mutations seen (state=unmatched: the unmatched-money queue), newest first',
    query: Type.Object({ state: Type.Optional(Type.String()), ...PageQueryProps }, strict),
    response: Type.Object({ mutations: Type.Array(MutationView) }), errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await deposits.listMutations(query);
      return { data: { mutations: r.items.map((x) => presentMutation(x, currency.decimals)) }, meta: pageMeta(r.total, r.page) };
    },
  });
  kit.route({
    method: 'POST', url: '/bank-mutations/:id/assign', tag: 'Deposits',
    summary: "Credit unmatched money to a reseller's bank ticket (open, expired or cancelled), once",
    description: 'The wallet gets the ticket amount when the transfer paid its exact amount, else the amount that arrived.',
    params: IdParams, body: Type.Object({ deposit_id: Type.String({ minLength: 1, maxLength: 100 }), note: Note }, strict),
    response: Type.Object({ mutation: MutationView, deposit: DepositView, balance: Money() }), errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => {
      const r = await deposits.assign(params.id, body.deposit_id, who.operatorId, body.note);
      return { data: { mutation: presentMutation(r.mutation, currency.decimals), deposit: presentDeposit(r.deposit, currency.decimals, await accounts()), balance: m(r.balanceAfter)! } };
    },
  });
  kit.route({
    method: 'POST', url: '/bank-mutations/:id/handle', tag: 'Deposits', summary: 'Mark unmatched money handled outside the platform (note required; audited)',
    params: IdParams, body: Type.Object({ note: Type.String({ maxLength: 200 }) }, strict), response: MutationView, errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => ({ data: presentMutation(await deposits.handle(params.id, body.note, who.operatorId), currency.decimals) }),
  });

  const previewLine = (acc: Map<string, BankAccount>) => (l: Awaited<ReturnType<typeof statements.preview>>[number]) => ({
    row: l.row, identity: l.identity, date: l.date, description: l.description, amount: m(l.amount)!, direction: l.direction, status: l.status,
    deposit: l.deposit ? presentDeposit(l.deposit, currency.decimals, acc) : null, previous_state: l.previous?.state ?? null,
  });
  kit.route({
    method: 'POST', url: '/bank-accounts/:id/statement/preview', tag: 'Deposits', bodyLimit: MAX_STATEMENT_BYTES + 4096,
    summary: 'Read a statement export (CSV, the saved mapping) and show what apply would do to each line; changes nothing',
    params: IdParams, body: CsvBody, response: Type.Object({ lines: Type.Array(PreviewLine) }), errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body }) => {
      const lines = await statements.preview(params.id, body.csv);
      return { data: { lines: lines.map(previewLine(await accounts())) } };
    },
  });
  kit.route({
    method: 'POST', url: '/bank-accounts/:id/statement/apply', tag: 'Deposits', bodyLimit: MAX_STATEMENT_BYTES + 4096,
    summary: 'Import a statement: each line once by its identity; credits matched tickets, queues unmatched money',
    params: IdParams, body: CsvBody,
    response: Type.Object({
      matched: Type.Integer(), review: Type.Integer(), unmatched: Type.Integer(), duplicate: Type.Integer({ description: 'lines imported before' }), debit: Type.Integer(),
      lines: Type.Array(Type.Object({ row: Type.Integer(), outcome: Type.String(), deposit_id: Nullable(Type.String()), mutation_id: Nullable(Type.String()) })),
    }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => {
      const r = await statements.apply(params.id, body.csv, who.operatorId);
      return { data: { ...r.counts, lines: r.results.map((x) => ({ row: x.line.row, outcome: x.result.outcome, deposit_id: x.result.depositId, mutation_id: x.result.mutationId })) } };
    },
  });
}
