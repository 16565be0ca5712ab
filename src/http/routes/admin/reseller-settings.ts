import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Nullable } from '../../schemas.js';
import { ApiKeyItem, presentKey } from '../dashboard/api-keys.js';
import type { AdminApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Note = Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'why; kept in the audit log' }));
const WhitelistEntry = Type.Object({ ip: Type.String({ description: 'canonical form' }), created_at: IsoTime() });
const SAME_RULES = "The reseller's own rules apply, as in the dashboard; the change is audited on the reseller.";

/**
 * What a reseller can do in its dashboard settings, done for it by the operator (a support
 * desk): API keys, the IP whitelist, the callback URL. Same services, same rules, audited.
 */
export function resellerSettingsRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const svc = deps.services.resellerSettings;

  kit.route({
    method: 'GET', url: '/resellers/:id/api-keys', tag: 'Reseller settings',
    summary: "A reseller's API keys, masked, newest first",
    params: Type.Object({ id: Id }, strict),
    response: Type.Object({ api_keys: Type.Array(ApiKeyItem) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: { api_keys: (await svc.listKeys(params.id)).map(presentKey) } }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/api-keys', tag: 'Reseller settings',
    summary: 'Issue an API key and secret for a reseller; the secret is in this response only',
    description: `The reseller must be active. The keys that were live keep working for 24 hours (revoke_previous "after_overlap", the default) or stop at once ("now"); at most 5 live at once. ${SAME_RULES}`,
    params: Type.Object({ id: Id }, strict),
    body: Type.Object({
      revoke_previous: Type.Optional(Type.Union([Type.Literal('after_overlap'), Type.Literal('now')], { description: 'default after_overlap (24 hours)' })), note: Note,
    }, strict),
    response: Type.Object({
      id: Type.String(), api_key: Type.String({ description: 'send as X-Api-Key' }), api_secret: Type.String({ description: 'HMAC key; shown once, never again' }),
      created_at: IsoTime(), previous_keys_revoked_at: Nullable(IsoTime('when the keys that were live stop working; null when there were none (a first key)')),
    }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => {
      const k = await svc.issueKey(params.id, body.revoke_previous ?? 'after_overlap', who.operatorId, body.note);
      return { data: { id: k.id, api_key: k.apiKey, api_secret: k.apiSecret, created_at: isoMillis(k.createdAt), previous_keys_revoked_at: k.previousRevokedAt === null ? null : isoMillis(k.previousRevokedAt) } };
    },
  });

  kit.route({
    method: 'DELETE', url: '/resellers/:id/api-keys/:keyId', tag: 'Reseller settings',
    summary: "Revoke one of a reseller's API keys at once (also one inside its rotation overlap)",
    description: SAME_RULES,
    params: Type.Object({ id: Id, keyId: Id }, strict),
    response: Type.Object({ id: Type.String(), api_key: Type.String({ description: 'masked' }), revoked_at: IsoTime() }),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, who }) => {
      const r = await svc.revokeKey(params.id, params.keyId, who.operatorId);
      return { data: { id: r.id, api_key: r.masked, revoked_at: isoMillis(r.revokedAt) } };
    },
  });

  kit.route({
    method: 'GET', url: '/resellers/:id/whitelist', tag: 'Reseller settings',
    summary: 'Source addresses allowed to call API v1 for a reseller',
    params: Type.Object({ id: Id }, strict),
    response: Type.Object({ whitelist: Type.Array(WhitelistEntry) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: { whitelist: (await svc.listWhitelist(params.id)).map((w) => ({ ip: w.ip, created_at: isoMillis(w.createdAt) })) } }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/whitelist', tag: 'Reseller settings',
    summary: "Add one IPv4 or IPv6 address to a reseller's whitelist (single addresses, no CIDR; at most 50)",
    description: SAME_RULES,
    params: Type.Object({ id: Id }, strict),
    body: Type.Object({ ip: Type.String({ minLength: 1, maxLength: 100 }), note: Note }, strict),
    response: WhitelistEntry,
    errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => {
      const w = await svc.addIp(params.id, body.ip, who.operatorId, body.note);
      return { data: { ip: w.ip, created_at: isoMillis(w.createdAt) } };
    },
  });

  kit.route({
    method: 'DELETE', url: '/resellers/:id/whitelist/:ip', tag: 'Reseller settings',
    summary: "Remove an address from a reseller's whitelist (URL-encode IPv6: %3A%3A1); API v1 refuses it from the next request",
    description: SAME_RULES,
    params: Type.Object({ id: Id, ip: Type.String({ minLength: 1, maxLength: 100 }) }, strict),
    response: Type.Object({ ip: Type.String() }),
    errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: await svc.removeIp(params.id, params.ip, who.operatorId) }),
  });

  kit.route({
    method: 'PUT', url: '/resellers/:id/callback-url', tag: 'Reseller settings',
    summary: "Set a reseller's callback URL (http or https, public host) or clear it with null",
    description: `The SSRF rules of the reseller's own setting: a private, loopback or reserved target answers VALIDATION_ERROR with the reason (unless CALLBACK_ALLOW_PRIVATE_TARGETS). ${SAME_RULES}`,
    params: Type.Object({ id: Id }, strict),
    body: Type.Object({ callback_url: Nullable(Type.String({ maxLength: 2000 })), note: Note }, strict),
    response: Type.Object({ callback_url: Nullable(Type.String()) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => ({ data: { callback_url: (await svc.setCallbackUrl(params.id, body.callback_url, who.operatorId, body.note)).callbackUrl } }),
  });
}
