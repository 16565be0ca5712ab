import { presentStatement, statementCsv, StatementQuery, StatementSchema, STATEMENT_ERRORS } from '../../statement-shape.js';
import type { JsonApiKit } from '../../json-api.js';
import { Type } from '@sinclair/typebox';
import type { DashboardApiDeps } from './index.js';

/** Wallet → Statements: the signed-in reseller's own statement (docs/dashboard-api.md, "Statements"). */
export function statementRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { statements, currency } = deps.services;
  kit.route({
    method: 'GET', url: '/wallet/statement', tag: 'Wallet',
    summary: 'A statement for a range of days: opening balance, deposits, order debits, refunds, adjustments and closing balance, per day and in total',
    query: StatementQuery,
    response: StatementSchema,
    errors: [...STATEMENT_ERRORS],
    handler: async ({ who, query }) => ({ data: presentStatement(await statements.forReseller(who.resellerId, query), deps.present.money, currency.code) }),
  });
  kit.route({
    method: 'GET', url: '/wallet/statement/export.csv', tag: 'Wallet', produces: 'csv',
    summary: 'The same statement as CSV',
    query: StatementQuery,
    response: Type.String(),
    errors: [...STATEMENT_ERRORS],
    handler: async ({ who, query }) => ({ file: statementCsv(await statements.forReseller(who.resellerId, query), deps.present.money) }),
  });
}
