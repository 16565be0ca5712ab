import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { AppError } from '../errors.js';
import { ROUTES_BEFORE_ENROLMENT } from '../domain/two-factor.js';
import { bearerToken, type AccountPrincipal, type OperatorPrincipal, type Sessions, type SignInDevice } from '../services/sessions.js';
import { parseJsonBody } from './json-body.js';
import {
  assertSameOrigin, changesState, clearSessionCookie, CSRF_HEADER, DEVICE_COOKIES, readCookie, SESSION_COOKIES, setDeviceCookie, setSessionCookie, type BrowserSessionOptions,
} from './browser-session.js';
import { assertMay, operatorRouteAccess, type RouteAccess } from './operator-access.js';

/** The session-authenticated JSON APIs beside the reseller API v1. */
export type JsonApiName = 'admin' | 'dashboard';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Operator and dashboard bodies (category forms, notes) are larger than an order. */
export const JSON_API_BODY_LIMIT = 64 * 1024;

/** A route that declares no query takes none: `?foo=1` is an unknown field, as on routes that declare one. */
const NO_QUERY = Type.Object({}, { additionalProperties: false });

/** What the OpenAPI documents are built from: every route of the JSON APIs, as declared. */
export interface RouteDoc {
  api: JsonApiName;
  method: Method;
  /** Full path in OpenAPI form, e.g. /admin/v1/resellers/{id}. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** false: no session needed (sign-in, registration). */
  auth: boolean;
  body?: TSchema;
  query?: TSchema;
  params?: TSchema;
  /** Schema of `data` in the success envelope. */
  response: TSchema;
  paged: boolean;
  /** Codes this route answers besides the session and validation ones every route has. */
  errors: ErrorCode[];
  /** Takes an Idempotency-Key header (money changes; see http/idempotency.ts). */
  idempotent: boolean;
  /** 'csv': the success answer is a text/csv attachment, not the JSON envelope. */
  produces: 'json' | 'csv';
  /** Operator API routes with a session: the permission and roles they need (domain/operator-roles.ts). */
  access?: RouteAccess;
  /** The success status: 202 when the work happens later (an email sent from the outbox). */
  status: 200 | 202;
  /** A second success answer, 202 with this `data`: the change waits for a second operator (four-eyes). */
  accepted?: { response: TSchema; description: string };
  /** Headers the success answer carries besides those every answer has (OpenAPI header objects by name). */
  headers: Record<string, unknown>;
}

export class RouteRegistry {
  readonly routes: RouteDoc[] = [];
  of(api: JsonApiName) {
    return this.routes.filter((r) => r.api === api);
  }
}

type PrincipalOf<A extends JsonApiName> = A extends 'admin' ? OperatorPrincipal : AccountPrincipal;

export interface RouteContext<A extends JsonApiName, B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** The signed-in operator or reseller; absent (never read it) on routes with auth: false. */
  who: PrincipalOf<A>;
  ip: string;
  /**
   * The session's credential as an Authorization header value, whether it came in that header
   * or in the browser cookie (sign-out, password change keep or end "this" session by it).
   */
  authorization: string | undefined;
  /** The session behind the request (absent on routes with auth: false). */
  session: RequestSession | undefined;
  /** This browser's device cookie and User-Agent (sign-in recognises the device by them). */
  device: SignInDevice;
  reply: FastifyReply;
}

/** How the request proved its session, and until when the session lasts. */
export interface RequestSession {
  token: string;
  via: 'bearer' | 'cookie';
  expiresAt: number;
}

export interface RouteSpec<A extends JsonApiName, B extends TSchema, Q extends TSchema, P extends TSchema> {
  method: Method;
  url: string;
  summary: string;
  description?: string;
  tag: string;
  auth?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  response: TSchema;
  paged?: boolean;
  errors?: ErrorCode[];
  idempotent?: boolean;
  /** 'csv': the handler returns a file (text/csv attachment) instead of the JSON envelope. */
  produces?: 'json' | 'csv';
  /** The success status (default 200). */
  status?: 200 | 202;
  /** Bytes a body may have (default JSON_API_BODY_LIMIT): a bank statement upload is larger. */
  bodyLimit?: number;
  /** A route that may answer 202 instead (four-eyes): the schema of that answer's `data`; the handler returns status 202 with it. */
  accepted?: { response: TSchema; description: string };
  /** Headers the handler sets on the success answer (Set-Cookie, Cache-Control, …), declared in the document. */
  headers?: Record<string, unknown>;
  /** Returns the success envelope's `data` (and `meta` for paged lists), or a file for produces: 'csv'. */
  handler(ctx: RouteContext<A, Static<B>, Static<Q>, Static<P>>): Promise<{ data: unknown; meta?: unknown; status?: 200 | 202 } | { file: FileAnswer }>;
}

/** A download: served as an attachment with this name. */
export interface FileAnswer {
  filename: string;
  body: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** JSON API route that needs no session (sign-in, registration). */
    sessionFree?: boolean;
    /** Operator route: the roles that may call it, checked once the session is known. */
    access?: RouteAccess;
    /** Operator route an operator who must enrol in two-factor sign-in may still call. */
    beforeTwoFactor?: boolean;
  }
}

export type JsonApiKit<A extends JsonApiName> = {
  readonly api: A;
  route<B extends TSchema = TSchema, Q extends TSchema = TSchema, P extends TSchema = TSchema>(spec: RouteSpec<A, B, Q, P>): void;
  /** Browser sessions: what a sign-in (or registration, invitation) answers besides the token. */
  readonly browser: {
    /** Sets the session cookie (and a new device cookie, if any) and returns the session's CSRF token (for `csrf_token` in the answer). */
    open(reply: FastifyReply, session: { token: string; expiresAt: number; device?: { token: string; maxAgeMs: number } | null }): string;
    /** Clears the session cookie (sign-out). */
    close(reply: FastifyReply): void;
    csrfToken(token: string): string;
  };
};

/**
 * Mounts one JSON API on a Fastify scope: bearer-session authentication for the API's kind
 * of principal, JSON bodies (parsed here: the app keeps raw bodies for the HMAC API),
 * schema validation, the success envelope, and a RouteDoc for the OpenAPI document.
 * Routes are declared through the returned kit so that no route can exist undocumented.
 */
export function jsonApi<A extends JsonApiName>(
  app: FastifyInstance,
  opts: { api: A; prefix: string; sessions: Sessions; registry: RouteRegistry; browser: BrowserSessionOptions; now: () => number },
): JsonApiKit<A> {
  const kind = opts.api === 'admin' ? 'operator' : 'reseller';
  const principals = new WeakMap<FastifyRequest, { who: PrincipalOf<A>; session: RequestSession }>();
  const cookieName = SESSION_COOKIES[opts.api].name;
  const deviceCookie = DEVICE_COOKIES[opts.api].name;
  // Every operator route with a session is in the roles table, or the server does not start.
  const accessOf = (method: string, url: string) => (opts.api === 'admin' ? operatorRouteAccess(`${method} ${url.replace(/:(\w+)/g, '{$1}')}`) : undefined);
  const authorize = (req: FastifyRequest, who: OperatorPrincipal | AccountPrincipal) => {
    if (who.kind !== 'operator') return;
    const access = req.routeOptions.config.access;
    // An operator route without access cannot be registered (accessOf throws); this is the backstop.
    if (!access) throw new AppError('FORBIDDEN_ROLE', 'this route has no entry in the roles table');
    assertMay(who, access);
    if (who.twoFactorMissing && !req.routeOptions.config.beforeTwoFactor) {
      throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', 'your roles need two-factor sign-in: turn it on first (POST /auth/two-factor/enrolment, then .../confirm with a code of your app)');
    }
  };

  // A bearer header wins (scripts: no ambient credential, no CSRF check); without one, the
  // browser cookie, and then a state-changing request must come from our origin and carry
  // the session's CSRF token. Sign-in and registration (no session yet) get the origin check,
  // so another site cannot sign a browser into an account of its choosing.
  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization;
    const cookieToken = header === undefined ? readCookie(req.headers.cookie, cookieName) : null;
    const unsafe = changesState(req.method);
    if (unsafe && header === undefined && (cookieToken !== null || req.routeOptions.config.sessionFree)) assertSameOrigin(req, opts.browser);
    if (req.routeOptions.config.sessionFree) return;
    if (header !== undefined) {
      const token = bearerToken(header);
      if (!token) throw new AppError('UNAUTHENTICATED', 'sign in first and send the session token as "Authorization: Bearer <token>"');
      const r = await opts.sessions.resolve(token, kind);
      principals.set(req, { who: r.who as PrincipalOf<A>, session: { token, via: 'bearer', expiresAt: r.expiresAt } });
      req.sessionPrincipal = r.who;
      authorize(req, r.who);
      return;
    }
    if (cookieToken === null) throw new AppError('UNAUTHENTICATED', 'sign in first (session cookie) or send the session token as "Authorization: Bearer <token>"');
    const r = await opts.sessions.resolve(cookieToken, kind);
    if (unsafe && !opts.sessions.csrfMatches(cookieToken, firstHeader(req.headers[CSRF_HEADER]))) {
      throw new AppError('CSRF_REJECTED', 'refused: a request authenticated by the session cookie that changes state needs the X-CSRF-Token header (csrf_token from sign-in or GET /auth/session)');
    }
    principals.set(req, { who: r.who as PrincipalOf<A>, session: { token: cookieToken, via: 'cookie', expiresAt: r.expiresAt } });
    req.sessionPrincipal = r.who;
    authorize(req, r.who);
  });

  app.addHook('preValidation', async (req) => {
    if (req.method === 'GET' || req.method === 'HEAD') return;
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (raw.length === 0) {
      req.body = {};
      return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new AppError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json');
    req.body = parseJsonBody(raw);
  });

  return {
    api: opts.api,
    browser: {
      open(reply, session) {
        setSessionCookie(reply, opts.api, session.token, session.expiresAt, opts.now(), opts.browser);
        if (session.device) setDeviceCookie(reply, opts.api, session.device.token, session.device.maxAgeMs, opts.browser);
        return opts.sessions.csrfToken(session.token);
      },
      close: (reply) => clearSessionCookie(reply, opts.api, opts.browser),
      csrfToken: (token) => opts.sessions.csrfToken(token),
    },
    route(spec) {
      const auth = spec.auth ?? true;
      const access = auth ? accessOf(spec.method, spec.url) : undefined;
      opts.registry.routes.push({
        api: opts.api, method: spec.method, path: `${opts.prefix}${spec.url}`.replace(/:(\w+)/g, '{$1}').replace(/\/$/, ''),
        summary: spec.summary, description: spec.description, tag: spec.tag, auth, produces: spec.produces ?? 'json',
        body: spec.body, query: spec.query, params: spec.params, response: spec.response, paged: spec.paged ?? false, errors: spec.errors ?? [],
        idempotent: spec.idempotent ?? false, access, status: spec.status ?? 200, ...(spec.accepted ? { accepted: spec.accepted } : {}), headers: spec.headers ?? {},
      });
      app.route({
        method: spec.method,
        url: spec.url,
        bodyLimit: spec.bodyLimit ?? JSON_API_BODY_LIMIT,
        config: { sessionFree: !auth, access, beforeTwoFactor: opts.api === 'admin' && ROUTES_BEFORE_ENROLMENT.has(`${spec.method} ${spec.url.replace(/:(\w+)/g, '{$1}')}`) },
        schema: {
          ...(spec.body ? { body: spec.body } : {}),
          querystring: spec.query ?? NO_QUERY,
          ...(spec.params ? { params: spec.params } : {}),
        },
        handler: async (req, reply) => {
          const auth = principals.get(req);
          const out = await spec.handler({
            body: req.body as never, query: req.query as never, params: req.params as never,
            who: auth?.who as PrincipalOf<A>, ip: req.ip, reply, session: auth?.session,
            device: { token: readCookie(req.headers.cookie, deviceCookie), userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300) },
            authorization: auth ? `Bearer ${auth.session.token}` : req.headers.authorization,
          });
          if ('file' in out) {
            return reply
              .header('content-type', 'text/csv; charset=utf-8')
              .header('content-disposition', `attachment; filename="${out.file.filename.replace(/[^\w.-]/g, '_')}"`)
              .header('cache-control', 'no-store')
              .send(out.file.body);
          }
          const status = out.status ?? spec.status;
          if (status) reply.code(status);
          return out.meta === undefined ? { success: true, data: out.data } : { success: true, data: out.data, meta: out.meta };
        },
      });
    },
  };
}

const firstHeader = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
