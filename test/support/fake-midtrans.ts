import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Midtrans on 127.0.0.1, written from the protocol facts
 * (/work/shared/payments/midtrans.md), not from our adapter. It serves both origins (Snap's
 * `app` and the Core API's `api`) on one port:
 * - POST /snap/v1/transactions (Basic auth with the server key) → 201 {token, redirect_url};
 * - GET /snap/v4/redirection/{token}: a payment page with a "Pay" button; paying settles the
 *   transaction, sends the notifications to the configured URL and redirects the browser to
 *   callbacks.finish;
 * - GET /v2/{order_id}/status (Basic auth) → the transaction's current fields (status_code
 *   "404" for an unknown order).
 * Tests drive it: set a transaction's status, build notifications with real signatures (or
 * forged ones), deliver them in any order, any number of times, with retries until 2xx,
 * refund, and make the status API lie or fail.
 */
export interface FakeTxn {
  order_id: string;
  gross_amount: string;
  transaction_id: string;
  transaction_status: string;
  fraud_status: string | null;
  status_code: string;
  payment_type: string;
  enabled_payments: string[];
  finish: string | null;
  token: string;
  refund_amount: string | null;
  transaction_time: string;
  settlement_time: string | null;
}

export interface Delivery { status: number; body: string; headers: Record<string, string> }

export interface FakeMidtrans {
  url: string;
  serverKey: string;
  /** Where notifications go (the service's /hooks/midtrans). */
  notifyUrl: string | null;
  transactions: Map<string, FakeTxn>;
  /** Snap create requests received, as sent. */
  snapRequests: any[];
  /** Status API requests received (order ids). */
  statusRequests: string[];
  /** Replace what the status API answers for an order (a status that disagrees), or make it fail ('fail': HTTP 503). */
  statusOverride: Map<string, Partial<FakeTxn> | 'fail'>;
  setStatus(orderId: string, status: string, extra?: Partial<FakeTxn>): FakeTxn;
  /** A notification of the transaction's current fields (or these overrides), signed with the server key unless `signature` is given. */
  notification(orderId: string, overrides?: Partial<FakeTxn> & { signature_key?: string }): Record<string, unknown>;
  /** POSTs a notification once. */
  deliver(body: Record<string, unknown> | string): Promise<Delivery>;
  /** POSTs until a 2xx answer, at most `attempts` times (Midtrans retries a non-2xx answer). */
  deliverWithRetries(body: Record<string, unknown>, attempts?: number, between?: () => Promise<void>): Promise<Delivery[]>;
  /** Settles (as the payment page's Pay does) and notifies pending then settlement; returns the deliveries. */
  pay(orderId: string): Promise<Delivery[]>;
  /** Refunds (in full, or partly) and notifies. */
  refund(orderId: string, amount?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export const signature = (orderId: string, statusCode: string, gross: string, serverKey: string) =>
  createHash('sha512').update(orderId + statusCode + gross + serverKey).digest('hex');

const STATUS_CODES: Record<string, string> = { settlement: '200', capture: '200', pending: '201', deny: '202', cancel: '202', expire: '407', failure: '202', refund: '200', partial_refund: '200', authorize: '200' };

export async function startFakeMidtrans(opts: { serverKey?: string } = {}): Promise<FakeMidtrans> {
  const serverKey = opts.serverKey ?? `SB-Mid-server-${randomBytes(9).toString('base64url')}`;
  const transactions = new Map<string, FakeTxn>();
  const byToken = new Map<string, string>();
  const snapRequests: any[] = [];
  const statusRequests: string[] = [];
  const statusOverride = new Map<string, Partial<FakeTxn> | 'fail'>();
  const authorized = (req: http.IncomingMessage) => req.headers.authorization === `Basic ${Buffer.from(`${serverKey}:`).toString('base64')}`;
  const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

  const read = (req: http.IncomingMessage) => new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const fields = (t: FakeTxn) => ({
    transaction_time: t.transaction_time, transaction_status: t.transaction_status, transaction_id: t.transaction_id, status_message: 'midtrans payment notification',
    status_code: t.status_code, payment_type: t.payment_type, order_id: t.order_id, merchant_id: 'G000000000', gross_amount: t.gross_amount, fraud_status: t.fraud_status ?? undefined,
    currency: 'IDR', settlement_time: t.settlement_time ?? undefined, refund_amount: t.refund_amount ?? undefined,
  });

  const fake: FakeMidtrans = {
    url: '', serverKey, notifyUrl: null, transactions, snapRequests, statusRequests, statusOverride,
    setStatus(orderId, status, extra = {}) {
      const t = transactions.get(orderId);
      if (!t) throw new Error(`fake midtrans: no transaction ${orderId}`);
      Object.assign(t, { transaction_status: status, status_code: STATUS_CODES[status] ?? '200', fraud_status: status === 'capture' || status === 'settlement' ? 'accept' : t.fraud_status }, extra);
      if (status === 'settlement' && !t.settlement_time) t.settlement_time = now();
      return t;
    },
    notification(orderId, overrides = {}) {
      const t = transactions.get(orderId);
      if (!t) throw new Error(`fake midtrans: no transaction ${orderId}`);
      const { signature_key: forged, ...rest } = overrides;
      const body: Record<string, unknown> = { ...fields(t), ...rest };
      body.signature_key = forged ?? signature(String(body.order_id), String(body.status_code), String(body.gross_amount), serverKey);
      return body;
    },
    async deliver(body) {
      if (!fake.notifyUrl) throw new Error('fake midtrans: notifyUrl is not set');
      const res = await fetch(fake.notifyUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
      return { status: res.status, body: await res.text(), headers: Object.fromEntries(res.headers) };
    },
    async deliverWithRetries(body, attempts = 5, between) {
      const out: Delivery[] = [];
      for (let i = 0; i < attempts; i++) {
        const d = await fake.deliver(body);
        out.push(d);
        if (d.status >= 200 && d.status < 300) break;
        await between?.();
      }
      return out;
    },
    async pay(orderId) {
      const pending = fake.notification(orderId, { transaction_status: 'pending', status_code: '201', fraud_status: undefined as any });
      fake.setStatus(orderId, 'settlement');
      // Midtrans sends each status change; the pending one may arrive after the settlement.
      return [await fake.deliver(fake.notification(orderId)), await fake.deliver(pending)];
    },
    async refund(orderId, amount) {
      const t = transactions.get(orderId)!;
      const partial = amount !== undefined && `${amount}.00` !== t.gross_amount;
      fake.setStatus(orderId, partial ? 'partial_refund' : 'refund', { refund_amount: `${amount ?? Number(t.gross_amount)}.00` });
      return fake.deliverWithRetries(fake.notification(orderId));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/snap/v1/transactions') {
      if (!authorized(req)) return json(res, 401, { error_messages: ['Access denied due to unauthorized transaction, please check client or server key'] });
      const body = JSON.parse(await read(req));
      snapRequests.push(body);
      const orderId = body?.transaction_details?.order_id;
      const gross = body?.transaction_details?.gross_amount;
      if (typeof orderId !== 'string' || !Number.isInteger(gross)) return json(res, 400, { error_messages: ['transaction_details.order_id and gross_amount are required'] });
      if (transactions.has(orderId)) return json(res, 400, { error_messages: ['transaction_details.order_id has already been taken'] });
      const token = randomBytes(16).toString('hex');
      transactions.set(orderId, {
        order_id: orderId, gross_amount: `${gross}.00`, transaction_id: randomBytes(16).toString('hex'), transaction_status: 'pending', fraud_status: null, status_code: '201',
        payment_type: (body.enabled_payments?.[0] === 'other_qris' ? 'qris' : 'bank_transfer'), enabled_payments: body.enabled_payments ?? [], finish: body.callbacks?.finish ?? null,
        token, refund_amount: null, transaction_time: now(), settlement_time: null,
      });
      byToken.set(token, orderId);
      return json(res, 201, { token, redirect_url: `${fake.url}/snap/v4/redirection/${token}` });
    }
    const page = /^\/snap\/v4\/redirection\/([0-9a-f]+)(\/pay)?$/.exec(url.pathname);
    if (page) {
      const orderId = byToken.get(page[1]!);
      const t = orderId ? transactions.get(orderId) : undefined;
      if (!t) return json(res, 404, { error_messages: ['unknown token'] });
      if (req.method === 'POST' && page[2]) {
        await read(req);
        await fake.pay(t.order_id);
        const finish = t.finish ? `${t.finish}${t.finish.includes('?') ? '&' : '?'}order_id=${encodeURIComponent(t.order_id)}&status_code=200&transaction_status=settlement` : '/';
        res.writeHead(303, { location: finish });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Snap</title></head><body><main>
<h1>Fake Midtrans payment</h1><p>Order <span id="order">${t.order_id}</span>, amount <span id="gross">${t.gross_amount}</span> (${t.enabled_payments.join(', ')})</p>
<form method="post" action="/snap/v4/redirection/${page[1]}/pay"><button type="submit">Pay</button></form></main></body></html>`);
    }
    const status = /^\/v2\/([^/]+)\/status$/.exec(url.pathname);
    if (req.method === 'GET' && status) {
      if (!authorized(req)) return json(res, 401, { status_code: '401', status_message: 'Unknown Merchant server_key/id' });
      const orderId = decodeURIComponent(status[1]!);
      statusRequests.push(orderId);
      const override = statusOverride.get(orderId);
      if (override === 'fail') return json(res, 503, { status_code: '503', status_message: 'Service unavailable' });
      const t = transactions.get(orderId);
      if (!t) return json(res, 404, { status_code: '404', status_message: "Transaction doesn't exist." });
      const f: Record<string, unknown> = { ...fields(t), ...(override ?? {}), status_message: 'Success, transaction is found' };
      f.signature_key = signature(String(f.order_id), String(f.status_code), String(f.gross_amount), serverKey);
      return json(res, 200, f);
    }
    json(res, 404, { status_code: '404', status_message: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
