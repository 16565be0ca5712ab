import createClient, { type Client } from 'openapi-fetch';

/** The API's error envelope, thrown by every call that did not succeed. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/**
 * The CSRF token of the current cookie session: from sign-in or GET /auth/session, kept in
 * memory only (it is no credential by itself; the session cookie is HttpOnly).
 */
let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A typed client of one session API (types generated from its OpenAPI document). Cookies go
 * with every same-origin request; state-changing ones carry X-CSRF-Token.
 */
export function createApiClient<Paths extends {}>(prefix: string): Client<Paths> {
  const client = createClient<Paths>({ baseUrl: prefix, credentials: 'same-origin' });
  client.use({
    onRequest({ request }) {
      if (STATE_CHANGING.has(request.method) && csrfToken) request.headers.set('x-csrf-token', csrfToken);
      return request;
    },
  });
  return client;
}

interface Envelope<T> {
  success: true;
  data: T;
  meta?: unknown;
}

/** The envelope of a successful call, or an ApiError with the API's code and message. */
export async function call<E>(pending: Promise<{ data?: E; error?: unknown; response: Response }>): Promise<E> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  const body = (error ?? {}) as { error?: string; message?: string; request_id?: string };
  throw new ApiError(response.status, body.error ?? `HTTP_${response.status}`, body.message ?? response.statusText, body.request_id ?? null);
}

/** Just `data` of the success envelope. */
export async function callData<T>(pending: Promise<{ data?: Envelope<T>; error?: unknown; response: Response }>): Promise<T> {
  return (await call(pending)).data;
}

export const isUnauthenticated = (e: unknown) => e instanceof ApiError && e.status === 401;
