import type { FastifyInstance } from 'fastify';
import type { ReceiveMidtransNotification } from '../../services/payments/receive-midtrans-notification.js';

/** Where Midtrans posts payment notifications (set it as the Payment Notification URL in its dashboard). */
export const MIDTRANS_HOOK_PATH = '/hooks/midtrans';

/** Public: the notification's signature_key and the status API are checked by the service. */
export function midtransHook(deps: { notifications: ReceiveMidtransNotification }) {
  return async function routes(app: FastifyInstance) {
    app.post(MIDTRANS_HOOK_PATH, async (req) => {
      const r = await deps.notifications.execute(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      return { success: true, data: { received: true, outcome: r.outcome } };
    });
  };
}
