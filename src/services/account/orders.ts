import { AppError } from '../../errors.js';
import type { ServiceCore } from '../core.js';
import { ResellerQueries } from '../reseller-queries.js';
import type { AccountPrincipal } from '../sessions.js';

type Query = Record<string, unknown>;

/**
 * The reseller's orders and wallet in the dashboard: the API v1 reads (same filters, same
 * errors) plus lookup by order id. Another reseller's order answers NOT_FOUND, exactly like
 * an id that does not exist.
 */
export class AccountOrders {
  private readonly queries: ResellerQueries;

  constructor(private readonly core: Pick<ServiceCore, 'repos' | 'clock' | 'resendCallback' | 'queries'>) {
    this.queries = core.queries;
  }

  list(who: AccountPrincipal, q: Query) {
    return this.queries.listOrders(who, q);
  }

  walletHistory(who: AccountPrincipal, q: Query) {
    return this.queries.walletHistory(who, q);
  }

  async get(who: AccountPrincipal, orderId: string) {
    const order = await this.core.repos.orders.findById(orderId);
    if (!order || order.resellerId !== who.resellerId) throw new AppError('NOT_FOUND', `order not found: no order with id "${orderId}"`);
    return { order, deliveries: await this.core.repos.callbacks.log(order.id) };
  }

  /** Success and failed orders only (VALIDATION_ERROR otherwise, as in API v1). */
  async resendCallback(who: AccountPrincipal, orderId: string) {
    const { round } = await this.core.resendCallback.execute(orderId, who.resellerId);
    const order = (await this.core.repos.orders.findById(orderId))!;
    return { order, round };
  }
}
