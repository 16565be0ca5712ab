import { assertNoControlChars } from '../domain/order-request.js';
import { AppError, isAppError } from '../errors.js';
import type { CallbacksRepo } from '../store/callbacks-repo.js';
import type { OrdersRepo } from '../store/orders-repo.js';
import type { ResellerPrincipal } from './authenticate.js';
import type { ResendCallback } from './resend-callback.js';

/**
 * The reseller's own view of its callbacks (an additive part of API v1): the delivery log of
 * an order, and a resend, both by ref_id and scoped to the caller.
 */
export class ResellerCallbacks {
  constructor(private readonly deps: { orders: OrdersRepo; callbacks: CallbacksRepo; resend: ResendCallback }) {}

  private async order(who: ResellerPrincipal, refId: unknown) {
    if (typeof refId !== 'string' || refId === '') throw new AppError('REF_ID_REQUIRED', 'ref_id is required');
    if (refId.length > 100) throw new AppError('VALIDATION_ERROR', `ref_id must be at most 100 characters (got ${refId.length})`);
    assertNoControlChars('ref_id', refId);
    const order = await this.deps.orders.findByRef(who.resellerId, refId);
    if (!order) throw new AppError('PRODUCT_NOT_FOUND', `order not found: no order with ref_id "${refId}"`);
    return order;
  }

  async log(who: ResellerPrincipal, refId: unknown) {
    const order = await this.order(who, refId);
    return { order, deliveries: await this.deps.callbacks.log(order.id) };
  }

  async resend(who: ResellerPrincipal, body: unknown, requestId?: string) {
    const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const unknown = Object.keys(b).filter((k) => k !== 'ref_id');
    if (unknown.length) throw new AppError('VALIDATION_ERROR', `unknown field '${unknown[0]}'; the only field is ref_id`);
    const order = await this.order(who, b.ref_id);
    try {
      const { round } = await this.deps.resend.execute(order.id, { resellerId: who.resellerId, requestId });
      return { order, round };
    } catch (e) {
      // API v1 documents this refusal as 400 VALIDATION_ERROR (its codes are a promise); the
      // rule itself is ResendCallback's.
      if (isAppError(e) && e.code === 'INVALID_STATE') throw new AppError('VALIDATION_ERROR', e.message);
      throw e;
    }
  }
}
