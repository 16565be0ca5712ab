/**
 * The error catalogue: every stable `error` code the APIs can answer with, and its HTTP
 * status. Services throw AppError with a code from here; the HTTP layer turns it into the
 * spec's envelope. Codes are a promise to integrators: add, never rename.
 */
export const ERRORS = {
  // Authentication and access
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  TIMESTAMP_EXPIRED: 400,
  IP_NOT_WHITELISTED: 403,
  RESELLER_INACTIVE: 403,
  RATE_LIMIT_EXCEEDED: 429,
  // Request validation
  VALIDATION_ERROR: 400,
  INVALID_CONTENT_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  LENGTH_REQUIRED: 411, // answered with error PAYLOAD_TOO_LARGE, see lengthRequired()
  INVALID_PAGINATION: 400,
  INVALID_DATE_RANGE: 400,
  DATE_RANGE_TOO_LARGE: 400,
  INVALID_STATUS_FILTER: 400,
  REF_ID_REQUIRED: 400,
  // Orders
  PRICE_NOT_MATCH: 409,
  DUPLICATE_REF_ID: 409,
  INSUFFICIENT_BALANCE: 402,
  PRODUCT_NOT_FOUND: 404,
  ORDER_FAILED_SUPPLIER_GATE: 503,
  INVALID_ID: 400,
  REGION_LOCK: 400,
  PURCHASE_LIMIT: 400,
  // POST /validation
  GAME_NOT_SUPPORTED: 404,
  VALIDATION_FIELDS_MISSING: 400,
  CHECKER_UNAVAILABLE: 503,
  // Operator and dashboard APIs (not in the spec's tables; same envelope)
  UNAUTHENTICATED: 401, // no, unknown or expired session token
  INVALID_CREDENTIALS: 401, // wrong email or password at sign-in
  INVALID_TWO_FACTOR_CODE: 401, // a two-factor or recovery code that is wrong, used already, or outside the one-step window
  TWO_FACTOR_ENROLMENT_REQUIRED: 403, // this operator must turn two-factor sign-in on before anything else (OPERATOR_2FA_REQUIRED)
  FORBIDDEN: 403, // kept in the catalogue; no route answers it now (a session of the other kind is UNAUTHENTICATED)
  FORBIDDEN_ROLE: 403, // the operator's roles do not include one that may do this (the message names them)
  FOUR_EYES_SELF_APPROVAL: 403, // the operator who asked for a four-eyes change cannot approve or reject it
  LAST_OWNER: 409, // the change would leave no operator with the owner role
  CONFLICT: 409, // the name, email or code is already taken
  INVALID_STATE: 409, // the resource's current state does not allow this (e.g. refund of a failed order)
  TOO_MANY_ATTEMPTS: 429, // past an allowance: failed API v1 authentications or sign-ins, guessable checks
  IDEMPOTENCY_KEY_REUSED: 422, // the Idempotency-Key was used with a different request in the last 24 h
  IDEMPOTENCY_KEY_IN_PROGRESS: 409, // a key an earlier version recorded without its answer
  INVALID_INVITATION: 400, // an invitation token that is unknown, used, expired or revoked (one answer for all)
  INVALID_RESET_TOKEN: 400, // a password-reset token that is unknown, used, superseded or expired (one answer for all)
  CSRF_REJECTED: 403, // a browser-session request that changes state without the CSRF token, or from another site
  GATEWAY_UNAVAILABLE: 502, // the payment gateway gave no usable answer (or is not set up): nothing was changed
  SUPPLIER_UNAVAILABLE: 502, // an operator's request to a supplier (price-list sync) got no usable answer
  COST_CHANGED: 409, // a supplier SKU's cost changed since the import preview: preview again
  PREVIEW_STALE: 409, // something else the import preview showed changed (rule, product, route, price): preview again
  // Routing (not in the spec's tables; same envelope)
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = Exclude<keyof typeof ERRORS, 'LENGTH_REQUIRED'>;

export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = opts.status ?? ERRORS[code];
    this.headers = opts.headers ?? {};
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** The spec answers a POST without Content-Length with HTTP 411 but error PAYLOAD_TOO_LARGE. */
export const lengthRequired = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    'Content-Length header is required; chunked transfer encoding is not accepted',
    { status: ERRORS.LENGTH_REQUIRED },
  );
