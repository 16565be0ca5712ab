import { Type } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../services/account/registration.js';
import type { PasswordResets } from '../../services/password-reset.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';

const strict = { additionalProperties: false } as const;

/**
 * Forgotten passwords, the same on the operator and the dashboard API but for whose account
 * it is: a request emails a one-time link (to the console's or the dashboard's reset page),
 * and the page posts the token with the new password. No session needed.
 */
export function passwordResetRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, resets: PasswordResets) {
  const kind = (kit.api === 'admin' ? 'operator' : 'reseller') as 'operator' | 'reseller';
  const page = kind === 'operator' ? '/admin/reset-password' : '/dashboard/reset-password';
  kit.route({
    method: 'POST', url: '/auth/forgot-password', tag: 'Session', auth: false, status: 202,
    summary: 'Ask for a password-reset link by email; the answer is the same whether or not the email has an account',
    description:
      `When the email belongs to an account, a link to ${page}?token=… is emailed to it (in the account's language); it works once, for an hour, ` +
      'and only the newest link of an account works. Throttled per address and per email (TOO_MANY_ATTEMPTS with Retry-After).',
    body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, strict),
    response: Type.Object({ accepted: Type.Boolean({ description: 'always true' }) }),
    errors: ['TOO_MANY_ATTEMPTS'],
    handler: async ({ body, ip }) => {
      await resets.request(kind, body.email, ip);
      return { data: { accepted: true } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/reset-password', tag: 'Session', auth: false,
    summary: "Set a new password with the token of a reset link; every session of the account ends",
    description: 'An unknown, used, superseded or expired token all answer INVALID_RESET_TOKEN and change nothing. Sign in with the new password afterwards.',
    body: Type.Object({
      token: Type.String({ minLength: 1, maxLength: 200 }),
      password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `at least ${PASSWORD_MIN_LENGTH} characters` }),
    }, strict),
    response: Type.Object({ reset: Type.Boolean({ description: 'always true' }) }),
    errors: ['INVALID_RESET_TOKEN', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ body, ip }) => {
      await resets.reset(kind, body.token, body.password, ip);
      return { data: { reset: true } };
    },
  });
}
