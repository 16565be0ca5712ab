import { rawRequest, type ApiResponse } from './client.js';
import type { TestApp } from './app.js';
import { checkServedResponse } from './openapi.js';

/** A client of the session-authenticated JSON APIs (operator /admin/v1, reseller /dashboard/v1). */
export class JsonClient {
  constructor(
    readonly baseUrl: string,
    public token: string | null = null,
  ) {}

  /** Every response is checked against the served OpenAPI document (test/support/openapi.ts). */
  async request(method: string, path: string, body?: unknown, headers: Record<string, string | null> = {}): Promise<ApiResponse> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const r = await rawRequest(`${this.baseUrl}${path}`, {
      method,
      body: text,
      headers: {
        ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
    });
    return checkServedResponse(this.baseUrl, method, path, r);
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body: unknown = {}) => this.request('POST', path, body);
  put = (path: string, body: unknown = {}) => this.request('PUT', path, body);
  patch = (path: string, body: unknown = {}) => this.request('PATCH', path, body);
  delete = (path: string) => this.request('DELETE', path);

  /** Signs in and keeps the token for later requests. */
  async signIn(email: string, password: string): Promise<ApiResponse> {
    const r = await this.post('/auth/sign-in', { email, password });
    if (r.status === 200) this.token = r.body.data.token;
    return r;
  }
}

/** Signs in as the first operator (created on demand) and returns an operator API client. */
export async function operatorClient(t: TestApp): Promise<JsonClient> {
  const first = await t.platform.operator.operators.ensureFirst();
  const creds = first ?? (await t.platform.operator.operators.create(`op-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`, 'Test operator'));
  const c = new JsonClient(`${t.origin}/admin/v1`);
  const r = await c.signIn(creds.email, creds.password);
  if (r.status !== 200) throw new Error(`operator sign-in failed: ${r.text}`);
  return c;
}
