import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/** Reseller invitations (migration 016): one-time links, kept by token hash only. */
export class InvitationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(i: { id: string; resellerId: string; tokenHash: string; createdBy: string; expiresAt: number }, now: number) {
    await this.db
      .insertInto('reseller_invitations')
      .values({ id: i.id, reseller_id: i.resellerId, token_hash: i.tokenHash, created_by: i.createdBy, created_at: now, expires_at: i.expiresAt, used_at: null, revoked_at: null })
      .execute();
  }

  /** A reseller's invitations, newest first; never the token hash. */
  async listOf(resellerId: string) {
    const rows = await this.db
      .selectFrom('reseller_invitations')
      .select(['id', 'reseller_id', 'created_by', 'created_at', 'expires_at', 'used_at', 'revoked_at'])
      .where('reseller_id', '=', resellerId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc')
      .execute();
    return rows.map(toInvitation);
  }

  async byTokenHash(tokenHash: string) {
    const row = await this.db.selectFrom('reseller_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row ? { ...toInvitation(row), tokenHash: row.token_hash } : null;
  }

  /** Revokes the reseller's open invitations (all, or one); returns the ids revoked. */
  async revokeOpen(resellerId: string, now: number, onlyId?: string): Promise<string[]> {
    let q = this.db
      .updateTable('reseller_invitations')
      .set({ revoked_at: now })
      .where('reseller_id', '=', resellerId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    if (onlyId !== undefined) q = q.where('id', '=', onlyId);
    return (await q.returning('id').execute()).map((r) => r.id);
  }

  /** Marks an open invitation used; false when it was not open any more (a race, or a second use). */
  async consume(id: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('reseller_invitations')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}

export type InvitationState = 'open' | 'used' | 'expired' | 'revoked';

export interface Invitation {
  id: string;
  resellerId: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

/** One state at a time: used and revoked are final; an open one past its expiry is expired. */
export function invitationState(i: Invitation, now: number): InvitationState {
  if (i.usedAt !== null) return 'used';
  if (i.revokedAt !== null) return 'revoked';
  return i.expiresAt <= now ? 'expired' : 'open';
}

const num = (v: number | string | null) => (v === null ? null : Number(v));
function toInvitation(r: { id: string; reseller_id: string; created_by: string; created_at: number; expires_at: number; used_at: number | null; revoked_at: number | null }): Invitation {
  return {
    id: r.id, resellerId: r.reseller_id, createdBy: r.created_by, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at), usedAt: num(r.used_at), revokedAt: num(r.revoked_at),
  };
}
