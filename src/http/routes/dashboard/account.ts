import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../services/account/registration.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Money, Nullable, Ok, SessionData } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';
import { ApiKeyItem, presentKey } from './api-keys.js';
import { SESSION_OPENED_HEADERS } from '../../openapi/shared.js';

const Password = (description: string) => Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description });

const Profile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  tier: Type.Union([Type.Literal('gold'), Type.Literal('platinum'), Type.Literal('diamond')], { description: 'gold until the operator assigns one' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('suspended')], { description: 'API v1 answers RESELLER_INACTIVE unless active' }),
  balance: Money(),
  currency: Type.String(),
  callback_url: Nullable(Type.String()),
  whitelist: Type.Array(Type.String()),
  api_keys: Type.Array(ApiKeyItem),
  created_at: IsoTime(),
});

/** Registration, the profile, the password and the callback URL of the signed-in reseller. */
export function accountRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { registration, profile } = deps.services;

  kit.route({
    method: 'POST', url: '/auth/register', tag: 'Account', auth: false,
    summary: 'Register a reseller account (pending until the operator approves it); signs the new account in',
    body: Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 100 }), email: Type.String({ minLength: 3, maxLength: 254 }), password: Password(`at least ${PASSWORD_MIN_LENGTH} characters`) },
      { additionalProperties: false },
    ),
    response: Type.Object({ ...SessionData.properties, reseller_id: Type.String(), status: Type.Literal('pending') }),
    errors: ['CONFLICT', 'TOO_MANY_ATTEMPTS'],
    headers: SESSION_OPENED_HEADERS,
    handler: async ({ body, ip, reply }) => {
      const r = await registration.register(body, ip);
      const csrf = kit.browser.open(reply, r.session);
      // Like sign-in: the answer carries the session token.
      reply.header('cache-control', 'no-store');
      return { data: { token: r.session.token, expires_at: isoMillis(r.session.expiresAt), csrf_token: csrf, reseller_id: r.resellerId, status: r.status } };
    },
  });

  kit.route({
    method: 'GET', url: '/me', tag: 'Account',
    summary: 'The signed-in account: tier, status, balance, callback URL, whitelist and masked API keys',
    response: Profile,
    handler: async ({ who }) => {
      const p = await profile.view(who);
      return {
        data: {
          id: p.id, name: p.name, email: p.email, tier: p.tier, status: p.status,
          balance: deps.present.money(p.balance), currency: p.currency, callback_url: p.callbackUrl,
          whitelist: p.whitelist, api_keys: p.apiKeys.map(presentKey), created_at: isoMillis(p.createdAt),
        },
      };
    },
  });

  kit.route({
    method: 'POST', url: '/me/password', tag: 'Account',
    summary: 'Change the password (the current one is required); every other session of the account ends',
    body: Type.Object({ current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }), new_password: Password(`at least ${PASSWORD_MIN_LENGTH} characters`) }, { additionalProperties: false }),
    response: Ok,
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    handler: async ({ who, body, authorization }) => {
      await profile.changePassword(who, authorization, body.current_password, body.new_password);
      return { data: { ok: true } };
    },
  });

  kit.route({
    method: 'PUT', url: '/me/callback-url', tag: 'Account',
    summary: 'Set the callback URL (http or https, public host) or clear it with null',
    description: 'The same SSRF rules as every callback delivery: a private, loopback or reserved target answers VALIDATION_ERROR with the reason.',
    body: Type.Object({ callback_url: Nullable(Type.String({ maxLength: 2000 })) }, { additionalProperties: false }),
    response: Type.Object({ callback_url: Nullable(Type.String()) }),
    handler: async ({ who, body }) => {
      await profile.setCallbackUrl(who, body.callback_url);
      const p = await profile.view(who);
      return { data: { callback_url: p.callbackUrl } };
    },
  });
}
