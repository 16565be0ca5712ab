import { AppError } from '../errors.js';
import type { CallbacksRepo } from '../store/callbacks-repo.js';
import type { OrdersRepo } from '../store/orders-repo.js';
import type { Clock, IdGenerator } from './ports.js';

/**
 * The spec's recovery path after a permanently failed callback: a new round of up to four
 * attempts for a terminal (success or failed) order. completed_at is not touched.
 * `requestId`, the request (or CLI run) that asked, goes with the round's job into its
 * delivery logs, as the placing request's id does for the first round.
 */
export class ResendCallback {
  constructor(private readonly deps: { orders: OrdersRepo; callbacks: CallbacksRepo; clock: Clock; ids: IdGenerator; wake: () => void }) {}

  async execute(orderId: string, by: { resellerId?: string; requestId?: string } = {}): Promise<{ round: number }> {
    const order = await this.deps.orders.findById(orderId);
    if (!order || (by.resellerId !== undefined && order.resellerId !== by.resellerId)) throw new AppError('NOT_FOUND', `no order with id ${orderId}`);
    // A state conflict, the same on the operator and dashboard APIs (API v1 keeps its 400: ResellerCallbacks).
    if (order.status !== 'success' && order.status !== 'failed') {
      throw new AppError('INVALID_STATE', `callbacks are sent for success and failed orders only; this order is ${order.status}`);
    }
    const round = await this.deps.callbacks.startRound(order.id, this.deps.ids.uuid(), this.deps.clock.now(), by.requestId);
    this.deps.wake();
    return { round };
  }
}
