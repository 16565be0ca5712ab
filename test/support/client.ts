import http from 'node:http';
import { sign } from '../../src/domain/signature.js';
import { recordSecret } from './log-audit.js';
import { checkServedResponse } from './openapi.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

/**
 * A reseller's HTTP client written from the spec alone: signs GET with the timestamp, POST
 * with body + timestamp. Uses node:http so tests control every header (Content-Length,
 * chunked encoding) exactly.
 */
export class ResellerClient {
  private signaturesRecorded = 0;

  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
    readonly apiSecret: string,
  ) {
    recordSecret('API secret', apiSecret);
    recordSecret('API key', apiKey);
  }

  /** Signs, and lets the log audit look for the first few signatures of each client. */
  private sign(ts: string, body?: string) {
    const signature = sign(this.apiSecret, ts, body);
    if (this.signaturesRecorded++ < 3) recordSecret('request signature', signature);
    return signature;
  }

  /** Every response is checked against the served OpenAPI document (test/support/openapi.ts). */
  async get(pathAndQuery: string, opts: RequestOptions = {}) {
    const ts = opts.timestamp ?? String(Date.now());
    const r = await rawRequest(`${this.baseUrl}${pathAndQuery}`, {
      method: 'GET',
      headers: { 'x-api-key': this.apiKey, 'x-timestamp': ts, 'x-signature': this.sign(ts), ...opts.headers },
    });
    return checkServedResponse(this.baseUrl, 'GET', pathAndQuery, r);
  }

  async post(path: string, body: unknown, opts: RequestOptions = {}) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const ts = opts.timestamp ?? String(Date.now());
    const r = await rawRequest(`${this.baseUrl}${path}`, {
      method: 'POST',
      body: text,
      headers: {
        'content-type': 'application/json',
        'x-api-key': this.apiKey,
        'x-timestamp': ts,
        'x-signature': this.sign(ts, text),
        ...opts.headers,
      },
    });
    return checkServedResponse(this.baseUrl, 'POST', path, r);
  }
}

export interface RequestOptions {
  timestamp?: string;
  /** Overrides; a value of null removes the header. */
  headers?: Record<string, string | null>;
}

export function rawRequest(
  url: string,
  opts: { method: string; headers?: Record<string, string | null>; body?: string | Buffer; chunked?: boolean },
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== null) headers[k.toLowerCase()] = v;
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
    if (body && !opts.chunked && !('content-length' in headers) && opts.headers?.['content-length'] !== null) {
      headers['content-length'] = String(body.length);
    }
    const req = http.request(url, { method: opts.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
