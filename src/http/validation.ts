import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Request validation of the JSON APIs. Bodies are JSON and must hold exactly the declared
 * types: `{"amount": true}` or `{"amount": [250]}` is refused, never read as 1 or 250. Query
 * strings and path parameters can only arrive as text, so only they are coerced to the
 * declared type. Unknown fields are refused by name, never silently dropped.
 */
function ajv(coerce: boolean): Ajv {
  const a = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false });
  (addFormats as unknown as (a: Ajv) => void)(a);
  return a;
}

export function useStrictBodies(app: FastifyInstance): void {
  const strict = ajv(false);
  const coercing = ajv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  app.setSchemaErrorFormatter((errors, dataVar) => new AppError('VALIDATION_ERROR', describeSchemaErrors(errors as ErrorObject[], dataVar)));
}

/** A union's branches fail one by one ("must be number; must be null; must match anyOf"): one line, "must be number or null". */
export function describeSchemaErrors(errors: ErrorObject[], dataVar: string): string {
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const types = (path: string) => errors.filter((e) => e.instancePath === path && e.keyword === 'type').map((e) => String(e.params.type));
  return errors
    .filter((e) => !(unions.has(e.instancePath) && e.keyword !== 'anyOf'))
    .map((e) => (e.keyword === 'anyOf' && types(e.instancePath).length
      ? describeSchemaError({ ...e, keyword: 'type', message: `must be ${types(e.instancePath).join(' or ')}` }, dataVar)
      : describeSchemaError(e, dataVar)))
    .join('; ');
}

const WHOLE: Record<string, string> = { body: 'the request body', querystring: 'the query string', params: 'the path', headers: 'the headers' };

/**
 * "tier must be one of gold, platinum, diamond", "amount must be number", "note is required":
 * the field as the client names it, never the validator's `body.tier` or `querystring.status`.
 */
export function describeSchemaError(e: Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>, dataVar: string): string {
  const path = e.instancePath.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
  const field = (name: string) => (path ? `${path}.${name}` : name);
  const params = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown field '${field(String(params.additionalProperty))}'`;
    case 'required':
      return dataVar === 'headers' ? `header ${params.missingProperty} is missing` : `${field(String(params.missingProperty))} is required`;
    case 'enum':
      return `${path || WHOLE[dataVar] || dataVar} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${path || WHOLE[dataVar] || dataVar} ${e.message ?? 'is invalid'}`;
  }
}
