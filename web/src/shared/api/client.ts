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

type Outcome = { data?: unknown; error?: unknown; response: Response };
/** What a call's success envelope holds in `data`. */
export type DataOf<R extends Outcome> = NonNullable<R['data']> extends { data: infer D } ? D : never;

/** The success envelope of a call, or an ApiError with the API's code and message. */
export async function call<R extends Outcome>(pending: Promise<R>): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data as NonNullable<R['data']>;
  const body = (error ?? {}) as { error?: string; message?: string; request_id?: string };
  throw new ApiError(response.status, body.error ?? `HTTP_${response.status}`, body.message ?? response.statusText, body.request_id ?? null);
}

/** Just `data` of the success envelope. */
export async function callData<R extends Outcome>(pending: Promise<R>): Promise<DataOf<R>> {
  return ((await call(pending)) as unknown as { data: DataOf<R> }).data;
}

/** The session ended (not a wrong password, which is 401 INVALID_CREDENTIALS). */
export const isUnauthenticated = (e: unknown) => e instanceof ApiError && e.status === 401 && e.code === 'UNAUTHENTICATED';

