import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimiter } from '../../adapters/rate-limiter.js';
import { pageMeta } from '../../domain/list-query.js';
import { orderCode } from '../../domain/order.js';
import type { AuthFailureGuard } from '../../services/auth-failures.js';
import type { Authenticator } from '../../services/authenticate.js';
import type { PlaceOrder } from '../../services/place-order.js';
import type { ResellerQueries } from '../../services/reseller-queries.js';
import type { ValidateAccount } from '../../services/validate-account.js';
import type { ResellerCallbacks } from '../../services/reseller-callbacks.js';
import type { CurrencySettings } from '../../services/ports.js';
import type { Presenters } from '../presenters.js';
import { principalOf, resellerPipeline } from '../reseller-pipeline.js';

export interface ResellerApiDeps {
  auth: Authenticator;
  limiter: RateLimiter;
  rateLimitScale: number;
  failures: AuthFailureGuard;
  placeOrder: PlaceOrder;
  validateAccount: ValidateAccount;
  resellerCallbacks: ResellerCallbacks;
  queries: ResellerQueries;
  present: Presenters;
  currency: CurrencySettings;
}

type Q = { Querystring: Record<string, unknown> };
const CATALOG_CACHE = 'private, max-age=60, must-revalidate';

/** The reseller API v1 (spec: reseller-topup-api-v1.md). Handlers only translate. */
export function resellerApi(deps: ResellerApiDeps) {
  const { placeOrder, queries, present } = deps;
  return async function routes(app: FastifyInstance) {
    const pipeline = resellerPipeline(deps);
    app.addHook('onRequest', pipeline.onRequest);
    app.addHook('preValidation', pipeline.preValidation);

    app.get('/categories', async (req, reply) => {
      const categories = await queries.listCategories(principalOf(req));
      reply.header('cache-control', CATALOG_CACHE).header('vary', 'X-Api-Key');
      return { success: true, data: { categories: categories.map(present.category) } };
    });

    // The page's JSON bytes are cached with the catalog (ResellerQueries.renderedProducts):
    // sent as they are, with the type Fastify gives a serialized object. Returned, not
    // `reply.send()` then `return reply`: an async handler returning the reply (a thenable)
    // makes the promise wait on it, one more listener on the response per request.
    app.get<Q>('/products', async (req, reply) => {
      const body = await queries.renderedProducts(principalOf(req), req.query, (r) =>
        Buffer.from(JSON.stringify({ success: true, data: { products: r.items.map(present.product) }, meta: pageMeta(r.total, r.page) })));
      reply.header('cache-control', CATALOG_CACHE).header('vary', 'X-Api-Key').type('application/json; charset=utf-8');
      return body;
    });

    app.post('/order', async (req) => {
      const order = await placeOrder.execute(principalOf(req), req.body, req.id);
      return { success: true, data: present.orderCreated(order) };
    });

    app.post('/validation', async (req) => {
      const result = await deps.validateAccount.execute(principalOf(req), req.body);
      return { success: true, data: result };
    });

    app.get<Q>('/order-status', async (req) => {
      const order = await queries.orderStatus(principalOf(req), req.query.ref_id);
      return { success: true, data: present.order(order) };
    });

    // Deprecated predecessor of GET /order-status: ref_id in the JSON body (or the query).
    // Every answer says so, refusals included (onSend also runs for errors of the hooks).
    const deprecated = {
      onSend(_req: unknown, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) {
        reply.header('deprecation', 'true').header('link', '</api/v1/order-status>; rel="successor-version"');
        done(null, payload);
      },
    };
    app.post<Q>('/check-status', deprecated, async (req) => {
      const body = req.body as Record<string, unknown> | null;
      const refId = body && typeof body === 'object' && 'ref_id' in body ? body.ref_id : req.query.ref_id;
      const order = await queries.orderStatus(principalOf(req), refId);
      return { success: true, data: present.order(order) };
    });

    // Additive to the spec: the delivery log of an order's callbacks, and a resend.
    app.get<Q>('/callbacks', async (req) => {
      const r = await deps.resellerCallbacks.log(principalOf(req), req.query.ref_id);
      return { success: true, data: present.callbackLog(r.order, r.deliveries) };
    });

    app.post('/callbacks/resend', async (req) => {
      const r = await deps.resellerCallbacks.resend(principalOf(req), req.body, req.id);
      return { success: true, data: { ref_id: r.order.refId, order_code: orderCode(r.order.id), round: r.round, message: 'A new round of up to four callback attempts is queued' } };
    });

    app.get<Q>('/orders', async (req) => {
      const r = await queries.listOrders(principalOf(req), req.query);
      return { success: true, data: { orders: r.items.map(present.order) }, meta: pageMeta(r.total, r.page) };
    });

    app.get('/balance', async (req) => {
      const balance = await queries.balance(principalOf(req));
      return { success: true, data: { balance: present.money(balance), currency: deps.currency.code } };
    });

    app.get<Q>('/wallet-history', async (req) => {
      const r = await queries.walletHistory(principalOf(req), req.query);
      return { success: true, data: { entries: r.items.map(present.ledgerEntry) }, meta: pageMeta(r.total, r.page) };
    });
  };
}
