import { NO_STORE_HEADERS } from '../openapi/shared.js';
import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../domain/order.js';
import type { TwoFactor } from '../../services/two-factor.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';
import { IsoTime, Ok } from '../schemas.js';
import { SecondFactorFields } from './session-routes.js';

const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'ten single-use codes, shown only in this answer: keep them somewhere safe' }),
});

/**
 * A person's own two-factor sign-in, the same on the operator and the dashboard API: status,
 * enrolment (QR code and secret, then a first code), new recovery codes, turning it off.
 */
export function twoFactorRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, twoFactor: TwoFactor) {
  const kind = kit.api === 'admin' ? 'operator' : 'reseller';
  const subject = (who: { kind: 'operator'; operatorId: string } | { kind: 'reseller'; resellerId: string }) => (who.kind === 'operator' ? who.operatorId : who.resellerId);

  kit.route({
    method: 'GET', url: '/auth/two-factor', tag: 'Two-factor sign-in',
    summary: 'Whether two-factor sign-in is on, whether it is required, and how many recovery codes are left',
    response: Type.Object({
      enabled: Type.Boolean(),
      enabled_at: Type.Union([IsoTime(), Type.Null()]),
      required: Type.Boolean({ description: kind === 'operator' ? 'your roles need it (OPERATOR_2FA_REQUIRED): until it is on, other routes answer TWO_FACTOR_ENROLMENT_REQUIRED' : 'always false for now: a shop cannot yet require it of its members' }),
      recovery_codes_left: Type.Integer(),
    }),
    handler: async ({ who }) => {
      const s = await twoFactor.status(kind, subject(who));
      return { data: { enabled: s.enabled, enabled_at: s.enabledAt === null ? null : isoMillis(s.enabledAt), required: who.kind === 'operator' ? twoFactor.requiredFor(who.roles) : false, recovery_codes_left: s.recoveryCodesLeft } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/two-factor/enrolment', tag: 'Two-factor sign-in',
    summary: 'Start enrolling: a new secret as a QR code and as text, waiting for its first code',
    description: 'Scan `qr_code` (an SVG data: URL) or type `secret` into an authenticator app, then confirm with the code it shows. ' +
      'Starting again replaces an unconfirmed secret. INVALID_STATE while two-factor is on.',
    response: Type.Object({
      secret: Type.String({ description: 'base32, for typing into the app' }),
      otpauth_uri: Type.String(),
      qr_code: Type.String({ description: 'data:image/svg+xml;base64,… of the otpauth URI' }),
    }),
    errors: ['INVALID_STATE'],
    headers: NO_STORE_HEADERS,
    handler: async ({ who, reply }) => {
      const e = await twoFactor.startEnrolment(kind, subject(who), who.email);
      reply.header('cache-control', 'no-store');
      return { data: { secret: e.secret, otpauth_uri: e.uri, qr_code: e.qrCode } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/two-factor/enrolment/confirm', tag: 'Two-factor sign-in',
    summary: 'Confirm the enrolment with a code of the app: two-factor is on; answers ten recovery codes, once',
    body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false }),
    response: RecoveryCodes,
    errors: ['INVALID_TWO_FACTOR_CODE', 'INVALID_STATE', 'TOO_MANY_ATTEMPTS'],
    headers: NO_STORE_HEADERS,
    handler: async ({ who, body, ip, reply }) => {
      const codes = await twoFactor.confirmEnrolment(kind, subject(who), body.code, ip);
      reply.header('cache-control', 'no-store');
      return { data: { recovery_codes: codes } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/two-factor/recovery-codes', tag: 'Two-factor sign-in',
    summary: 'Ten new recovery codes (the old ones stop working), proven by a current code',
    body: Type.Object(SecondFactorFields, { additionalProperties: false }),
    response: RecoveryCodes,
    errors: ['INVALID_TWO_FACTOR_CODE', 'INVALID_STATE', 'TOO_MANY_ATTEMPTS'],
    headers: NO_STORE_HEADERS,
    handler: async ({ who, body, ip, reply }) => {
      await twoFactor.verify(kind, subject(who), body, ip);
      reply.header('cache-control', 'no-store');
      return { data: { recovery_codes: await twoFactor.newRecoveryCodes(kind, subject(who)) } };
    },
  });

  kit.route({
    method: 'POST', url: '/auth/two-factor/disable', tag: 'Two-factor sign-in',
    summary: 'Turn two-factor sign-in off, proven by a current code, a recovery code or the password',
    description: 'The secret, the recovery codes and every remembered device are forgotten.' +
      (kind === 'operator' ? ' An operator whose roles require it must enrol again before anything else.' : ''),
    body: Type.Object({ ...SecondFactorFields, password: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
    response: Ok,
    errors: ['INVALID_TWO_FACTOR_CODE', 'INVALID_CREDENTIALS', 'INVALID_STATE', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ who, body, ip }) => {
      await twoFactor.disable(kind, subject(who), body, ip);
      return { data: { ok: true } };
    },
  });
}
