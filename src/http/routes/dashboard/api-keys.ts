import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import type { KeyState } from '../../../services/account/api-keys.js';
import { IdParams, IsoTime, Nullable } from '../../schemas.js';
import type { JsonApiKit } from '../../json-api.js';
import type { DashboardApiDeps } from './index.js';

export const ApiKeyItem = Type.Object({
  id: Type.String(),
  api_key: Type.String({ description: 'masked, e.g. tk_ab12…9f3c' }),
  state: Type.Union([Type.Literal('live'), Type.Literal('expiring'), Type.Literal('revoked')], { description: 'expiring: rotated out, works until revoked_at' }),
  created_at: IsoTime(),
  revoked_at: Nullable(IsoTime('when the key stops (or stopped) working')),
});

export const presentKey = (k: { id: string; masked: string; state: KeyState; createdAt: number; revokedAt: number | null }) => ({
  id: k.id, api_key: k.masked, state: k.state, created_at: isoMillis(k.createdAt), revoked_at: k.revokedAt === null ? null : isoMillis(k.revokedAt),
});

/** API keys: generate (secret shown once), list masked, revoke. */
export function apiKeyRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { apiKeys } = deps.services;

  kit.route({
    method: 'GET', url: '/api-keys', tag: 'API keys',
    summary: 'The account\'s API keys, masked, newest first',
    response: Type.Object({ api_keys: Type.Array(ApiKeyItem) }),
    handler: async ({ who }) => ({ data: { api_keys: (await apiKeys.list(who)).map(presentKey) } }),
  });

  kit.route({
    method: 'POST', url: '/api-keys', tag: 'API keys',
    summary: 'Generate an API key and secret; the secret is in this response only',
    description:
      'The account must be active (approved by the operator). The keys that were live keep working for 24 hours ' +
      '(revoke_previous "after_overlap", the default) so integrators can roll without downtime, or stop at once ("now"). ' +
      'At most 5 keys may be live at once.',
    body: Type.Object(
      { revoke_previous: Type.Optional(Type.Union([Type.Literal('after_overlap'), Type.Literal('now')], { description: 'default after_overlap (24 hours)' })) },
      { additionalProperties: false },
    ),
    response: Type.Object({
      id: Type.String(),
      api_key: Type.String({ description: 'send as X-Api-Key' }),
      api_secret: Type.String({ description: 'HMAC key; shown once, never again' }),
      created_at: IsoTime(),
      previous_keys_revoked_at: Nullable(IsoTime('when the keys that were live stop working; null when there were none (a first key)')),
    }),
    errors: ['INVALID_STATE'],
    handler: async ({ who, body }) => {
      const k = await apiKeys.generate(who, body.revoke_previous ?? 'after_overlap');
      return { data: { id: k.id, api_key: k.apiKey, api_secret: k.apiSecret, created_at: isoMillis(k.createdAt), previous_keys_revoked_at: k.previousRevokedAt === null ? null : isoMillis(k.previousRevokedAt) } };
    },
  });

  kit.route({
    method: 'DELETE', url: '/api-keys/:id', tag: 'API keys',
    summary: 'Revoke an API key at once (also one still inside its rotation overlap)',
    params: IdParams,
    response: Type.Object({ id: Type.String(), api_key: Type.String({ description: 'masked' }), revoked_at: IsoTime() }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ who, params }) => {
      const r = await apiKeys.revoke(who, params.id);
      return { data: { id: r.id, api_key: r.masked, revoked_at: isoMillis(r.revokedAt) } };
    },
  });
}
