import { rawRequest, type ApiResponse } from './client.js';
import type { TestApp } from './app.js';
import { recordSecret } from './log-audit.js';
import { checkServedResponse } from './openapi.js';

/** Secrets the session APIs hand out once (tokens, passwords, API secrets): the log audit looks for them. */
function recordSecretsIn(value: unknown, key = ''): void {
  if (typeof value === 'string') {
    if (/secret|password|token/i.test(key)) recordSecret(key, value);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) recordSecretsIn(v, k);
  }
}

/** A client of the session-authenticated JSON APIs (operator /admin/v1, reseller /dashboard/v1). */
export class JsonClient {
  constructor(
    readonly baseUrl: string,
    public token: string | null = null,
  ) {}

  /** Every response is checked against the served OpenAPI document (test/support/openapi.ts). */
  async request(method: string, path: string, body?: unknown, headers: Record<string, string | null> = {}): Promise<ApiResponse> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (body && typeof body === 'object') recordSecretsIn(body);
    const response = await rawRequest(`${this.baseUrl}${path}`, {
      method,
      body: text,
      headers: {
        ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
    });
    recordSecretsIn(response.body);
    return checkServedResponse(this.baseUrl, method, path, response);
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
  const creds = first ?? (await t.platform.operator.operators.create(`op-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`, 'Test operator', undefined, ['owner']));
  const c = new JsonClient(`${t.origin}/admin/v1`);
  const r = await c.signIn(creds.email, creds.password);
  if (r.status !== 200) throw new Error(`operator sign-in failed: ${r.text}`);
  return c;
}
