import { Type, type TSchema } from '@sinclair/typebox';
import { PageMeta } from '../schemas.js';
import { addExamples, hoistSharedShapes } from './components.js';
import { RESELLER_EXAMPLES, RESELLER_SHAPE_NAMES } from './reseller-examples.js';
import * as S from './reseller-schemas.js';
import { resellerCodeSamples } from './reseller-code-samples.js';
import { errorResponses, EVERY_ANSWER_HEADERS, LICENSE, parametersOf, plain, REQUEST_ID_HEADER, successEnvelope, type DocumentedError, type OpenApiDocument, type Schema } from './shared.js';

/**
 * The reseller API v1 as an OpenAPI 3.1 document, declared by hand: its routes parse by hand
 * (the body must be verified against its signature before it is parsed), so there is no
 * registry to build it from. The drift checks in test/docs keep it equal to what is served.
 */

// TOO_MANY_ATTEMPTS: a failing request after its address or key failed authentication too often (docs/reseller-api.md).
const AUTH: DocumentedError[] = ['INVALID_API_KEY', 'INVALID_SIGNATURE', 'TIMESTAMP_EXPIRED', 'IP_NOT_WHITELISTED', 'RESELLER_INACTIVE', 'TOO_MANY_ATTEMPTS'];
const POST_TRANSPORT: DocumentedError[] = ['LENGTH_REQUIRED', 'PAYLOAD_TOO_LARGE', 'INVALID_CONTENT_TYPE'];
const PAGE_ERRORS: DocumentedError[] = ['INVALID_PAGINATION'];
const RANGE_ERRORS: DocumentedError[] = ['INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'];

const digits = (description: string) => ({ description, required: true, schema: { type: 'string', pattern: '^\\d+$' } });
const RATE_HEADERS = {
  'X-RateLimit-Limit': digits("the tier's requests per minute"),
  'X-RateLimit-Remaining': digits("requests left in the current window, for the whole account (all servers)"),
  'X-RateLimit-Reset': digits('seconds until the current window ends'),
};
const CATALOG_CACHE_HEADERS = {
  'Cache-Control': { description: 'per-reseller; a shared cache must key on X-Api-Key', required: true, schema: { const: 'private, max-age=60, must-revalidate' } },
  Vary: { required: true, schema: { const: 'X-Api-Key' } },
};
const DEPRECATION_HEADERS = {
  Deprecation: { required: true, schema: { const: 'true' } },
  Link: { required: true, schema: { const: '</api/v1/order-status>; rel="successor-version"' } },
};

interface Endpoint {
  method: 'get' | 'post';
  path: string;
  summary: string;
  description?: string;
  tag: string;
  query?: TSchema;
  body?: TSchema;
  data: TSchema;
  paged?: boolean;
  /** The endpoint's own codes, besides authentication, transport and INTERNAL_ERROR. */
  errors: DocumentedError[];
  /** Additional headers of the 200 response. */
  headers?: Record<string, unknown>;
  deprecated?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/categories', tag: 'Catalog', summary: 'Game categories with the input form to show your end user',
    description: 'Only categories with at least one product available to you, in display order. Map role account_id to target and role server to zone.',
    data: Type.Object({ categories: Type.Array(S.Category) }), errors: ['VALIDATION_ERROR'], headers: CATALOG_CACHE_HEADERS,
  },
  {
    method: 'get', path: '/products', tag: 'Catalog', summary: 'Products (denominations) assigned to you, with your tier price',
    query: S.ProductsQuery, data: Type.Object({ products: Type.Array(S.Product) }), paged: true,
    errors: ['VALIDATION_ERROR', ...PAGE_ERRORS], headers: CATALOG_CACHE_HEADERS,
  },
  {
    method: 'post', path: '/order', tag: 'Orders', summary: 'Place a top-up order (asynchronous; idempotent on ref_id)',
    description: 'Exempt from rate limiting. Checks run in this order: body rules, DUPLICATE_REF_ID, PRODUCT_NOT_FOUND, zone, PRICE_NOT_MATCH, ORDER_FAILED_SUPPLIER_GATE, the pre-order ID check (INVALID_ID, REGION_LOCK, PURCHASE_LIMIT: no order, ref_id reusable), INSUFFICIENT_BALANCE. Unknown body fields are VALIDATION_ERROR.',
    body: S.OrderBody, data: S.OrderCreated,
    errors: ['VALIDATION_ERROR', 'PRICE_NOT_MATCH', 'DUPLICATE_REF_ID', 'INSUFFICIENT_BALANCE', 'PRODUCT_NOT_FOUND', 'ORDER_FAILED_SUPPLIER_GATE', 'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT'],
  },
  {
    method: 'post', path: '/validation', tag: 'Orders', summary: 'Check a game account before ordering (same checker as the pre-order check)',
    description: 'Answers 200 whatever the verdict; `target` and `zone` are exactly what to send in POST /order.',
    body: S.ValidationBody, data: S.ValidationResult,
    errors: ['VALIDATION_ERROR', 'GAME_NOT_SUPPORTED', 'VALIDATION_FIELDS_MISSING', 'CHECKER_UNAVAILABLE'],
  },
  {
    method: 'get', path: '/order-status', tag: 'Orders', summary: 'One order by ref_id',
    description: 'A fallback when a callback was missed. An unknown ref_id is 404 PRODUCT_NOT_FOUND (the message says the order was not found).',
    query: S.RefIdQueryParams, data: S.Order, errors: ['VALIDATION_ERROR', 'REF_ID_REQUIRED', 'PRODUCT_NOT_FOUND'],
  },
  {
    method: 'post', path: '/check-status', tag: 'Orders', summary: 'Deprecated: use GET /order-status', deprecated: true,
    description: 'The predecessor of GET /order-status: ref_id in a signed JSON body (or the query).',
    body: S.RefIdBody, data: S.Order, errors: ['VALIDATION_ERROR', 'REF_ID_REQUIRED', 'PRODUCT_NOT_FOUND'], headers: DEPRECATION_HEADERS,
  },
  {
    method: 'get', path: '/orders', tag: 'Orders', summary: 'Order history, newest first',
    query: S.OrdersQuery, data: Type.Object({ orders: Type.Array(S.Order) }), paged: true,
    errors: ['VALIDATION_ERROR', ...PAGE_ERRORS, ...RANGE_ERRORS, 'INVALID_STATUS_FILTER'],
  },
  {
    method: 'get', path: '/balance', tag: 'Wallet', summary: 'Current balance', data: S.Balance, errors: ['VALIDATION_ERROR'],
  },
  {
    method: 'get', path: '/wallet-history', tag: 'Wallet', summary: 'Wallet ledger, newest first',
    query: S.WalletQuery, data: Type.Object({ entries: Type.Array(S.LedgerEntry) }), paged: true,
    errors: ['VALIDATION_ERROR', ...PAGE_ERRORS, ...RANGE_ERRORS],
  },
  {
    method: 'get', path: '/callbacks', tag: 'Callbacks', summary: "Delivery log of an order's callbacks (additive to the spec)",
    query: S.RefIdQueryParams, data: S.CallbackLog, errors: ['VALIDATION_ERROR', 'REF_ID_REQUIRED', 'PRODUCT_NOT_FOUND'],
  },
  {
    method: 'post', path: '/callbacks/resend', tag: 'Callbacks', summary: 'Queue a new round of callback attempts for a success or failed order (additive to the spec)',
    description: 'A processing order answers 400 VALIDATION_ERROR.',
    body: S.RefIdBody, data: S.CallbackResent, errors: ['VALIDATION_ERROR', 'REF_ID_REQUIRED', 'PRODUCT_NOT_FOUND'],
  },
];

function errorHeaders(status: number) {
  return {
    'X-Request-Id': REQUEST_ID_HEADER,
    ...EVERY_ANSWER_HEADERS,
    ...RATE_HEADERS,
    ...(status === 429 ? { 'Retry-After': digits('seconds until the window ends') } : {}),
  };
}

function operation(e: Endpoint): Schema {
  const errors: DocumentedError[] = [
    ...AUTH,
    // The spec rate-limits GET endpoints only (Limits), so no POST documents RATE_LIMIT_EXCEEDED.
    ...(e.method === 'get' ? (['RATE_LIMIT_EXCEEDED'] as const) : []),
    ...(e.method === 'post' ? POST_TRANSPORT : []),
    ...e.errors,
    'INTERNAL_ERROR',
  ];
  return {
    operationId: `${e.method}${e.path.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    tags: [e.tag],
    ...(e.deprecated ? { deprecated: true } : {}),
    'x-codeSamples': resellerCodeSamples(e.method, e.path),
    parameters: parametersOf('query', e.query),
    ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(e.body) } } } } : {}),
    responses: {
      200: {
        description: 'success',
        headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...EVERY_ANSWER_HEADERS, ...RATE_HEADERS, ...e.headers },
        content: { 'application/json': { schema: successEnvelope(plain(e.data), e.paged ? { $ref: '#/components/schemas/PageMeta' } : undefined) } },
      },
      // A deprecated endpoint says so on every answer, errors included (reseller-api.ts).
      ...errorResponses(errors, (status) => ({ ...errorHeaders(status), ...(e.deprecated ? DEPRECATION_HEADERS : {}) })),
    },
  };
}

const SIGNING = [
  'Every request carries X-Api-Key, X-Timestamp (Unix time in milliseconds, within 5 minutes of server time) and X-Signature:',
  'lowercase hex HMAC-SHA256 keyed with the API secret, over the timestamp string alone for GET, and over the exact JSON body bytes as sent followed directly by the timestamp string for POST.',
  'The calling IP must be in the key\'s IP whitelist. POST bodies need Content-Type: application/json and a Content-Length of at most 4096 bytes.',
].join(' ');

const TAGS = [
  { name: 'Catalog', description: 'Games with the input form to show your end user, and the products (denominations) you can order at your tier price.' },
  { name: 'Orders', description: 'Check an account, place an order (asynchronous, idempotent on ref_id), and read orders back.' },
  { name: 'Wallet', description: 'Your balance and the ledger of every debit, refund and credit.' },
  { name: 'Callbacks', description: 'The order callback sent to your callback URL, its delivery log, and resending it.' },
];

export function buildResellerDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method] = operation(e);
  const doc = assemble(paths);
  hoistSharedShapes(doc, RESELLER_SHAPE_NAMES, { everyNamed: true });
  for (const [name, example] of Object.entries(RESELLER_EXAMPLES.schemas)) doc.components.schemas[name].examples = [example];
  addExamples(doc);
  return doc;
}

function assemble(paths: OpenApiDocument['paths']): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reseller top-up API',
      version: '1.0.0',
      license: LICENSE,
      description: `Game top-ups for approved resellers. Money is a JSON number in major units of the configured currency (GET /balance names it). Errors: branch on the top-level \`error\` code. ${SIGNING}`,
    },
    servers: [{ url: '/api/v1' }],
    tags: TAGS,
    security: [{ apiKey: [], timestamp: [], signature: [] }],
    paths,
    webhooks: {
      orderCallback: {
        post: {
          operationId: 'orderCallback',
          tags: ['Callbacks'],
          security: [],
          summary: 'Order callback: sent when an order reaches success or failed',
          description: 'POST to your callback URL; answer any 2xx within 5 seconds. Up to 4 attempts (T+0, 5, 15, 30 s). Verify X-Signature over the raw body followed by X-Timestamp (or the timestamp alone); match on ref_id. Delivery is at-least-once: a crash of the service mid-attempt can deliver one round twice with the same X-Callback-Id, so deduplicate on X-Callback-Id (a resend is a new round with a new id). Unknown keys may appear: ignore them.',
          parameters: [
            { name: 'X-Signature', in: 'header', required: true, description: 'lowercase hex HMAC-SHA256 of body + X-Timestamp, keyed with your API secret', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
            { name: 'X-Timestamp', in: 'header', required: true, description: 'Unix time in milliseconds of this attempt', schema: { type: 'string', pattern: '^\\d+$' } },
            { name: 'X-Callback-Id', in: 'header', required: true, description: 'one id per delivery round, the same on each of its attempts and on a repeat after a crash: deduplicate on it', schema: { type: 'string' } },
            { name: 'X-Callback-Attempt', in: 'header', required: true, description: '1 to 4', schema: { type: 'string', pattern: '^[1-4]$' } },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: plain(S.CallbackPayload), example: RESELLER_EXAMPLES.callback } } },
          responses: { '2XX': { description: 'received; any other answer or none within 5 seconds is retried' } },
        },
      },
    },
    components: {
      schemas: { PageMeta: plain(PageMeta) },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'your API key (dashboard: Settings > API Keys)' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'current Unix time in milliseconds, as a string; within 5 minutes of server time' },
        signature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: SIGNING },
      },
    },
  };
}
