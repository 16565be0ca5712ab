import { expect } from 'vitest';
import type { ApiResponse } from './client.js';

/** The error envelope of every API: status, stable code, a message, request_id = X-Request-Id. */
export function expectJsonError(r: ApiResponse, status: number, code: string) {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toMatchObject({ success: false, error: code });
  expect(typeof r.body.message).toBe('string');
  expect(r.body.message.length).toBeGreaterThan(0);
  expect(r.body.request_id).toBe(r.headers['x-request-id']);
}

/** The spec's error envelope: status, stable code, a message, request_id = X-Request-Id, rate headers. */
export function expectError(r: ApiResponse, status: number, code: string) {
  expectJsonError(r, status, code);
  expect(r.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(r.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}
