/** Where and how to reach the gateway for one call: the settings' environment and key. */
export interface GatewayAccess {
  serverKey: string;
  /** Snap's origin (https://app.sandbox.midtrans.com or https://app.midtrans.com, or a test's fake). */
  appUrl: string;
  /** The Core API's origin (status). */
  apiUrl: string;
}

export interface SnapRequest {
  orderId: string;
  /** Whole rupiah. */
  grossAmount: number;
  enabledPayments: readonly string[];
  expiryMinutes: number;
  /** Where the browser returns after paying (callbacks.finish). */
  finishUrl: string;
  customer: { firstName: string; email: string };
}

/** The status API's answer (the fields we read), or `missing` when the gateway knows no such order. */
export type GatewayStatus =
  | { kind: 'found'; orderId: string; transactionStatus: string; fraudStatus: string | null; grossAmount: string; transactionId: string | null; statusCode: string; body: Record<string, unknown> }
  | { kind: 'missing' };

/** A call that got no usable answer (unreachable, timeout, 5xx, refused credentials). */
export class GatewayUnavailable extends Error {}

/** The payment gateway as the deposit services use it (src/adapters/payments/midtrans.ts). */
export interface PaymentGateway {
  createPayment(access: GatewayAccess, req: SnapRequest): Promise<{ token: string; redirectUrl: string }>;
  status(access: GatewayAccess, orderId: string): Promise<GatewayStatus>;
}
