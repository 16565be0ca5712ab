/** The kinds of rows in the jobs table (the outbox/queue, jobs-repo.ts). */
export const JOB_KINDS = {
  fulfilOrder: 'fulfil_order',
  deliverCallback: 'deliver_callback',
  sendMessage: 'send_message',
  /** A deposit was credited: the shop's notice is written by the worker (services render messages, the store does not). */
  depositCredited: 'deposit_credited',
} as const;

/**
 * A fulfil_order job's payload: the order, and the id of the request that placed it, so the
 * worker's supplier and callback logs can be matched to the access log line of that request.
 */
export const fulfilPayload = (orderId: string, requestId?: string): { orderId: string; requestId?: string } =>
  requestId === undefined ? { orderId } : { orderId, requestId };
