import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { AppError } from '../errors.js';
import type { AccountPrincipal, OperatorPrincipal, Sessions } from '../services/sessions.js';
import { parseJsonBody } from './app.js';

/** The session-authenticated JSON APIs beside the reseller API v1. */
export type JsonApiName = 'admin' | 'dashboard';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Operator and dashboard bodies (category forms, notes) are larger than an order. */
export const JSON_API_BODY_LIMIT = 64 * 1024;

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
  /** The raw Authorization header, for sign-out. */
  authorization: string | undefined;
  reply: FastifyReply;
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
  /** Returns the success envelope's `data` (and `meta` for paged lists). */
  handler(ctx: RouteContext<A, Static<B>, Static<Q>, Static<P>>): Promise<{ data: unknown; meta?: unknown }>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** JSON API route that needs no session (sign-in, registration). */
    sessionFree?: boolean;
  }
}

export type JsonApiKit<A extends JsonApiName> = {
  readonly api: A;
  route<B extends TSchema = TSchema, Q extends TSchema = TSchema, P extends TSchema = TSchema>(spec: RouteSpec<A, B, Q, P>): void;
};

/**
 * Mounts one JSON API on a Fastify scope: bearer-session authentication for the API's kind
 * of principal, JSON bodies (parsed here: the app keeps raw bodies for the HMAC API),
 * schema validation, the success envelope, and a RouteDoc for the OpenAPI document.
 * Routes are declared through the returned kit so that no route can exist undocumented.
 */
export function jsonApi<A extends JsonApiName>(
  app: FastifyInstance,
  opts: { api: A; prefix: string; sessions: Sessions; registry: RouteRegistry },
): JsonApiKit<A> {
  const kind = opts.api === 'admin' ? 'operator' : 'reseller';
  const principals = new WeakMap<FastifyRequest, PrincipalOf<A>>();

  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config.sessionFree) return;
    const who = await opts.sessions.authenticate(req.headers.authorization, kind as 'operator' & 'reseller');
    principals.set(req, who as PrincipalOf<A>);
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
    route(spec) {
      const auth = spec.auth ?? true;
      opts.registry.routes.push({
        api: opts.api, method: spec.method, path: `${opts.prefix}${spec.url}`.replace(/:(\w+)/g, '{$1}').replace(/\/$/, ''),
        summary: spec.summary, description: spec.description, tag: spec.tag, auth,
        body: spec.body, query: spec.query, params: spec.params, response: spec.response, paged: spec.paged ?? false, errors: spec.errors ?? [],
        idempotent: spec.idempotent ?? false,
      });
      app.route({
        method: spec.method,
        url: spec.url,
        bodyLimit: JSON_API_BODY_LIMIT,
        config: { sessionFree: !auth },
        schema: {
          ...(spec.body ? { body: spec.body } : {}),
          ...(spec.query ? { querystring: spec.query } : {}),
          ...(spec.params ? { params: spec.params } : {}),
        },
        handler: async (req, reply) => {
          const out = await spec.handler({
            body: req.body as never, query: req.query as never, params: req.params as never,
            who: principals.get(req) as PrincipalOf<A>, ip: req.ip, authorization: req.headers.authorization, reply,
          });
          return out.meta === undefined ? { success: true, data: out.data } : { success: true, data: out.data, meta: out.meta };
        },
      });
    },
  };
}
