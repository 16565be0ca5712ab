import { OPERATOR_ROLES, roleList } from '../../domain/operator-roles.js';
import { ROUTES_BEFORE_ENROLMENT } from '../../domain/two-factor.js';
import type { JsonApiName, RouteDoc, RouteRegistry } from '../json-api.js';
import { PageMeta } from '../schemas.js';
import { addExamples, hoistSharedShapes } from './components.js';
import { JSON_API_SHAPE_NAMES, JSON_API_TAGS } from './json-api-names.js';
import { CSV_HEADERS, errorResponses, EVERY_ANSWER_HEADERS, LICENSE, parametersOf, plain, REQUEST_ID_HEADER, successEnvelope, type DocumentedError, type OpenApiDocument } from './shared.js';

const TITLES: Record<JsonApiName, { title: string; prefix: string; description: string }> = {
  admin: {
    title: 'Top-up operator API',
    prefix: '/admin/v1',
    description: 'The operator API: resellers, catalog, suppliers, orders and wallets. Sign in with POST /auth/sign-in, then send `Authorization: Bearer <token>` (scripts) or let the browser send the `topup_admin_session` cookie (state-changing requests then need `X-CSRF-Token`).',
  },
  dashboard: {
    title: 'Top-up reseller dashboard API',
    prefix: '/dashboard/v1',
    description: 'The reseller self-service API (registration, API keys, IP whitelist, callback URL, orders and wallet) behind the dashboard. Sessions, not the HMAC signature of API v1: `Authorization: Bearer <token>` (scripts) or the `topup_dashboard_session` cookie (browsers; state-changing requests then need `X-CSRF-Token`).',
  },
};

/** Codes any route of a session API can answer, besides the ones it declares. */
function commonErrors(route: RouteDoc): DocumentedError[] {
  return [
    ...(route.auth ? (['UNAUTHENTICATED'] as const) : []),
    ...(refusesSomeRole(route) ? (['FORBIDDEN_ROLE'] as const) : []),
    ...(waitsForEnrolment(route) ? (['TWO_FACTOR_ENROLMENT_REQUIRED'] as const) : []),
    'VALIDATION_ERROR',
    ...(route.method !== 'GET' ? (['INVALID_CONTENT_TYPE', 'PAYLOAD_TOO_LARGE', 'CSRF_REJECTED'] as const) : []),
    'INTERNAL_ERROR',
  ];
}

const idempotencyKey = {
  name: 'Idempotency-Key', in: 'header', required: false,
  description: 'any unique text of 1 to 255 characters (a UUID is a good key), scoped to the signed-in operator and kept 24 hours. '
    + 'The same key with the same request answers the first result again (header Idempotent-Replayed: true) without applying it twice; '
    + 'with a different path or body it answers 422 IDEMPOTENCY_KEY_REUSED. Requests racing with one key wait for the first and answer its result; '
    + 'the change and its kept answer commit together, so a crash leaves both or neither. 409 IDEMPOTENCY_KEY_IN_PROGRESS: a key an earlier version recorded without its answer.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const replayed = { description: '"true" when this is the first answer given again for a repeated Idempotency-Key', schema: { type: 'string', enum: ['true'] } };

const retryAfter = { description: 'seconds to wait before the next attempt', required: true, schema: { type: 'string', pattern: '^\\d+$' } };

/** An operator route that some role may not call (so it can answer 403 FORBIDDEN_ROLE). */
const refusesSomeRole = (route: RouteDoc) => !!route.access && route.access.roles.length < OPERATOR_ROLES.length;

/** An operator route refused to an operator who must enrol in two-factor sign-in first (OPERATOR_2FA_REQUIRED). */
const waitsForEnrolment = (route: RouteDoc) => !!route.access && !ROUTES_BEFORE_ENROLMENT.has(`${route.method} ${route.path.slice(TITLES.admin.prefix.length)}`);

/** The sentence each operator operation's description ends with: who may call it. */
function rolesSentence(route: RouteDoc): string | null {
  if (!route.access) return null;
  return refusesSomeRole(route)
    ? `Roles: ${roleList(route.access.roles)} (permission \`${route.access.permission}\`); other operators get 403 FORBIDDEN_ROLE.`
    : `Roles: any operator (permission \`${route.access.permission}\`).`;
}

function operation(route: RouteDoc) {
  const description = [route.description, rolesSentence(route)].filter(Boolean).join('\n\n');
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    ...(description ? { description } : {}),
    ...(route.access ? { 'x-roles': [...route.access.roles], 'x-permission': route.access.permission } : {}),
    tags: [route.tag],
    security: route.auth ? [{ bearer: [] }, { cookie: [] }] : [],
    parameters: [...parametersOf('path', route.params), ...parametersOf('query', route.query), ...(route.idempotent ? [idempotencyKey] : [])],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(route.body) } } } } : {}),
    responses: {
      [route.status]: {
        description: route.status === 202 ? 'accepted: what follows happens later' : 'success',
        headers: {
          'X-Request-Id': REQUEST_ID_HEADER, ...EVERY_ANSWER_HEADERS, ...(route.idempotent ? { 'Idempotent-Replayed': replayed } : {}),
          ...(route.produces === 'csv' ? CSV_HEADERS : {}), ...route.headers,
        },
        content: route.produces === 'csv'
          ? { 'text/csv': { schema: { type: 'string', description: 'UTF-8 CSV with a header row, sent as an attachment' } } }
          : { 'application/json': { schema: successEnvelope(plain(route.response), route.paged ? { $ref: '#/components/schemas/PageMeta' } : undefined) } },
      },
      ...(route.accepted ? {
        202: {
          description: route.accepted.description,
          headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...EVERY_ANSWER_HEADERS, ...(route.idempotent ? { 'Idempotent-Replayed': replayed } : {}) },
          content: { 'application/json': { schema: successEnvelope(plain(route.accepted.response)) } },
        },
      } : {}),
      ...errorResponses([...commonErrors(route), ...route.errors, ...(route.idempotent ? (['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS'] as const) : [])], (status) => ({
        'X-Request-Id': REQUEST_ID_HEADER,
        ...EVERY_ANSWER_HEADERS,
        ...(status === 429 ? { 'Retry-After': retryAfter } : {}),
      })),
    },
  };
}

/** The OpenAPI 3.1 document of one session API, from the routes its kit declared. */
export function buildJsonApiDocument(registry: RouteRegistry, api: JsonApiName): OpenApiDocument {
  const meta = TITLES[api];
  const paths: OpenApiDocument['paths'] = {};
  const routes = registry.of(api);
  for (const route of routes) {
    const path = route.path.slice(meta.prefix.length) || '/';
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: JSON_API_TAGS[name] ?? name }));
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: meta.title, version: '1.0.0', license: LICENSE, description: meta.description },
    servers: [{ url: meta.prefix }],
    tags,
    paths,
    components: {
      schemas: { PageMeta: plain(PageMeta) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'the session token from POST /auth/sign-in' },
        cookie: {
          type: 'apiKey', in: 'cookie', name: api === 'admin' ? 'topup_admin_session' : 'topup_dashboard_session',
          description: 'the HttpOnly session cookie set at sign-in; POST, PUT, PATCH and DELETE also need the header X-CSRF-Token (csrf_token) and, from a browser, this service as Origin (else 403 CSRF_REJECTED)',
        },
      },
    },
  };
  hoistSharedShapes(doc, JSON_API_SHAPE_NAMES);
  addExamples(doc);
  return doc;
}
