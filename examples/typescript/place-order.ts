/**
 * Places one order with @topup/reseller-client, polls it until it is final, and receives
 * and verifies its callback on a small HTTP listener.
 *
 *   TOPUP_BASE_URL=http://127.0.0.1:8080/api/v1 TOPUP_API_KEY=tk_… TOPUP_API_SECRET=ts_… \
 *   TOPUP_CALLBACK_PORT=8787 npx tsx examples/typescript/place-order.ts
 *
 * Your callback URL must point at this listener: http://<this host>:8787/callback
 * (dashboard: Settings; or `npx topup callback-url EMAIL URL`).
 */
import http from 'node:http';
import { expressCallbackHandler, TopupApiError, TopupClient, type CallbackPayload } from '@topup/reseller-client';

const env = (name: string, fallback?: string) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') throw new Error(`set ${name}`);
  return v;
};
const secret = env('TOPUP_API_SECRET');
const refId = env('TOPUP_REF_ID', `example-ts-${Date.now()}`);
const port = Number(env('TOPUP_CALLBACK_PORT', '8787'));
const waitSeconds = Number(env('TOPUP_WAIT_SECONDS', '60'));

const topup = new TopupClient({ baseUrl: env('TOPUP_BASE_URL'), apiKey: env('TOPUP_API_KEY'), apiSecret: secret });

// 1. The callback listener: verifies the signature (constant time), drops repeats, runs once per round.
let ours: CallbackPayload | null = null;
let resolveCallback!: (p: CallbackPayload) => void;
const ourCallback = new Promise<CallbackPayload>((r) => (resolveCallback = r));
const handler = expressCallbackHandler({
  secret,
  onCallback(payload, info) {
    console.log(`callback verified: ref_id=${payload.ref_id} status=${payload.status} (round ${info.callbackId}, attempt ${info.attempt})`);
    if (payload.ref_id === refId) ours = payload;
  },
  onRejected: (reason) => console.log(`callback refused: ${reason}`),
});
const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/callback') return void res.writeHead(404).end();
  // Done once the 200 has gone out: exiting earlier would make the service retry.
  res.on('finish', () => ours && resolveCallback(ours));
  void handler(req, res);
});
await new Promise<void>((r) => server.listen(port, '0.0.0.0', r));
console.log(`listening for callbacks on port ${port} (path /callback)`);

try {
  // 2. Balance, then the order: retried safely (same ref_id) on network errors and 5xx.
  const { balance, currency } = await topup.balance();
  console.log(`balance: ${balance} ${currency}`);
  const placed = await topup.placeOrder({
    ref_id: refId,
    product_code: env('TOPUP_PRODUCT_CODE', 'FF-100'),
    target: env('TOPUP_TARGET', '123456789'),
    ...(process.env.TOPUP_ZONE ? { zone: process.env.TOPUP_ZONE } : {}),
  });
  console.log(`order placed: ref_id=${placed.ref_id} order_code=${placed.order_code} price=${placed.price} status=${placed.status}`);

  // 3. Poll until final (the callback usually arrives first; polling is the fallback).
  const final = await topup.waitForFinal(refId, { intervalMs: 1000, waitMs: waitSeconds * 1000 });
  console.log(`final status: ${final.status}${final.serial_number ? ` serial=${final.serial_number}` : ''}${final.failure_code ? ` failure_code=${final.failure_code}` : ''}`);

  // 4. Its callback (up to 4 attempts over about 35 s).
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no callback for ${refId} within ${waitSeconds} s`)), waitSeconds * 1000).unref());
  const payload = await Promise.race([ourCallback, timeout]);
  console.log(`done: order ${payload.order_code} ${payload.status}, callback verified`);
} catch (e) {
  if (e instanceof TopupApiError) console.error(`API error ${e.code} (HTTP ${e.status}, request ${e.requestId}): ${e.apiMessage}`);
  else console.error(e);
  process.exitCode = 1;
} finally {
  server.close();
}
