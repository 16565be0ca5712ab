import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../domain/order.js';
import { hashToken } from '../../services/sessions.js';
import type { SessionList, SessionView } from '../../services/session-list.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';
import { IsoTime, Ok } from '../schemas.js';

export const SessionItem = Type.Object({
  id: Type.Union([Type.String(), Type.Null()], { description: 'null for a session opened before this list existed (it cannot be ended alone)' }),
  current: Type.Boolean({ description: 'the session of this request' }),
  device: Type.String({ description: 'a summary of the User-Agent, e.g. "Chrome on Windows"' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  created_at: IsoTime(),
  last_used_at: Type.Union([IsoTime('to the minute'), Type.Null()]),
  expires_at: IsoTime(),
});

export const presentSession = (s: SessionView) => ({
  id: s.id, current: s.current, device: s.device, ip: s.ip, created_at: isoMillis(s.createdAt),
  last_used_at: s.lastUsedAt === null ? null : isoMillis(s.lastUsedAt), expires_at: isoMillis(s.expiresAt),
});

/** A person's own sessions and sign-in history, the same on the operator and the dashboard API. */
export function sessionListRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, list: SessionList) {
  const kind = kit.api === 'admin' ? 'operator' : 'reseller';
  const subject = (who: { kind: 'operator'; operatorId: string } | { kind: 'reseller'; resellerId: string }) => (who.kind === 'operator' ? who.operatorId : who.resellerId);

  kit.route({
    method: 'GET', url: '/auth/sessions', tag: 'Session',
    summary: 'Your live sessions: device, address, created, last used (to the minute)',
    response: Type.Object({ sessions: Type.Array(SessionItem) }),
    handler: async ({ who, session }) => ({ data: { sessions: (await list.sessions(kind, subject(who), session ? hashToken(session.token) : null)).map(presentSession) } }),
  });

  kit.route({
    method: 'DELETE', url: '/auth/sessions/:id', tag: 'Session',
    summary: 'End one of your sessions at once (your current one too: then it is a sign-out)',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    response: Ok,
    errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => {
      await list.end(kind, subject(who), params.id);
      return { data: { ok: true } };
    },
  });

  kit.route({
    method: 'GET', url: '/auth/sign-ins', tag: 'Session',
    summary: 'Your 50 latest sign-ins: when, device, address, and whether the device was new (a new one is also emailed)',
    response: Type.Object({
      sign_ins: Type.Array(Type.Object({ id: Type.String(), at: IsoTime(), device: Type.String(), ip: Type.String(), new_device: Type.Boolean() })),
    }),
    handler: async ({ who }) => ({
      data: { sign_ins: (await list.history(kind, subject(who))).map((s) => ({ id: s.id, at: isoMillis(s.at), device: s.device, ip: s.ip, new_device: s.newDevice })) },
    }),
  });
}
