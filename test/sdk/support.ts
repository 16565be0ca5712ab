import { TopupApiError, TopupClient, type ClientOptions } from '@topup/reseller-client';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';

/** An SDK client for the demo reseller of a test app; quick retries so refusals stay fast. */
export function sdkFor(t: Pick<TestApp, 'baseUrl' | 'demo'>, opts: Partial<ClientOptions> = {}) {
  return new TopupClient({ baseUrl: t.baseUrl, apiKey: t.demo.apiKey, apiSecret: t.demo.apiSecret, retries: { max: 1, baseDelayMs: 10 }, ...opts });
}

/** The call rejects with the service's error code, HTTP status and a request id. */
export async function expectApiError(p: Promise<unknown>, status: number, code: string): Promise<TopupApiError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err, `expected ${code}`).toBeInstanceOf(TopupApiError);
  const e = err as TopupApiError;
  expect({ code: e.code, status: e.status }, e.message).toEqual({ code, status });
  expect(e.requestId).toMatch(/\S/);
  expect(e.apiMessage).toMatch(/\S/);
  return e;
}
