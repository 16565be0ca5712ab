import { Type } from '@sinclair/typebox';
import { toMajor } from '../../../domain/money.js';
import { IdParams } from '../../schemas.js';
import { presentStatement, statementCsv, StatementQuery, StatementSchema, STATEMENT_ERRORS } from '../../statement-shape.js';
import type { JsonApiKit } from '../../json-api.js';
import type { AdminApiDeps } from './index.js';

/** A reseller's statement, the same the reseller sees in its dashboard. */
export function statementRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { statements, currency } = deps.services;
  const money = (minor: number) => toMajor(minor, currency.decimals);
  kit.route({
    method: 'GET', url: '/resellers/:id/statement', tag: 'Resellers',
    summary: "A reseller's statement for a range of days (as its dashboard shows it)",
    params: IdParams,
    query: StatementQuery,
    response: StatementSchema,
    errors: [...STATEMENT_ERRORS],
    handler: async ({ params, query }) => ({ data: presentStatement(await statements.forReseller(params.id, query), money, currency.code) }),
  });
  kit.route({
    method: 'GET', url: '/resellers/:id/statement/export.csv', tag: 'Resellers', produces: 'csv',
    summary: "A reseller's statement as CSV",
    params: IdParams,
    query: StatementQuery,
    response: Type.String(),
    errors: [...STATEMENT_ERRORS],
    handler: async ({ params, query }) => ({ file: statementCsv(await statements.forReseller(params.id, query), money) }),
  });
}
