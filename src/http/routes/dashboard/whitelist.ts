import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

const Entry = Type.Object({ ip: Type.String({ description: 'canonical form' }), created_at: IsoTime() });

/** The API v1 IP whitelist: list, add, remove (effective on the next API v1 request). */
export function whitelistRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { whitelist } = deps.services;

  kit.route({
    method: 'GET', url: '/whitelist', tag: 'IP whitelist',
    summary: 'Source addresses allowed to call API v1',
    response: Type.Object({ whitelist: Type.Array(Entry) }),
    handler: async ({ who }) => ({ data: { whitelist: (await whitelist.list(who)).map((w) => ({ ip: w.ip, created_at: isoMillis(w.createdAt) })) } }),
  });

  kit.route({
    method: 'POST', url: '/whitelist', tag: 'IP whitelist',
    summary: 'Add one IPv4 or IPv6 address (stored canonical: lower-case IPv6, IPv4-mapped IPv6 as IPv4); CIDR ranges are not supported',
    body: Type.Object({ ip: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    response: Entry,
    errors: ['CONFLICT', 'INVALID_STATE'],
    handler: async ({ who, body }) => {
      const w = await whitelist.add(who, body.ip);
      return { data: { ip: w.ip, created_at: isoMillis(w.createdAt) } };
    },
  });

  kit.route({
    method: 'DELETE', url: '/whitelist/:ip', tag: 'IP whitelist',
    summary: 'Remove an address (URL-encode IPv6: %3A%3A1); API v1 refuses it from the next request',
    params: Type.Object({ ip: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    response: Type.Object({ ip: Type.String() }),
    errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => ({ data: await whitelist.remove(who, params.ip) }),
  });
}
