import type { ApiErrorCode } from './types.js';
import type { RateLimitState } from './response.js';

/** Known codes autocomplete; any other string is still accepted (the set is open). */
export type ErrorCode = ApiErrorCode | (string & {});

/** Base of every error the client throws. */
export class TopupError extends Error {
  override name = 'TopupError';
  /** Whether sending the same request again later may succeed (the client already retried as its policy allows). */
  readonly retryable: boolean = false;
}

/** Which kind of refusal a TopupApiError is; each kind has its own class. */
export type ApiErrorKind = 'authentication' | 'validation' | 'not_found' | 'conflict' | 'insufficient_balance' | 'rate_limit' | 'server' | 'unknown';

export interface ApiErrorDetails {
  /** From Retry-After on a 429, in milliseconds. */
  retryAfterMs?: number | null;
  rateLimit?: RateLimitState | null;
  /** Server's clock (its Date header) minus this machine's, in ms; set on TIMESTAMP_EXPIRED. */
  clockSkewMs?: number | null;
}

/**
 * The service answered with its error envelope (or a non-JSON error page from something in
 * between: then `code` is `HTTP_<status>`). Branch on `code` (or the subclass), never on
 * `message`; quote `requestId` to support. Thrown as one of the subclasses below.
 */
export class TopupApiError extends TopupError {
  override name = 'TopupApiError';
  /** The service's `message`, without the code and request id. */
  readonly apiMessage: string;
  readonly kind: ApiErrorKind = 'unknown';
  /** The account's rate-limit state as this answer reported it (null when absent). */
  readonly rateLimit: RateLimitState | null;
  /** On TIMESTAMP_EXPIRED: how far the server's clock is from yours (server − local, ms), from its Date header. */
  readonly clockSkewMs: number | null;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
    readonly requestId: string | null,
    /** From Retry-After on a 429, in milliseconds. */
    readonly retryAfterMs: number | null = null,
    details: Omit<ApiErrorDetails, 'retryAfterMs'> = {},
  ) {
    super(`${code}: ${message}${skewHint(details.clockSkewMs ?? null)}${requestId ? ` (request ${requestId})` : ''}`);
    this.apiMessage = message;
    this.rateLimit = details.rateLimit ?? null;
    this.clockSkewMs = details.clockSkewMs ?? null;
  }
}

function skewHint(skew: number | null): string {
  if (skew === null || Math.abs(skew) < 1000) return '';
  const s = Math.round(Math.abs(skew) / 1000);
  return ` [your clock is about ${s} s ${skew > 0 ? 'behind' : 'ahead of'} the server's (its Date header): synchronise it (NTP); X-Timestamp must be within 5 minutes]`;
}

/** 401 INVALID_API_KEY / INVALID_SIGNATURE, 400 TIMESTAMP_EXPIRED, 403 IP_NOT_WHITELISTED / RESELLER_INACTIVE, 429 TOO_MANY_ATTEMPTS. */
export class TopupAuthenticationError extends TopupApiError {
  override name = 'TopupAuthenticationError';
  override readonly kind = 'authentication';
}
/** 400 / 411 / 413 / 415: the request must change (VALIDATION_ERROR, INVALID_ID, REGION_LOCK, INVALID_PAGINATION, …). */
export class TopupValidationError extends TopupApiError {
  override name = 'TopupValidationError';
  override readonly kind = 'validation';
}
/** 404: PRODUCT_NOT_FOUND (also an unknown ref_id), GAME_NOT_SUPPORTED. */
export class TopupNotFoundError extends TopupApiError {
  override name = 'TopupNotFoundError';
  override readonly kind = 'not_found';
}
/** 409: DUPLICATE_REF_ID, PRICE_NOT_MATCH. */
export class TopupConflictError extends TopupApiError {
  override name = 'TopupConflictError';
  override readonly kind = 'conflict';
}
/** 402 INSUFFICIENT_BALANCE: top up the wallet first. */
export class TopupInsufficientBalanceError extends TopupApiError {
  override name = 'TopupInsufficientBalanceError';
  override readonly kind = 'insufficient_balance';
}
/** 429 RATE_LIMIT_EXCEEDED: wait `retryAfterMs`. Retryable. */
export class TopupRateLimitError extends TopupApiError {
  override name = 'TopupRateLimitError';
  override readonly kind = 'rate_limit';
  override readonly retryable = true;
}
/** 5xx (503 ORDER_FAILED_SUPPLIER_GATE, CHECKER_UNAVAILABLE, 500, a proxy's 502): nothing was done. Retryable. */
export class TopupServerError extends TopupApiError {
  override name = 'TopupServerError';
  override readonly kind = 'server';
  override readonly retryable = true;
}

const AUTH_CODES: ReadonlySet<string> = new Set(['INVALID_API_KEY', 'INVALID_SIGNATURE', 'TIMESTAMP_EXPIRED', 'IP_NOT_WHITELISTED', 'RESELLER_INACTIVE', 'TOO_MANY_ATTEMPTS']);

/** The class for an answer's status and code. */
export function apiErrorClass(status: number, code: string): typeof TopupApiError {
  if (AUTH_CODES.has(code)) return TopupAuthenticationError;
  if (status === 429) return TopupRateLimitError;
  if (status >= 500) return TopupServerError;
  if (status === 402) return TopupInsufficientBalanceError;
  if (status === 404) return TopupNotFoundError;
  if (status === 409) return TopupConflictError;
  if (status === 400 || status === 411 || status === 413 || status === 415 || status === 422) return TopupValidationError;
  return TopupApiError;
}

export type TransportErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'DEADLINE_EXCEEDED';

/**
 * No answer: the connection failed or the attempt timed out (`code` NETWORK_ERROR or
 * TIMEOUT) after the retries allowed, the call's `deadlineMs` passed (DEADLINE_EXCEEDED) or
 * its signal aborted it (ABORTED). For POST /order the outcome is unknown: call placeOrder
 * again with the same ref_id and `{ resume: true }` (never a new ref_id).
 */
export class TopupTransportError extends TopupError {
  override name = 'TopupTransportError';
  override readonly retryable: boolean;
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryable = code === 'NETWORK_ERROR' || code === 'TIMEOUT';
  }
}
