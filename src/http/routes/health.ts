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
    app.get('/livez', quiet, async () => ({ status: 'ok' }));
    app.get('/healthz', quiet, async () => ({ success: true, data: { status: 'ok' } }));
    app.get('/readyz', quiet, async (_req, reply) => {
      const r = await deps.readiness();
      reply.header('cache-control', 'no-store');
      if (!r.ready) return reply.code(503).send({ status: 'not_ready', failed: r.failed, checks: r.checks });
      return { status: 'ready', checks: r.checks };
    });
  };
}
