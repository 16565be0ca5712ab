import type { ApiErrorCode } from './types.js';

/** Known codes autocomplete; any other string is still accepted (the set is open). */
export type ErrorCode = ApiErrorCode | (string & {});

/** Base of every error the client throws. */
export class TopupError extends Error {
  override name = 'TopupError';
}

/**
 * The service answered with its error envelope (or a non-JSON error page from something in
 * between: then `code` is `HTTP_<status>`). Branch on `code`, never on `message`; quote
 * `requestId` to support.
 */
export class TopupApiError extends TopupError {
  override name = 'TopupApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
    readonly requestId: string | null,
    /** From Retry-After on a 429, in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.apiMessage = message;
  }
  /** The service's `message`, without the code and request id. */
  readonly apiMessage: string;
}

/**
 * No answer: the connection failed or the attempt timed out (`code` NETWORK_ERROR or
 * TIMEOUT), after the retries allowed. For POST /order the outcome is unknown: call
 * placeOrder again with the same ref_id and `{ resume: true }` (never a new ref_id).
 */
export class TopupTransportError extends TopupError {
  override name = 'TopupTransportError';
  constructor(
    readonly code: 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
