import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../services/account/registration.js';
import type { JsonApiKit } from '../../json-api.js';
import { SessionData } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';
import { SESSION_OPENED_HEADERS } from '../../openapi/shared.js';

/** Accepting the operator's invitation: the page behind the link posts here (no session needed). */
export function invitationRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  kit.route({
    method: 'POST', url: '/auth/accept-invitation', tag: 'Account', auth: false,
    summary: "Accept the operator's invitation: set the password, and be signed in",
    description:
      'token is the one from the invitation link (/dashboard/accept-invitation?token=…). It works once, for 7 days, until the operator revokes it or sends a newer one; ' +
      'an unknown, used, expired or revoked token all answer INVALID_INVITATION. Any other session of the account ends. Attempts are throttled per address like sign-in. Like sign-in, it also sets the browser session cookie.',
    body: Type.Object({
      token: Type.String({ minLength: 1, maxLength: 200 }),
      password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `at least ${PASSWORD_MIN_LENGTH} characters` }),
    }, { additionalProperties: false }),
    response: Type.Object({ ...SessionData.properties, reseller_id: Type.String() }),
    errors: ['INVALID_INVITATION', 'TOO_MANY_ATTEMPTS'],
    headers: SESSION_OPENED_HEADERS,
    handler: async ({ body, ip, reply }) => {
      const r = await deps.services.invitation.accept(body.token, body.password, ip);
      const csrf = kit.browser.open(reply, r.session);
      // Like sign-in: the answer carries the session token.
      reply.header('cache-control', 'no-store');
      return { data: { token: r.session.token, expires_at: isoMillis(r.session.expiresAt), csrf_token: csrf, reseller_id: r.resellerId } };
    },
  });
}
