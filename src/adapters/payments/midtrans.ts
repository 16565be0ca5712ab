import { createHash, timingSafeEqual } from 'node:crypto';
import { GatewayUnavailable, type GatewayAccess, type GatewayStatus, type PaymentGateway, type SnapRequest } from '../../services/payments/gateway-port.js';

/** The two Midtrans environments (../shared/payments/midtrans.md); MIDTRANS_APP_URL/API_URL replace them (tests, a proxy). */
export const MIDTRANS_ORIGINS = {
  sandbox: { appUrl: 'https://app.sandbox.midtrans.com', apiUrl: 'https://api.sandbox.midtrans.com' },
  production: { appUrl: 'https://app.midtrans.com', apiUrl: 'https://api.midtrans.com' },
} as const;
export type MidtransEnvironment = keyof typeof MIDTRANS_ORIGINS;

/** signature_key = lowercase hex SHA512(order_id + status_code + gross_amount + serverKey), strings as received. */
export function midtransSignature(orderId: string, statusCode: string, grossAmount: string, serverKey: string): string {
  return createHash('sha512').update(orderId + statusCode + grossAmount + serverKey).digest('hex');
}

/** Timing-safe check of a notification's signature_key. */
export function verifyMidtransSignature(n: { order_id: string; status_code: string; gross_amount: string; signature_key: string }, serverKey: string): boolean {
  const expected = Buffer.from(midtransSignature(n.order_id, n.status_code, n.gross_amount, serverKey), 'utf8');
  const given = Buffer.from(n.signature_key.toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const TIMEOUT_MS = 10_000;

/** Basic auth with the server key as user name and an empty password; the key never reaches a log. */
const headers = (serverKey: string) => ({
  authorization: `Basic ${Buffer.from(`${serverKey}:`).toString('base64')}`, accept: 'application/json', 'content-type': 'application/json',
});

async function call(url: string, init: { method: string; serverKey: string; body?: unknown }): Promise<{ status: number; json: any }> {
  try {
    const res = await fetch(url, {
      method: init.method, headers: headers(init.serverKey), body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  } catch (e) {
    throw new GatewayUnavailable((e as Error).name === 'TimeoutError' ? 'the payment gateway did not answer in time' : 'the payment gateway could not be reached');
  }
}

const origin = (u: string) => u.replace(/\/+$/, '');

/** Midtrans Snap (create a payment) and the Core API's status. */
export class MidtransGateway implements PaymentGateway {
  async createPayment(access: GatewayAccess, req: SnapRequest): Promise<{ token: string; redirectUrl: string }> {
    const { status, json } = await call(`${origin(access.appUrl)}/snap/v1/transactions`, {
      method: 'POST', serverKey: access.serverKey,
      body: {
        transaction_details: { order_id: req.orderId, gross_amount: req.grossAmount },
        enabled_payments: req.enabledPayments,
        expiry: { unit: 'minutes', duration: req.expiryMinutes },
        callbacks: { finish: req.finishUrl },
        customer_details: { first_name: req.customer.firstName.slice(0, 50), email: req.customer.email },
      },
    });
    if (status !== 201 && status !== 200) throw new GatewayUnavailable(`the payment gateway refused the payment (HTTP ${status}${describe(json)})`);
    if (typeof json?.token !== 'string' || typeof json?.redirect_url !== 'string') throw new GatewayUnavailable('the payment gateway answered without a token and redirect_url');
    return { token: json.token, redirectUrl: json.redirect_url };
  }

  async status(access: GatewayAccess, orderId: string): Promise<GatewayStatus> {
    const { status, json } = await call(`${origin(access.apiUrl)}/v2/${encodeURIComponent(orderId)}/status`, { method: 'GET', serverKey: access.serverKey });
    // Midtrans answers an unknown order with status_code "404" (in the body; HTTP 200 or 404).
    if ((status === 404 || status === 200) && json?.status_code === '404') return { kind: 'missing' };
    if (status !== 200 || typeof json?.transaction_status !== 'string' || typeof json?.order_id !== 'string') {
      throw new GatewayUnavailable(`the payment gateway's status API gave no usable answer (HTTP ${status}${describe(json)})`);
    }
    return {
      kind: 'found', orderId: json.order_id, transactionStatus: json.transaction_status, fraudStatus: typeof json.fraud_status === 'string' ? json.fraud_status : null,
      grossAmount: String(json.gross_amount ?? ''), transactionId: typeof json.transaction_id === 'string' ? json.transaction_id : null,
      statusCode: String(json.status_code ?? ''), body: json,
    };
  }
}

function describe(json: any): string {
  const m = json?.error_messages ?? json?.status_message;
  return m ? `: ${String(Array.isArray(m) ? m.join('; ') : m).slice(0, 200)}` : '';
}
