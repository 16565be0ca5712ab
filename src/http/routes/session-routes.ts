import { Type, type TSchema } from '@sinclair/typebox';
import { OPERATOR_ROLES, PERMISSION_NAMES, permissionsOf } from '../../domain/operator-roles.js';
import { isoMillis } from '../../domain/order.js';
import type { Sessions } from '../../services/sessions.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';
import { NO_STORE_HEADERS, SESSION_CLOSED_HEADERS, SESSION_OPENED_HEADERS } from '../openapi/shared.js';
import { IsoTime, Ok, SessionData, SignInBody } from '../schemas.js';

/**
 * Sign-in, sign-out and the current session, the same on the operator and the dashboard API
 * but for whose session it is. Sign-in answers the token (scripts) and sets the browser
 * session cookie with its CSRF token (the UI), so one call serves both.
 */
export function sessionRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, sessions: Sessions, signInSummary: string) {
  const kind = (kit.api === 'admin' ? 'operator' : 'reseller') as 'operator' | 'reseller';
  const idField = kind === 'operator' ? 'operator_id' : 'reseller_id';
  kit.route({
    method: 'POST', url: '/auth/sign-in', tag: 'Session', auth: false,
    summary: signInSummary,
    description: 'Also sets the HttpOnly, SameSite=Strict session cookie; a browser then sends `X-CSRF-Token: <csrf_token>` on every state-changing request. ' +
      'Wrong passwords lock the source address, and the address with that email, for delays that double past a small allowance ' +
      '(TOO_MANY_ATTEMPTS with Retry-After, the password unchecked); successful sign-ins do not count, and other addresses are not concerned.',
    body: SignInBody,
    response: Type.Object({ ...SessionData.properties, [idField]: Type.String() }),
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    headers: SESSION_OPENED_HEADERS,
    handler: async ({ body, ip, reply }) => {
      const s = await sessions.signIn(kind, body.email, body.password, ip);
      const csrf = kit.browser.open(reply, s);
      reply.header('cache-control', 'no-store');
      return { data: { token: s.token, expires_at: isoMillis(s.expiresAt), csrf_token: csrf, [idField]: s.subjectId } };
    },
  });

  // An operator's session also says what it may do: the console shows only that.
  const operatorFields: Record<string, TSchema> = kind === 'operator'
    ? {
      roles: Type.Array(Type.Union(OPERATOR_ROLES.map((r) => Type.Literal(r))), { description: 'the roles this operator holds (read on every request)' }),
      permissions: Type.Array(Type.Union(PERMISSION_NAMES.map((p) => Type.Literal(p))), { description: 'what those roles allow; GET /roles has the whole table' }),
    }
    : {};
  kit.route({
    method: 'GET', url: '/auth/session', tag: 'Session',
    summary: kind === 'operator' ? 'The current session (cookie or bearer): who, with which roles and permissions, until when, and its CSRF token' : 'The current session (cookie or bearer): who, until when, and its CSRF token',
    description: 'What a browser UI calls on load: 401 UNAUTHENTICATED means "go to sign-in".',
    response: Type.Object({ [idField]: Type.String(), email: Type.String(), ...operatorFields, expires_at: IsoTime(), csrf_token: Type.String() }),
    headers: NO_STORE_HEADERS,
    handler: async ({ who, session, reply }) => {
      // It carries the CSRF token: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return {
        data: {
          [idField]: who.kind === 'operator' ? who.operatorId : who.resellerId,
          email: who.email,
          ...(who.kind === 'operator' ? { roles: who.roles, permissions: permissionsOf(who.roles) } : {}),
          expires_at: isoMillis(session!.expiresAt), csrf_token: kit.browser.csrfToken(session!.token),
        },
      };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/sign-out', tag: 'Session',
    summary: 'End this session (the token stops working at once) and clear the session cookie',
    response: Ok,
    headers: SESSION_CLOSED_HEADERS,
    handler: async ({ authorization, reply }) => {
      await sessions.signOut(authorization);
      kit.browser.close(reply);
      return { data: { ok: true } };
    },
  });
}
