/** The account's rate-limit window as an answer's X-RateLimit-* headers reported it. */
export interface RateLimitState {
  /** Requests per minute of your tier (GET endpoints count; POSTs only show the state). */
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** When it resets, in ms since the epoch (local clock). */
  resetAt: number;
}

/** What every answer says besides its data: on each result as `$response`, and on hooks. */
export interface ResponseInfo {
  status: number;
  /** X-Request-Id (or the envelope's request_id): quote it to support. */
  requestId: string | null;
  rateLimit: RateLimitState | null;
  /** Attempts made, 1 when the first one answered. */
  attempts: number;
  /** The server's Date header in ms since the epoch (second precision), or null. */
  serverDate: number | null;
  headers: Headers;
}

/** Reads X-RateLimit-Limit/-Remaining/-Reset; null when the answer has none. */
export function parseRateLimit(headers: Headers, now: number): RateLimitState | null {
  const limit = Number(headers.get('x-ratelimit-limit') ?? NaN);
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? NaN);
  const reset = Number(headers.get('x-ratelimit-reset') ?? NaN);
  if (![limit, remaining, reset].every(Number.isFinite)) return null;
  return { limit, remaining, resetSeconds: reset, resetAt: now + reset * 1000 };
}

/**
 * Attaches `$response` to a result without changing it: not enumerable, so JSON,
 * spreading and deep equality see the data exactly as before.
 */
export function withResponse<T>(data: T, info: ResponseInfo): T & { readonly $response: ResponseInfo } {
  if (data !== null && typeof data === 'object') Object.defineProperty(data, '$response', { value: info, enumerable: false, configurable: true });
  return data as T & { readonly $response: ResponseInfo };
}

/** The response information of a result the client returned (the same as `result.$response`). */
export function responseOf(result: unknown): ResponseInfo | undefined {
  return result !== null && typeof result === 'object' ? (result as { $response?: ResponseInfo }).$response : undefined;
}
