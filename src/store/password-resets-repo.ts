import type { Kysely, Transaction } from 'kysely';
import type { DB, SessionSubject } from './schema.js';

/** One-time password-reset links (migration 033): stored as the token's sha256 only. */
export class PasswordResetsRepo {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  /** A new link; the subject's open ones are used up, so only the newest works. */
  async replace(r: { id: string; kind: SessionSubject; subjectId: string; tokenHash: string; expiresAt: number }, now: number): Promise<void> {
    await this.db.updateTable('password_resets').set({ used_at: now }).where('subject_kind', '=', r.kind).where('subject_id', '=', r.subjectId).where('used_at', 'is', null).execute();
    await this.db.insertInto('password_resets').values({ id: r.id, subject_kind: r.kind, subject_id: r.subjectId, token_hash: r.tokenHash, created_at: now, expires_at: r.expiresAt, used_at: null }).execute();
  }

  async byTokenHash(kind: SessionSubject, tokenHash: string) {
    return this.db.selectFrom('password_resets').select(['id', 'subject_id', 'token_hash']).where('token_hash', '=', tokenHash).where('subject_kind', '=', kind).executeTakeFirst();
  }

  /** Uses a link up; false when it is used or expired already (of two racing resets, one wins). */
  async consume(id: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
