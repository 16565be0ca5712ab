import type { TSchema } from '@sinclair/typebox';
import { ERRORS, type ErrorCode } from '../../errors.js';

/**
 * Pieces every OpenAPI document of the service is made of: the two envelopes, error
 * responses grouped by HTTP status, and plain-JSON copies of TypeBox schemas.
 */
export type OpenApiDocument = Record<string, any> & { openapi: '3.1.0'; paths: Record<string, Record<string, any>> };
export type Schema = Record<string, unknown>;

/** TypeBox schemas carry symbol keys; a document must be plain JSON. */
export const plain = (schema: TSchema | Schema): Schema => JSON.parse(JSON.stringify(schema)) as Schema;

/**
 * An error an operation can answer. Mostly a code of the catalogue at its own status; the
 * spec's one exception (411 with error PAYLOAD_TOO_LARGE) is written as LENGTH_REQUIRED.
 */
export type DocumentedError = ErrorCode | 'LENGTH_REQUIRED';

const statusOf = (e: DocumentedError) => ERRORS[e];
const codeOf = (e: DocumentedError): ErrorCode => (e === 'LENGTH_REQUIRED' ? 'PAYLOAD_TOO_LARGE' : e);

/** The service is not open source: an SPDX reference for a licence that is not on the SPDX list. */
export const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

export const REQUEST_ID_HEADER = {
  description: 'unique id of this request; the same value as `request_id` in an error body',
  required: true,
  schema: { type: 'string', minLength: 1 },
};

/** Headers every answer of the three APIs carries (app.ts); HSTS only in production. */
export const EVERY_ANSWER_HEADERS = {
  'X-Content-Type-Options': { description: 'no answer is to be read as another type than it declares', required: true, schema: { const: 'nosniff' } },
  'Strict-Transport-Security': { description: 'production only: keep browsers on HTTPS', schema: { type: 'string' } },
};

/** A CSV export's headers (json-api.ts sends every text/csv answer with them). */
export const CSV_HEADERS = {
  'Content-Disposition': { description: 'an attachment, with its file name', required: true, schema: { type: 'string', pattern: '^attachment; filename="[\\w.-]+"$' } },
  'Cache-Control': { description: 'exports are never cached', required: true, schema: { const: 'no-store' } },
};

const NO_STORE = { description: 'the answer carries a session secret: no cache may keep it', required: true, schema: { const: 'no-store' } };

/** Answers that open a browser session (sign-in, registration, an accepted invitation). */
export const SESSION_OPENED_HEADERS = {
  'Set-Cookie': {
    description: 'the HttpOnly, SameSite=Strict session cookie (Secure behind HTTPS), living as long as the session',
    required: true, schema: { type: 'string', pattern: '^topup_(admin|dashboard)_session=[^;]+; .*HttpOnly; SameSite=Strict' },
  },
  'Cache-Control': NO_STORE,
};

/** The password step of a sign-in: a session as above, or (two-factor) only a challenge and no cookie. */
export const SIGN_IN_HEADERS = {
  'Set-Cookie': { ...SESSION_OPENED_HEADERS['Set-Cookie'], required: false, description: `${SESSION_OPENED_HEADERS['Set-Cookie'].description}; absent when the answer is a two-factor challenge` },
  'Cache-Control': NO_STORE,
};

/** Sign-out: the session cookie cleared. */
export const SESSION_CLOSED_HEADERS = {
  'Set-Cookie': { description: 'the session cookie cleared (empty, Max-Age=0)', required: true, schema: { type: 'string', pattern: '^topup_(admin|dashboard)_session=; .*Max-Age=0' } },
};

/** GET /auth/session: it carries the CSRF token. */
export const NO_STORE_HEADERS = { 'Cache-Control': NO_STORE };

export function errorEnvelope(codes: ErrorCode[]): Schema {
  return {
    type: 'object',
    required: ['success', 'error', 'message', 'request_id'],
    properties: {
      success: { const: false },
      error: { type: 'string', enum: codes, description: 'stable machine-readable code: branch on this' },
      message: { type: 'string', description: 'human text; may change, never match on it' },
      request_id: { type: 'string', description: 'equals the X-Request-Id response header' },
    },
  };
}

export function successEnvelope(data: Schema, meta?: Schema): Schema {
  return {
    type: 'object',
    required: ['success', 'data', ...(meta ? ['meta'] : [])],
    properties: { success: { const: true }, data, ...(meta ? { meta } : {}) },
  };
}

/**
 * One response per HTTP status, whose body's `error` is an enum of exactly the codes the
 * operation can answer with at that status. `headers(status)` adds per-status headers.
 */
export function errorResponses(errors: DocumentedError[], headers: (status: number) => Record<string, unknown>): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const e of new Set(errors)) {
    const list = byStatus.get(statusOf(e)) ?? [];
    if (!list.includes(codeOf(e))) list.push(codeOf(e));
    byStatus.set(statusOf(e), list);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      // Backticks: renderers read descriptions as Markdown, where _ would start emphasis.
      description: codes.map((c) => `\`${c}\``).join(', '),
      headers: headers(status),
      content: { 'application/json': { schema: errorEnvelope(codes) } },
    };
  }
  return out;
}

/** Fastify `:id` and OpenAPI `{id}` name the same thing. */
export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Query or path parameters from an object schema of their names. */
export function parametersOf(where: 'query' | 'path', schema: TSchema | undefined): Schema[] {
  if (!schema) return [];
  const s = plain(schema) as { properties?: Record<string, Schema>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop as Schema & { description?: string };
    return { name, in: where, required: where === 'path' || (s.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest };
  });
}
