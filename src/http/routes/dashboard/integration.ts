import { Type } from '@sinclair/typebox';
import { TEST_CALLBACKS_PER_MINUTE } from '../../../services/account/callback-test.js';
import { CallbackPayload } from '../../openapi/reseller-schemas.js';
import type { JsonApiKit } from '../../json-api.js';
import { Nullable } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

/** What helps an integrator: a test callback now, and (api-errors.ts) the API v1 requests refused lately. */
export function integrationRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  kit.route({
    method: 'POST', url: '/callback-url/test', tag: 'Callback URL',
    summary: 'Send a signed sample callback to the callback URL now and show what the receiver answered',
    description:
      'A success callback of a sample order (ref_id test-callback-…, product TEST-100, price 0), with the headers and HMAC ' +
      'signature of a real one (the newest live API key\'s secret) and the same rules: SSRF checks at connect time, 5-second ' +
      `timeout, no redirects, one attempt. Nothing is stored. At most ${TEST_CALLBACKS_PER_MINUTE} a minute (TOO_MANY_ATTEMPTS); ` +
      'INVALID_STATE without a callback URL or an API key. An unreachable receiver is not an error of this request: ' +
      'delivered is false and error says why.',
    body: Type.Object({}, { additionalProperties: false }),
    response: Type.Object({
      delivered: Type.Boolean({ description: 'the receiver answered 2xx' }),
      url: Type.String(),
      http_status: Nullable(Type.Integer()),
      duration_ms: Type.Integer({ minimum: 0 }),
      response_excerpt: Nullable(Type.String({ description: 'the start of the answer body (at most 512 bytes)' })),
      error: Nullable(Type.String()),
      payload: CallbackPayload,
      headers: Type.Object({
        'x-timestamp': Type.String(), 'x-signature': Type.String(), 'x-callback-id': Type.String(), 'x-callback-attempt': Type.String(),
      }, { description: 'the signature headers sent, to compare with what the receiver computed' }),
    }),
    errors: ['INVALID_STATE', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ who }) => {
      const r = await deps.callbackTest.send(who);
      return {
        data: {
          delivered: r.delivered, url: r.url, http_status: r.httpStatus, duration_ms: Math.max(0, Math.round(r.durationMs)),
          response_excerpt: r.responseExcerpt, error: r.error, payload: r.payload, headers: r.headers,
        },
      };
    },
  });
}
