import type { Kysely, Transaction } from 'kysely';
import type { DB, SessionSubject } from './schema.js';

/** Two-factor secrets, recovery codes and remembered devices (migration 035). */
export class TwoFactorRepo {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async find(kind: SessionSubject, subjectId: string) {
    return this.db.selectFrom('two_factor').selectAll().where('subject_kind', '=', kind).where('subject_id', '=', subjectId).executeTakeFirst();
  }

  /** Whether the person has two-factor sign-in on (read on every operator request). */
  async enabled(kind: SessionSubject, subjectId: string): Promise<boolean> {
    const row = await this.db.selectFrom('two_factor').select('enabled_at').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).executeTakeFirst();
    return row !== undefined && row.enabled_at !== null;
  }

  /** Starts (or restarts) an enrolment; refused (false) while two-factor is on. */
  async startEnrolment(kind: SessionSubject, subjectId: string, secretEnc: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('two_factor').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('enabled_at', 'is', null).execute();
      const res = await tx.insertInto('two_factor')
        .values({ subject_kind: kind, subject_id: subjectId, secret_enc: secretEnc, enabled_at: null, last_step: null, created_at: now })
        .onConflict((oc) => oc.columns(['subject_kind', 'subject_id']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
    });
  }

  /**
   * Takes time step `step` as used if it is later than the last one: one statement, so two
   * requests with the same code cannot both pass. `pending`: the enrolment's confirmation
   * (which also turns two-factor on), otherwise a sign-in or a check of an enabled one.
   */
  async useStep(kind: SessionSubject, subjectId: string, step: number, now: number, pending: boolean): Promise<boolean> {
    let q = this.db.updateTable('two_factor')
      .set(pending ? { last_step: step, enabled_at: now } : { last_step: step })
      .where('subject_kind', '=', kind).where('subject_id', '=', subjectId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]));
    q = pending ? q.where('enabled_at', 'is', null) : q.where('enabled_at', 'is not', null);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async replaceRecoveryCodes(kind: SessionSubject, subjectId: string, hashes: string[]) {
    await this.db.deleteFrom('two_factor_recovery_codes').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).execute();
    await this.db.insertInto('two_factor_recovery_codes').values(hashes.map((code_hash) => ({ subject_kind: kind, subject_id: subjectId, code_hash, used_at: null }))).execute();
  }

  /** Uses a recovery code once: true only for the one request that marks it used. */
  async useRecoveryCode(kind: SessionSubject, subjectId: string, codeHash: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('two_factor_recovery_codes').set({ used_at: now })
      .where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('code_hash', '=', codeHash).where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(kind: SessionSubject, subjectId: string): Promise<number> {
    const row = await this.db.selectFrom('two_factor_recovery_codes').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('used_at', 'is', null).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Turns two-factor off: the secret, the codes and every remembered device go. Run inside the caller's transaction. */
  async remove(kind: SessionSubject, subjectId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('two_factor').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).executeTakeFirst();
    await this.db.deleteFrom('two_factor_recovery_codes').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).execute();
    await this.db.updateTable('devices').set({ two_factor_until: null }).where('subject_kind', '=', kind).where('subject_id', '=', subjectId).execute();
    return Number(res.numDeletedRows) > 0;
  }

  // --- devices (a browser's device cookie) ---

  async device(tokenHash: string) {
    return this.db.selectFrom('devices').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async insertDevice(d: { tokenHash: string; kind: SessionSubject; subjectId: string; twoFactorUntil: number | null }, now: number) {
    await this.db.insertInto('devices').values({ token_hash: d.tokenHash, subject_kind: d.kind, subject_id: d.subjectId, created_at: now, last_seen_at: now, two_factor_until: d.twoFactorUntil }).execute();
  }

  /** Forgets a subject's devices not seen since `before`. */
  async pruneDevices(kind: SessionSubject, subjectId: string, before: number) {
    await this.db.deleteFrom('devices').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('last_seen_at', '<', before).execute();
  }

  async touchDevice(tokenHash: string, now: number, twoFactorUntil?: number) {
    await this.db.updateTable('devices').set(twoFactorUntil === undefined ? { last_seen_at: now } : { last_seen_at: now, two_factor_until: twoFactorUntil }).where('token_hash', '=', tokenHash).execute();
  }
}
