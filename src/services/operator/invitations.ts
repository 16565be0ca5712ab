import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { InvitationsRepo, invitationState } from '../../store/invitations-repo.js';
import type { ServiceCore } from '../core.js';
import { hashToken } from '../sessions.js';
import type { Actor } from './actor.js';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The dashboard page that takes the token (built by the web team against POST /dashboard/v1/auth/accept-invitation). */
export const ACCEPT_INVITATION_PATH = '/dashboard/accept-invitation';

/**
 * Invitations of resellers to the dashboard: a reseller made by the operator has no
 * password, so it gets a one-time link where it sets one. The token is shown once to the
 * operator and stored as its sha256; a new invitation revokes the reseller's open ones, so
 * at most one link works at a time. Accepting is the dashboard's (account/invitation.ts).
 */
export class ResellerInvitations {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'clock' | 'ids' | 'publicBaseUrl' | 'notifier'>) {}

  private async reseller(resellerId: string) {
    const r = await this.core.repos.resellers.get(resellerId);
    if (!r) throw new AppError('NOT_FOUND', `no reseller with id ${resellerId}`);
    return r;
  }

  async create(resellerId: string, actor: Actor, note?: string | null) {
    const r = await this.reseller(resellerId);
    const token = `inv_${randomBytes(32).toString('base64url')}`;
    const id = this.core.ids.uuid();
    const now = this.core.clock.now();
    const expiresAt = now + INVITATION_TTL_MS;
    const link = this.core.notifier.link(ACCEPT_INVITATION_PATH, { token });
    await this.core.db.transaction().execute(async (trx) => {
      const invitations = new InvitationsRepo(trx);
      const revoked = await invitations.revokeOpen(r.id, now);
      await invitations.insert({ id, resellerId: r.id, tokenHash: hashToken(token), createdBy: actor, expiresAt }, now);
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'reseller.invite', targetKind: 'reseller', targetId: r.id, before: null,
        after: { invitation_id: id, email: r.email, expires_at: expiresAt, revoked_invitations: revoked }, note,
      }, now);
      // Emailed too; the link is still shown once to the operator, for when email is not set up.
      await this.core.notifier.send(trx, { kind: 'reseller', id: r.id, email: r.email, language: r.language }, `reseller.invite:${id}`,
        { template: 'reseller_invitation', shopName: r.name, link, expiresInDays: INVITATION_TTL_MS / 86_400_000 }, now);
    });
    return { id, resellerId: r.id, email: r.email, token, link, createdAt: now, expiresAt };
  }

  async list(resellerId: string) {
    await this.reseller(resellerId);
    const now = this.core.clock.now();
    return (await new InvitationsRepo(this.core.db).listOf(resellerId)).map((i) => ({ ...i, state: invitationState(i, now) }));
  }

  /** Only an open invitation can be revoked (INVALID_STATE otherwise: used, expired and revoked are final). */
  async revoke(resellerId: string, invitationId: string, actor: Actor) {
    await this.reseller(resellerId);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const invitations = new InvitationsRepo(trx);
      const current = (await invitations.listOf(resellerId)).find((i) => i.id === invitationId);
      if (!current) throw new AppError('NOT_FOUND', `no invitation ${invitationId} for this reseller`);
      const state = invitationState(current, now);
      if (state !== 'open') throw new AppError('INVALID_STATE', `only an open invitation can be revoked; this one is ${state}`);
      await invitations.revokeOpen(resellerId, now, invitationId);
      await AuditRepo.record(trx, { operatorId: actor, action: 'reseller.invitation_revoke', targetKind: 'reseller', targetId: resellerId, before: { invitation_id: invitationId, state }, after: { invitation_id: invitationId, state: 'revoked' } }, now);
    });
    const after = (await this.list(resellerId)).find((i) => i.id === invitationId)!;
    return after;
  }
}
