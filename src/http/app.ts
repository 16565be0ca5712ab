import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors.js';
import { assertTextDeep } from '../domain/text.js';
import { clientErrorHandler } from './client-errors.js';
import { overLongSegment, sendError } from './errors.js';
import { useStrictBodies } from './validation.js';
import { accessLog, type RequestObserver } from './access-log.js';
import { lazyRequestLogger } from './request-logger.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const MAX_BODY_BYTES = 4096;

/** Browsers that reached the service over HTTPS keep to HTTPS for a year (production only). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export interface HttpAppOptions {
  logger: FastifyBaseLogger;
  trustedProxies: string[];
  observe?: RequestObserver | null;
  /** How long a request may take to arrive, headers and body (config BODY_TIMEOUT_MS). */
  bodyTimeoutMs: number;
  /** Production: every answer carries Strict-Transport-Security. */
  production: boolean;
}

/**
 * The Fastify instance every API mounts on: request ids, the error envelope, raw bodies
 * (signatures are checked over the exact bytes received, so parsing is left to the
 * routes), JSON 404/405.
 */
export function createHttpApp(opts: HttpAppOptions): FastifyInstance {
  // No answer is ever to be read as another type than it declares; production keeps browsers on HTTPS.
  const securityHeaders: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    ...(opts.production ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  };
  const app = Fastify({
    loggerInstance: opts.logger,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: opts.trustedProxies.length ? opts.trustedProxies : false,
    bodyLimit: MAX_BODY_BYTES,
    // A request that stalls (a body that never comes) is cut off by Node: clientErrorHandler
    // answers 408 and closes the socket. Node looks for such requests every interval.
    requestTimeout: opts.bodyTimeoutMs,
    http: {
      requestTimeout: opts.bodyTimeoutMs,
      headersTimeout: opts.bodyTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(opts.bodyTimeoutMs / 4)),
    },
    // Errors the router meets before any hook runs (a path parameter over maxParamLength, a
    // malformed percent-encoding) and requests Node cannot parse answer in the envelope too.
    frameworkErrors: (err, req, reply) => sendError(req, reply.headers(securityHeaders), err),
    clientErrorHandler: clientErrorHandler(opts.logger),
    // One line per request instead (access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    // A graceful stop (SIGTERM) serves what reached it: a request accepted while closing
    // gets its answer, not Fastify's 503, which a proxy would pass on (it retries only a
    // refused connection). New connections are refused from the start of the close.
    return503OnClosing: false,
  });
  useStrictBodies(app);
  accessLog(app, opts.observe ?? null);

  // The hooks every request runs are callback-style: an async hook costs a promise and a
  // turn of the microtask queue per request, for work that is synchronous.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id).headers(securityHeaders);
    done();
  });
  // Query and path values enter here on every API; bodies in parseJsonBody (json-body.ts).
  app.addHook('preValidation', (req, _reply, done) => {
    try {
      assertTextDeep(req.query);
      assertTextDeep(req.params);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  const served: ServedRoute[] = [];
  servedRoutes.set(app, served);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) served.push({ method, url: r.url });
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((err, req, reply) => sendError(req, reply, err));

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== req.method && app.hasRoute({ method: m, url }));
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      return sendError(req, reply, new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url}; use ${allowed.join(' or ')}`));
    }
    return sendError(req, reply, overLongSegment(url) ?? new AppError('NOT_FOUND', `no route ${req.method} ${url}`));
  });
  return app;
}

/** A route Fastify serves, as registered (Fastify path syntax, prefix included). */
export interface ServedRoute {
  method: string;
  url: string;
}
const servedRoutes = new WeakMap<FastifyInstance, ServedRoute[]>();

/** Every route the app serves, HEAD included: what the OpenAPI drift checks compare against. */
export const routesOf = (app: FastifyInstance): readonly ServedRoute[] => servedRoutes.get(app) ?? [];
