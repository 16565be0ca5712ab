import type { FastifyInstance } from 'fastify';
import type { OperatorPrincipal, AccountPrincipal } from '../services/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator or dashboard account (session APIs), for the access log. */
    sessionPrincipal: OperatorPrincipal | AccountPrincipal | null;
    /** The error code the request was answered with (sendError), for the access log. */
    errorCode: string | null;
  }
}

/** Observes one answered request: method, route pattern, status, milliseconds. */
export type RequestObserver = (method: string, route: string, status: number, ms: number) => void;

/**
 * One access log line per answered request (Fastify's own two lines are off): who
 * (reseller_id or operator_id), the route pattern, status, error code and duration; the
 * request id comes from the request's logger (`reqId`). Headers, bodies and query strings
 * are never logged: signatures, keys and session tokens travel there. The same hook feeds
 * the request histogram when metrics are on.
 */
export function accessLog(app: FastifyInstance, observe: RequestObserver | null): void {
  app.decorateRequest('sessionPrincipal', null);
  app.decorateRequest('errorCode', null);
  // Decided once: a silent logger (benchmarks, tests) then builds no line at all.
  const logging = (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url;
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    if (observe) observe(req.method, route ?? 'unmatched', status, ms);
    if (logging) {
      const session = req.sessionPrincipal;
      req.log.info(
        {
          reseller_id: req.principal?.resellerId ?? (session?.kind === 'reseller' ? session.resellerId : undefined),
          operator_id: session?.kind === 'operator' ? session.operatorId : undefined,
          method: req.method,
          // Unmatched: the path alone (no query string), bounded.
          route: route ?? undefined,
          path: route === undefined ? (req.url.split('?')[0] ?? '').slice(0, 200) : undefined,
          status,
          error: req.errorCode ?? undefined,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    }
    done();
  });
}
