/**
 * Helpers for your tests (`@topup/reseller-client/testing`): the sandbox's test targets and
 * a builder of callbacks signed exactly as the service signs them.
 */
import { signRequest } from './crypto.js';
import type { CallbackPayload } from './types.js';

/**
 * The sandbox's test accounts (README, "Sandbox test accounts"), like a payment provider's
 * test cards: the `target` decides what the ID checker and the sandbox supplier do.
 */
export const SANDBOX_TARGETS = {
  /** Any other value: valid, and fulfilled with success. */
  SUCCESS: '123456789',
  /** Refused before charge: 400 INVALID_ID. */
  INVALID_ID: '4040404040',
  /** Refused before charge: 400 REGION_LOCK. */
  REGION_LOCK: '4030403040',
  /** Refused before charge: 400 PURCHASE_LIMIT. */
  PURCHASE_LIMIT: '4290429040',
  /** The checker cannot answer: the order proceeds (success); POST /validation answers 503 CHECKER_UNAVAILABLE. */
  CHECKER_UNAVAILABLE: '5030503050',
  /** Accepted, then failed with SUPPLIER_MAINTENANCE (refunded). */
  FAILS_SUPPLIER_MAINTENANCE: '7000000001',
  /** Accepted, then failed with SUPPLIER_UNREACHABLE. */
  FAILS_SUPPLIER_UNREACHABLE: '7000000002',
  /** Accepted, then failed with SUPPLIER_REJECTED (WDP_LIMIT_LIKELY for a weekly-pass product of a checker-enabled game). */
  FAILS_SUPPLIER_REJECTED: '7000000003',
  /** Accepted, then failed with PRODUCT_UNAVAILABLE. */
  FAILS_PRODUCT_UNAVAILABLE: '7000000004',
  /** Accepted, then failed with failure_code and failure_reason both null. */
  FAILS_WITHOUT_CODE: '7000000005',
} as const;

export type SandboxTarget = (typeof SANDBOX_TARGETS)[keyof typeof SANDBOX_TARGETS];

export interface SignedCallbackInput {
  /** Your API secret (the callback is signed with it). */
  secret: string;
  /** Fields of the payload; the rest take the values of a successful order. */
  payload?: Partial<CallbackPayload>;
  /** X-Timestamp in ms (default now): pass an old one to test your expiry check. */
  timestamp?: number;
  /** X-Callback-Id (default a random one). */
  callbackId?: string;
  /** X-Callback-Attempt, 1 to 4 (default 1). */
  attempt?: number;
}

export interface SignedCallback {
  /** The raw body, exactly as the service would send it. */
  body: string;
  payload: CallbackPayload;
  headers: Record<string, string>;
  /** The same as a fetch Request to `url` (for fetch-style handlers). */
  toRequest(url: string): Request;
}

const randomId = () => {
  const bytes = new Uint8Array(16);
  globalThis.crypto?.getRandomValues?.(bytes);
  return `cb_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}${Date.now().toString(36)}`;
};

/**
 * A callback as the service sends it: a JSON body and X-Signature (HMAC-SHA256 of the body
 * followed by X-Timestamp, keyed with `secret`), X-Timestamp, X-Callback-Id and
 * X-Callback-Attempt. Feed it to your callback route to test it without the service.
 */
export async function signedCallback(input: SignedCallbackInput): Promise<SignedCallback> {
  const payload = {
    ref_id: 'test-order-1',
    order_code: 'ORD-000000000001',
    status: 'success',
    product_code: 'FF-100',
    product_name: 'Free Fire 100 Diamonds',
    price: 15000,
    serial_number: 'SRL-TEST-0001',
    message: 'Order completed successfully',
    failure_code: null,
    failure_reason: null,
    ...input.payload,
  } as CallbackPayload;
  const body = JSON.stringify(payload);
  const timestamp = String(input.timestamp ?? Date.now());
  const headers = {
    'content-type': 'application/json',
    'x-timestamp': timestamp,
    'x-signature': await signRequest(input.secret, timestamp, body),
    'x-callback-id': input.callbackId ?? randomId(),
    'x-callback-attempt': String(input.attempt ?? 1),
  };
  return { body, payload, headers, toRequest: (url) => new Request(url, { method: 'POST', headers, body }) };
}
