import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../domain/order.js';
import type { Sessions } from '../../services/sessions.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';
import { Ok, SessionData, SignInBody } from '../schemas.js';

/** Sign-in and sign-out, the same on the operator and the dashboard API but for whose session it is. */
export function sessionRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, sessions: Sessions, signInSummary: string) {
  const kind = (kit.api === 'admin' ? 'operator' : 'reseller') as 'operator' | 'reseller';
  const idField = kind === 'operator' ? 'operator_id' : 'reseller_id';
  kit.route({
    method: 'POST', url: '/auth/sign-in', tag: 'Session', auth: false,
    summary: signInSummary,
    body: SignInBody,
    response: Type.Object({ ...SessionData.properties, [idField]: Type.String() }),
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ body, ip }) => {
      const s = await sessions.signIn(kind, body.email, body.password, ip);
      return { data: { token: s.token, expires_at: isoMillis(s.expiresAt), [idField]: s.subjectId } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/sign-out', tag: 'Session',
    summary: 'End this session (the token stops working at once)',
    response: Ok,
    handler: async ({ authorization }) => {
      await sessions.signOut(authorization);
      return { data: { ok: true } };
    },
  });
}
