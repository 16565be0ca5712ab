import { Type } from '@sinclair/typebox';
import { isoMillis } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Nullable } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;
const Id = Type.String({ minLength: 1, maxLength: 100 });
const State = Type.Union([Type.Literal('open'), Type.Literal('used'), Type.Literal('expired'), Type.Literal('revoked')]);
const InvitationItem = Type.Object({
  id: Type.String(), state: State, created_by: Type.String({ description: 'operator id, or "cli"' }),
  created_at: IsoTime(), expires_at: IsoTime(), used_at: Nullable(IsoTime()), revoked_at: Nullable(IsoTime()),
});

type Item = Awaited<ReturnType<AdminApiDeps['services']['invitations']['list']>>[number];
const item = (i: Item) => ({
  id: i.id, state: i.state, created_by: i.createdBy, created_at: isoMillis(i.createdAt), expires_at: isoMillis(i.expiresAt),
  used_at: i.usedAt === null ? null : isoMillis(i.usedAt), revoked_at: i.revokedAt === null ? null : isoMillis(i.revokedAt),
});

/** Invitations of a reseller to the dashboard: a one-time link where it sets its password. */
export function invitationRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const svc = deps.services.invitations;

  kit.route({
    method: 'POST', url: '/resellers/:id/invitations', tag: 'Reseller settings',
    summary: 'Invite a reseller to the dashboard: a one-time link, valid 7 days, where it sets its password; the token is shown once',
    description:
      'Hand the link (or the token) to the reseller: its page calls POST /dashboard/v1/auth/accept-invitation {token, password}, which sets the password and signs it in. ' +
      "A new invitation revokes the reseller's open ones. Accepting also works for a reseller that has a password (it is replaced and its sessions end). Audited as reseller.invite.",
    params: Type.Object({ id: Id }, strict),
    body: Type.Object({ note: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'why; kept in the audit log' })) }, strict),
    response: Type.Object({
      id: Type.String(), reseller_id: Type.String(), email: Type.String(),
      token: Type.String({ description: 'shown once; stored only as its hash' }),
      link: Type.String({ description: '<PUBLIC_BASE_URL>/dashboard/accept-invitation?token=…' }),
      created_at: IsoTime(), expires_at: IsoTime(),
    }),
    errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => {
      const i = await svc.create(params.id, who.operatorId, body.note);
      return { data: { id: i.id, reseller_id: i.resellerId, email: i.email, token: i.token, link: i.link, created_at: isoMillis(i.createdAt), expires_at: isoMillis(i.expiresAt) } };
    },
  });

  kit.route({
    method: 'GET', url: '/resellers/:id/invitations', tag: 'Reseller settings',
    summary: "A reseller's invitations, newest first, with their state (never a token)",
    params: Type.Object({ id: Id }, strict),
    response: Type.Object({ invitations: Type.Array(InvitationItem) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: { invitations: (await svc.list(params.id)).map(item) } }),
  });

  kit.route({
    method: 'DELETE', url: '/resellers/:id/invitations/:invitationId', tag: 'Reseller settings',
    summary: 'Revoke an open invitation: its link stops working at once',
    params: Type.Object({ id: Id, invitationId: Id }, strict),
    response: InvitationItem,
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, who }) => ({ data: item(await svc.revoke(params.id, params.invitationId, who.operatorId)) }),
  });
}
