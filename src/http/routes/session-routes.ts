import { Type, type TSchema } from '@sinclair/typebox';
import { OPERATOR_ROLES, PERMISSION_NAMES, permissionsOf } from '../../domain/operator-roles.js';
import { isoMillis } from '../../domain/order.js';
import type { FastifyReply } from 'fastify';
import { REMEMBER_DEVICE_MAX_DAYS } from '../../domain/two-factor.js';
import type { OpenedSession, Sessions } from '../../services/sessions.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';
import { NO_STORE_HEADERS, SESSION_CLOSED_HEADERS, SESSION_OPENED_HEADERS, SIGN_IN_HEADERS } from '../openapi/shared.js';
import { IsoTime, Ok, SessionData, SignInBody } from '../schemas.js';

const PendingAnswer = Type.Object({
  two_factor_required: Type.Literal(true),
  challenge: Type.String({ description: 'send to POST /auth/sign-in/two-factor with a code' }),
  challenge_expires_at: IsoTime(),
});

export const SecondFactorFields = {
  code: Type.Optional(Type.String({ maxLength: 20, description: 'the six digits the authenticator app shows now' })),
  recovery_code: Type.Optional(Type.String({ maxLength: 40, description: 'one of the ten recovery codes (each works once)' })),
};

const SecondStepBody = Type.Object({
  challenge: Type.String({ minLength: 1, maxLength: 1000 }),
  ...SecondFactorFields,
  remember_device_days: Type.Optional(Type.Integer({ minimum: 0, maximum: REMEMBER_DEVICE_MAX_DAYS, description: 'skip the second step on this browser for this many days (0: not at all)' })),
}, { additionalProperties: false });

/**
 * Sign-in, sign-out and the current session, the same on the operator and the dashboard API
 * but for whose session it is. Sign-in answers the token (scripts) and sets the browser
 * session cookie with its CSRF token (the UI), so one call serves both.
 */
export function sessionRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, sessions: Sessions, signInSummary: string) {
  const kind = (kit.api === 'admin' ? 'operator' : 'reseller') as 'operator' | 'reseller';
  const idField = kind === 'operator' ? 'operator_id' : 'reseller_id';
  const sessionAnswer = Type.Object({ ...SessionData.properties, [idField]: Type.String() });
  const answer = (s: OpenedSession, reply: FastifyReply) => {
    const csrf = kit.browser.open(reply, s);
    reply.header('cache-control', 'no-store');
    return { data: { token: s.token, expires_at: isoMillis(s.expiresAt), csrf_token: csrf, [idField]: s.subjectId } };
  };
  kit.route({
    method: 'POST', url: '/auth/sign-in', tag: 'Session', auth: false,
    summary: signInSummary,
    description: 'Also sets the HttpOnly, SameSite=Strict session cookie; a browser then sends `X-CSRF-Token: <csrf_token>` on every state-changing request. ' +
      'Wrong passwords lock the source address, and the address with that email, for delays that double past a small allowance ' +
      '(TOO_MANY_ATTEMPTS with Retry-After, the password unchecked); successful sign-ins do not count, and other addresses are not concerned. ' +
      'With two-factor sign-in on (and this browser not remembered), the answer is `two_factor_required: true` with a `challenge` ' +
      'instead of a session: send it with a code to POST /auth/sign-in/two-factor within five minutes.',
    body: SignInBody,
    response: Type.Union([sessionAnswer, PendingAnswer]),
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    headers: SIGN_IN_HEADERS,
    handler: async ({ body, ip, reply, device }) => {
      const r = await sessions.signIn(kind, body.email, body.password, ip, device);
      if ('pending' in r) {
        reply.header('cache-control', 'no-store');
        return { data: { two_factor_required: true, challenge: r.pending.challenge, challenge_expires_at: isoMillis(r.pending.expiresAt) } };
      }
      return answer(r.session, reply);
    },
  });

  kit.route({
    method: 'POST', url: '/auth/sign-in/two-factor', tag: 'Session', auth: false,
    summary: 'The second step of a sign-in: the challenge and a code of the authenticator app (or a recovery code)',
    description: 'Answers the session as POST /auth/sign-in does. A code is accepted for its 30-second step and one step either side, ' +
      'and never twice; a recovery code works once. Wrong codes count in the sign-in throttle. `remember_device_days` (1 to 30) ' +
      'skips this step on this browser (its device cookie) for that many days.',
    body: SecondStepBody,
    response: sessionAnswer,
    errors: ['INVALID_TWO_FACTOR_CODE', 'TOO_MANY_ATTEMPTS', 'UNAUTHENTICATED'],
    headers: SESSION_OPENED_HEADERS,
    handler: async ({ body, ip, reply, device }) => {
      const s = await sessions.completeSignIn(kind, body.challenge, { code: body.code, recovery_code: body.recovery_code }, body.remember_device_days ?? 0, ip, device);
      return answer(s, reply);
    },
  });

  // An operator's session also says what it may do: the console shows only that.
  const operatorFields: Record<string, TSchema> = kind === 'operator'
    ? {
      roles: Type.Array(Type.Union(OPERATOR_ROLES.map((r) => Type.Literal(r))), { description: 'the roles this operator holds (read on every request)' }),
      permissions: Type.Array(Type.Union(PERMISSION_NAMES.map((p) => Type.Literal(p))), { description: 'what those roles allow; GET /roles has the whole table' }),
      two_factor_missing: Type.Boolean({ description: 'true: the roles need two-factor sign-in and it is not on; other routes answer TWO_FACTOR_ENROLMENT_REQUIRED until it is' }),
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
          ...(who.kind === 'operator' ? { roles: who.roles, permissions: permissionsOf(who.roles), two_factor_missing: who.twoFactorMissing } : {}),
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
