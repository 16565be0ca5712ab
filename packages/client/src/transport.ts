import { signRequest } from './crypto.js';
import { TopupTransportError } from './errors.js';
import { parseRateLimit, type RateLimitState } from './response.js';
import { VERSION } from './version.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). 0 turns retrying off. */
  max?: number;
  /** First backoff after a network error or 5xx; doubles each retry, with jitter (default 250 ms). */
  baseDelayMs?: number;
  /** Longest backoff between two attempts (default 5 s). */
  maxDelayMs?: number;
  /** A 429 whose Retry-After asks for longer than this is thrown at once, not waited for (default 30 s). */
  maxRetryAfterMs?: number;
}

/** One attempt about to be sent. `headers` may be added to (trace context); the signed ones are set again after. */
export interface RequestHookInfo {
  method: string;
  url: string;
  /** The API path without the query, e.g. `/order-status`. */
  path: string;
  attempt: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** One attempt's outcome: an answer (`status`) or a transport failure (`error`). */
export interface ResponseHookInfo extends RequestHookInfo {
  status: number | null;
  requestId: string | null;
  rateLimit: RateLimitState | null;
  durationMs: number;
  error?: TopupTransportError;
}

/** Logging and tracing: called for every attempt. A hook that throws is ignored (it never fails a call). */
export interface Hooks {
  onRequest?(info: RequestHookInfo): void | Promise<void>;
  onResponse?(info: ResponseHookInfo): void | Promise<void>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Per attempt, in milliseconds (default 15 s). */
  timeoutMs?: number;
  /** Each call's overall budget, retries and waits included (default none). */
  deadlineMs?: number;
  retries?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch for X-Timestamp (default Date.now). */
  now?: () => number;
  /** Your application, put before the SDK's own in User-Agent, e.g. `acme-shop/2.1`. */
  userAgent?: string;
  hooks?: Hooks;
}

export interface CallOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /**
   * This call's overall budget in ms, every attempt and wait included; past it the call
   * throws TopupTransportError DEADLINE_EXCEEDED (or the last answer's error, when the
   * budget runs out while waiting to retry). Overrides the client's `deadlineMs`.
   */
  deadlineMs?: number;
  /** Overrides the client's retry options for this call (`{ max: 0 }`: no retry). */
  retries?: RetryOptions;
}

/**
 * What may be retried: `safe` (reads) retries network errors, timeouts, 5xx and 429;
 * `order` the same, always with the identical body (so the same ref_id); `none` only 429
 * (a refused request did nothing, so waiting and sending it again is safe).
 */
export type RetryPolicy = 'safe' | 'order' | 'none';

export interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  requestId: string | null;
  /** Attempts made, 1 when the first one answered. */
  attempts: number;
  rateLimit: RateLimitState | null;
  /** The Date header, ms since the epoch; null when absent. */
  serverDate: number | null;
  /** This machine's clock when the answer arrived. */
  receivedAt: number;
  /** The X-Timestamp the answered attempt was signed with. */
  signedAt: number;
}

const aborted = (signal: AbortSignal) => new TopupTransportError('ABORTED', 'aborted by the caller', { cause: signal.reason });

/** Waits `ms`, or rejects ABORTED when the signal fires first. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(aborted(signal!));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Retry-After in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const safely = async (f: (() => void | Promise<void>) | undefined) => {
  try {
    await f?.();
  } catch {
    // A logging or tracing hook never fails a call.
  }
};

/** Signs and sends requests; retries as the policy allows. Errors from the API are returned, not thrown. */
export class Transport {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly userAgent: string;
  /** The rate-limit state of the latest answer that carried one. */
  rateLimit: RateLimitState | null = null;

  constructor(private readonly opts: TransportOptions) {
    if (!opts.baseUrl || !opts.apiKey || !opts.apiSecret) throw new TypeError('baseUrl, apiKey and apiSecret are required');
    this.base = opts.baseUrl.replace(/\/+$/, '');
    const f = opts.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('no fetch: pass options.fetch (Node 18+ has a global fetch)');
    this.fetchFn = (...args) => f(...args);
    this.now = opts.now ?? Date.now;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retry = { max: 3, baseDelayMs: 250, maxDelayMs: 5_000, maxRetryAfterMs: 30_000, ...opts.retries };
    const own = `topup-reseller-client/${VERSION}`;
    this.userAgent = opts.userAgent?.trim() ? `${opts.userAgent.trim()} ${own}` : own;
  }

  async send(method: 'GET' | 'POST', path: string, init: { query?: Record<string, unknown>; body?: unknown; policy: RetryPolicy }, call: CallOptions = {}): Promise<RawResponse> {
    const url = this.base + path + queryString(init.query);
    // Serialized once: every attempt sends (and signs) the very same bytes.
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const retry = { ...this.retry, ...call.retries };
    const deadlineMs = call.deadlineMs ?? this.opts.deadlineMs;
    // Deadlines run on the real clock (`now` may be skewed on purpose, for X-Timestamp).
    const deadlineAt = deadlineMs === undefined ? Infinity : Date.now() + deadlineMs;
    const timeLeft = () => deadlineAt - Date.now();
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= retry.max;
      if (timeLeft() <= 0) throw new TopupTransportError('DEADLINE_EXCEEDED', `${method} ${url}: no answer within the call's deadline of ${deadlineMs} ms`);
      // Waits for a retry only when the deadline leaves room for it and an attempt after it.
      const canWait = (ms: number) => canRetry && ms < timeLeft();
      let res: Response;
      let text: string;
      let signedAt: number;
      try {
        ({ res, text, signedAt } = await this.attempt(method, path, url, body, call, attempt, timeLeft(), deadlineMs));
      } catch (err) {
        const e = err as TopupTransportError;
        if (e.code !== 'ABORTED' && e.code !== 'DEADLINE_EXCEEDED' && init.policy !== 'none') {
          const wait = this.backoff(attempt, retry);
          if (canWait(wait)) {
            await sleep(wait, call.signal);
            continue;
          }
        }
        throw err;
      }
      const receivedAt = Date.now();
      const rateLimit = parseRateLimit(res.headers, receivedAt);
      if (rateLimit) this.rateLimit = rateLimit;
      if (res.status === 429) {
        const wait = parseRetryAfter(res.headers.get('retry-after'), this.now()) ?? this.backoff(attempt, retry);
        if (wait <= retry.maxRetryAfterMs && canWait(wait)) {
          await sleep(wait, call.signal);
          continue;
        }
      }
      if (res.status >= 500 && init.policy !== 'none') {
        const wait = this.backoff(attempt, retry);
        if (canWait(wait)) {
          await sleep(wait, call.signal);
          continue;
        }
      }
      let parsed: any = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const requestId = (parsed && typeof parsed.request_id === 'string' ? parsed.request_id : null) ?? res.headers.get('x-request-id');
      const date = Date.parse(res.headers.get('date') ?? '');
      return { status: res.status, headers: res.headers, body: parsed, text, requestId, attempts: attempt, rateLimit, serverDate: Number.isNaN(date) ? null : date, receivedAt, signedAt };
    }
  }

  private backoff(attempt: number, retry: Required<RetryOptions>): number {
    const exp = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }

  /** One signed attempt with its own timestamp, signature and timeout. */
  private async attempt(
    method: string, path: string, url: string, body: string | undefined, call: CallOptions, attempt: number, timeLeft: number, deadlineMs: number | undefined,
  ) {
    const timestamp = String(this.now());
    const auth: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.userAgent,
      'x-api-key': this.opts.apiKey,
      'x-timestamp': timestamp,
      'x-signature': await signRequest(this.opts.apiSecret, timestamp, body ?? ''),
    };
    if (body !== undefined) auth['content-type'] = 'application/json';
    const info: RequestHookInfo = { method, url, path, attempt, headers: { ...auth }, body };
    await safely(this.opts.hooks?.onRequest && (() => this.opts.hooks!.onRequest!(info)));
    const headers = { ...info.headers, ...auth };
    const controller = new AbortController();
    const perAttempt = call.timeoutMs ?? this.timeoutMs;
    // The deadline shortens the last attempt's timeout; its expiry is told apart from a timeout.
    const byDeadline = timeLeft < perAttempt;
    const timeoutMs = Math.max(1, Math.min(perAttempt, timeLeft));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    if (call.signal?.aborted) throw aborted(call.signal);
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const started = Date.now();
    const report = (status: number | null, res: Response | null, error?: TopupTransportError) =>
      safely(this.opts.hooks?.onResponse && (() => this.opts.hooks!.onResponse!({
        ...info, headers, status, durationMs: Date.now() - started, error,
        requestId: res?.headers.get('x-request-id') ?? null,
        rateLimit: res ? parseRateLimit(res.headers, Date.now()) : null,
      })));
    try {
      const res = await this.fetchFn(url, { method, headers, body, signal: controller.signal, redirect: 'manual' });
      // The body is read inside the timeout too: a server that stalls mid-answer is a timeout.
      const text = await res.text();
      await report(res.status, res);
      return { res, text, signedAt: Number(timestamp) };
    } catch (err) {
      let e: TopupTransportError;
      if (timedOut && byDeadline) e = new TopupTransportError('DEADLINE_EXCEEDED', `${method} ${url}: no answer within the call's deadline of ${deadlineMs} ms`, { cause: err });
      else if (timedOut) e = new TopupTransportError('TIMEOUT', `${method} ${url}: no answer within ${timeoutMs} ms`, { cause: err });
      else if (call.signal?.aborted) e = aborted(call.signal);
      else e = new TopupTransportError('NETWORK_ERROR', `${method} ${url}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
      await report(null, null, e);
      throw e;
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}
