import type { FastifyPluginAsync } from 'fastify';
import type { Readiness } from '../../services/readiness.js';

/**
 * Probes for load balancers and orchestrators (docs/operations.md, "Health"): /livez, the
 * process answers (restart it if not); /readyz, it can serve (take it out of rotation if
 * not). /healthz is /livez under its old name and body. Logged at warn and above only: a
 * probe every few seconds would fill the request log.
 */
export function healthRoutes(deps: { readiness: () => Promise<Readiness> }): FastifyPluginAsync {
  return async (app) => {
    const quiet = { logLevel: 'warn' as const };
    app.get('/livez', quiet, async () => LIVE);
    app.get('/healthz', quiet, async () => ({ success: true, data: { status: 'ok' } }));
    app.get('/readyz', quiet, async (_req, reply) => {
      const a = readinessAnswer(await deps.readiness());
      return reply.code(a.status).header('cache-control', 'no-store').send(a.body);
    });
  };
}

/** /livez's body, here and on the metrics listener. */
export const LIVE = { status: 'ok' } as const;

/** /readyz's answer, here and on the metrics listener (the worker's probe). */
export function readinessAnswer(r: Readiness): { status: 200 | 503; body: object } {
  if (r.draining) return { status: 503, body: { status: 'draining', failed: r.failed, checks: r.checks } };
  const degraded = r.degraded.length ? { degraded: r.degraded } : {};
  if (!r.ready) return { status: 503, body: { status: 'not_ready', failed: r.failed, ...degraded, checks: r.checks } };
  return { status: 200, body: { status: 'ready', ...degraded, checks: r.checks } };
}
