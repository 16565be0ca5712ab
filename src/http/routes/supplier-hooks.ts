import type { FastifyInstance } from 'fastify';
import type { ReceiveUpstreamCallback } from '../../services/receive-upstream-callback.js';

/** Inbound webhooks from suppliers (their signatures are checked by the service). */
export function supplierHooks(deps: { upstreamCallback: ReceiveUpstreamCallback }) {
  return async function routes(app: FastifyInstance) {
    app.post<{ Params: { supplierId: string } }>('/upstream-v1/:supplierId', async (req) => {
      await deps.upstreamCallback.execute(req.params.supplierId, req.headers, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      return { success: true, data: { received: true } };
    });
  };
}
