import type { FastifyInstance } from 'fastify';
import type { ReceiveDigiflazzWebhook } from '../../services/receive-digiflazz-webhook.js';
import type { ReceiveMutationWebhook } from '../../services/deposits/mutation-webhook.js';
import type { ReceiveUpstreamCallback } from '../../services/receive-upstream-callback.js';

/** Where supplierHooks() is mounted. */
export const SUPPLIER_HOOKS_PREFIX = '/hooks';

/** Where a supplier posts its callbacks to this platform (null: the sandbox posts none). */
export const supplierHookPath = (adapter: string, supplierId: string) => (adapter === 'sandbox' ? null : `${SUPPLIER_HOOKS_PREFIX}/${adapter}/${supplierId}`);

const raw = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/** Where a bank-mutation service (Moota) posts new mutations. */
export const BANK_MUTATIONS_HOOK = `${SUPPLIER_HOOKS_PREFIX}/bank-mutations`;

/** The bank-mutation webhook (its signature is checked by the service); mounted at the hooks prefix. */
export function bankMutationHook(deps: { mutationWebhook: ReceiveMutationWebhook }) {
  return async function routes(app: FastifyInstance) {
    app.post('/bank-mutations', async (req) => ({ success: true, data: await deps.mutationWebhook.execute(req.headers, raw(req.body)) }));
  };
}

/** Inbound webhooks from suppliers (their signatures are checked by the service). */
export function supplierHooks(deps: { upstreamCallback: ReceiveUpstreamCallback; digiflazzWebhook: ReceiveDigiflazzWebhook }) {
  return async function routes(app: FastifyInstance) {
    app.post<{ Params: { supplierId: string } }>('/upstream-v1/:supplierId', async (req) => {
      await deps.upstreamCallback.execute(req.params.supplierId, req.headers, raw(req.body));
      return { success: true, data: { received: true } };
    });
    app.post<{ Params: { supplierId: string } }>('/digiflazz/:supplierId', async (req) => {
      await deps.digiflazzWebhook.execute(req.params.supplierId, req.headers, raw(req.body));
      return { success: true, data: { received: true } };
    });
  };
}
