import { signRequest } from './crypto.js';
import { TopupTransportError } from './errors.js';

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

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Per attempt, in milliseconds (default 15 s). */
  timeoutMs?: number;
  retries?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch for X-Timestamp (default Date.now). */
  now?: () => number;
}

export interface CallOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
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
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new TopupTransportError('ABORTED', 'aborted by the caller', { cause: signal.reason }));
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(new TopupTransportError('ABORTED', 'aborted by the caller', { cause: signal!.reason }));
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

/** Signs and sends requests; retries as the policy allows. Errors from the API are returned, not thrown. */
export class Transport {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;

  constructor(private readonly opts: TransportOptions) {
    if (!opts.baseUrl || !opts.apiKey || !opts.apiSecret) throw new TypeError('baseUrl, apiKey and apiSecret are required');
    this.base = opts.baseUrl.replace(/\/+$/, '');
    const f = opts.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('no fetch: pass options.fetch (Node 18+ has a global fetch)');
    this.fetchFn = (...args) => f(...args);
    this.now = opts.now ?? Date.now;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retry = { max: 3, baseDelayMs: 250, maxDelayMs: 5_000, maxRetryAfterMs: 30_000, ...opts.retries };
  }

  async send(method: 'GET' | 'POST', path: string, init: { query?: Record<string, unknown>; body?: unknown; policy: RetryPolicy }, call: CallOptions = {}): Promise<RawResponse> {
    const url = this.base + path + queryString(init.query);
    // Serialized once: every attempt sends (and signs) the very same bytes.
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= this.retry.max;
      let res: Response;
      let text: string;
      try {
        ({ res, text } = await this.attempt(method, url, body, call));
      } catch (err) {
        if (err instanceof TopupTransportError && err.code !== 'ABORTED' && canRetry && init.policy !== 'none') {
          await sleep(this.backoff(attempt), call.signal);
          continue;
        }
        throw err;
      }
      if (res.status === 429 && canRetry) {
        const wait = parseRetryAfter(res.headers.get('retry-after'), this.now()) ?? this.backoff(attempt);
        if (wait <= this.retry.maxRetryAfterMs) {
          await sleep(wait, call.signal);
          continue;
        }
      }
      if (res.status >= 500 && canRetry && init.policy !== 'none') {
        await sleep(this.backoff(attempt), call.signal);
        continue;
      }
      let parsed: any = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const requestId = (parsed && typeof parsed.request_id === 'string' ? parsed.request_id : null) ?? res.headers.get('x-request-id');
      return { status: res.status, headers: res.headers, body: parsed, text, requestId, attempts: attempt };
    }
  }

  private backoff(attempt: number): number {
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }

  /** One signed attempt with its own timestamp, signature and timeout. */
  private async attempt(method: string, url: string, body: string | undefined, call: CallOptions) {
    const timestamp = String(this.now());
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-api-key': this.opts.apiKey,
      'x-timestamp': timestamp,
      'x-signature': await signRequest(this.opts.apiSecret, timestamp, body ?? ''),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    if (call.signal?.aborted) throw new TopupTransportError('ABORTED', 'aborted by the caller', { cause: call.signal.reason });
    call.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.fetchFn(url, { method, headers, body, signal: controller.signal, redirect: 'manual' });
      // The body is read inside the timeout too: a server that stalls mid-answer is a timeout.
      const text = await res.text();
      return { res, text };
    } catch (err) {
      if (timedOut) throw new TopupTransportError('TIMEOUT', `${method} ${url}: no answer within ${timeoutMs} ms`, { cause: err });
      if (call.signal?.aborted) throw new TopupTransportError('ABORTED', 'aborted by the caller', { cause: call.signal.reason });
      throw new TopupTransportError('NETWORK_ERROR', `${method} ${url}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
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
