import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../services/account/registration.js';
import { ATTEMPTS_PER_MINUTE } from '../../../services/sessions.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Nullable, Ok } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const OperatorItem = Type.Object({
  id: Type.String(), email: Type.String(), name: Type.String(), created_at: IsoTime(),
  disabled_at: Nullable(IsoTime('a disabled operator cannot sign in')),
});

/** Operator accounts: the list, one's own password, and a reset of another's. */
export function operatorAccountRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { operators } = deps.services;

  kit.route({
    method: 'GET', url: '/operators', tag: 'Operators',
    summary: 'Every operator, oldest first (never a password)',
    response: Type.Object({ operators: Type.Array(OperatorItem) }),
    handler: async () => ({
      data: {
        operators: (await operators.list()).map((o) => ({
          id: o.id, email: o.email, name: o.name, created_at: isoMillis(o.createdAt), disabled_at: o.disabledAt === null ? null : isoMillis(o.disabledAt),
        })),
      },
    }),
  });

  kit.route({
    method: 'POST', url: '/me/password', tag: 'Session',
    summary: 'Change your password (the current one is required); every other session of yours ends',
    description: `Checks of the current password are throttled per operator: past ${ATTEMPTS_PER_MINUTE} a minute TOO_MANY_ATTEMPTS, with Retry-After. The new password needs ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. Audited as operator.change_password.`,
    body: Type.Object({
      current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
      new_password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `at least ${PASSWORD_MIN_LENGTH} characters` }),
    }, { additionalProperties: false }),
    response: Ok,
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ who, body, authorization }) => {
      await operators.changeOwnPassword(who, authorization, body.current_password, body.new_password);
      return { data: { ok: true as const } };
    },
  });

  kit.route({
    method: 'POST', url: '/operators/:id/reset-password', tag: 'Operators',
    summary: "Reset another operator's password to a generated one, returned once; their sessions end",
    description: 'For an operator who is locked out. Your own password is changed with POST /me/password. Audited as operator.reset_password (never the password).',
    params: IdParams,
    body: Type.Object({}, { additionalProperties: false }),
    response: Type.Object({ id: Type.String(), email: Type.String(), password: Type.String({ description: 'shown once' }) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: await operators.resetPassword(params.id, who.operatorId) }),
  });
}
