import type { Kysely, Transaction } from 'kysely';
import type { DB, Language, SessionSubject } from './schema.js';

/** Operator accounts, dashboard passwords of resellers, and sign-in sessions. */
export class AccountsRepo {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async operatorCount(): Promise<number> {
    const row = await this.db.selectFrom('operators').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async operatorByEmail(email: string) {
    return this.db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async operatorById(id: string) {
    return this.db.selectFrom('operators').select(['id', 'email', 'name', 'created_at', 'disabled_at']).where('id', '=', id).executeTakeFirst();
  }

  /** Every operator, oldest first (the console's list); never the password hash. */
  async listOperators() {
    return this.db.selectFrom('operators').select(['id', 'email', 'name', 'created_at', 'disabled_at', 'language']).orderBy('created_at').orderBy('id').execute();
  }

  /** The roles an operator holds (strings as stored; the domain checks them). */
  async operatorRoles(id: string): Promise<string[]> {
    return (await this.db.selectFrom('operator_roles').select('role').where('operator_id', '=', id).execute()).map((r) => r.role);
  }

  /** Every operator's roles, by operator id (the console's list). */
  async allOperatorRoles(): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const r of await this.db.selectFrom('operator_roles').select(['operator_id', 'role']).execute()) out.set(r.operator_id, [...(out.get(r.operator_id) ?? []), r.role]);
    return out;
  }

  /** Replaces an operator's roles with `roles`. */
  async setOperatorRoles(id: string, roles: readonly string[]) {
    await this.db.deleteFrom('operator_roles').where('operator_id', '=', id).execute();
    if (roles.length > 0) await this.db.insertInto('operator_roles').values(roles.map((role) => ({ operator_id: id, role }))).execute();
  }

  /** Operators who can sign in and hold `role`; with forUpdate (PostgreSQL) their rows stay locked until the transaction ends. */
  async activeHoldersOf(role: string, forUpdate = false): Promise<string[]> {
    let q = this.db.selectFrom('operators').innerJoin('operator_roles', 'operator_roles.operator_id', 'operators.id')
      .select('operators.id').where('operator_roles.role', '=', role).where('operators.disabled_at', 'is', null).orderBy('operators.id');
    if (forUpdate) q = q.forUpdate();
    return (await q.execute()).map((r) => r.id);
  }

  async operatorPasswordHash(id: string) {
    return (await this.db.selectFrom('operators').select('password_hash').where('id', '=', id).executeTakeFirst())?.password_hash ?? null;
  }

  async setOperatorPassword(id: string, passwordHash: string): Promise<boolean> {
    const res = await this.db.updateTable('operators').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The language a person's messages are written in (migration 033). */
  async setLanguage(kind: SessionSubject, id: string, language: Language): Promise<void> {
    if (kind === 'operator') await this.db.updateTable('operators').set({ language }).where('id', '=', id).execute();
    else await this.db.updateTable('resellers').set({ language }).where('id', '=', id).execute();
  }

  /** The optional message templates this person turned off (migration 040). */
  async mutedOf(kind: SessionSubject, id: string): Promise<string[]> {
    const row = kind === 'operator'
      ? await this.db.selectFrom('operators').select('muted_messages').where('id', '=', id).executeTakeFirst()
      : await this.db.selectFrom('resellers').select('muted_messages').where('id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.muted_messages) as string[]) : [];
  }

  async setMuted(kind: SessionSubject, id: string, templates: readonly string[]): Promise<void> {
    const muted_messages = JSON.stringify([...templates].sort());
    if (kind === 'operator') await this.db.updateTable('operators').set({ muted_messages }).where('id', '=', id).execute();
    else await this.db.updateTable('resellers').set({ muted_messages }).where('id', '=', id).execute();
  }

  async languageOf(kind: SessionSubject, id: string): Promise<Language | null> {
    const row = kind === 'operator'
      ? await this.db.selectFrom('operators').select('language').where('id', '=', id).executeTakeFirst()
      : await this.db.selectFrom('resellers').select('language').where('id', '=', id).executeTakeFirst();
    return row?.language ?? null;
  }

  /** Ends every session of a subject (a password reset: whoever held a session is signed out). */
  async deleteSessionsOf(kind: SessionSubject, subjectId: string) {
    await this.db.deleteFrom('sessions').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).execute();
  }

  /** The dashboard sign-in record of a reseller (password_hash null: no dashboard access yet). */
  async resellerLogin(email: string) {
    return this.db.selectFrom('resellers').select(['id', 'email', 'status', 'password_hash', 'language']).where('email', '=', email).executeTakeFirst();
  }

  async resellerPasswordHash(id: string) {
    return (await this.db.selectFrom('resellers').select('password_hash').where('id', '=', id).executeTakeFirst())?.password_hash ?? null;
  }

  async resellerSubject(id: string) {
    return this.db.selectFrom('resellers').select(['id', 'email', 'status']).where('id', '=', id).executeTakeFirst();
  }

  async setResellerPassword(resellerId: string, passwordHash: string, now: number) {
    await this.db.updateTable('resellers').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', resellerId).execute();
  }

  async insertSession(s: { tokenHash: string; kind: SessionSubject; subjectId: string; expiresAt: number; id: string; ip: string | null; userAgent: string | null }, now: number) {
    await this.db.insertInto('sessions').values({
      token_hash: s.tokenHash, subject_kind: s.kind, subject_id: s.subjectId, created_at: now, expires_at: s.expiresAt,
      id: s.id, ip: s.ip, user_agent: s.userAgent, last_used_at: now,
    }).execute();
  }

  async findSession(tokenHash: string, now: number) {
    return this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  }

  async deleteSession(tokenHash: string) {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends every session of a subject but one (password change: the session that changed it stays). */
  async deleteOtherSessions(kind: SessionSubject, subjectId: string, keepTokenHash: string) {
    await this.db.deleteFrom('sessions').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('token_hash', '!=', keepTokenHash).execute();
  }

  /** Expired sessions of one subject (on the sessions_subject index): the table stays bounded. */
  async deleteExpiredSessionsOf(kind: SessionSubject, subjectId: string, now: number) {
    await this.db.deleteFrom('sessions').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('expires_at', '<=', now).execute();
  }

  // --- sessions as a person sees them, and the sign-in history (migration 035) ---

  /** A subject's live sessions, most recently used first. */
  async liveSessionsOf(kind: SessionSubject, subjectId: string, now: number) {
    return this.db.selectFrom('sessions').select(['id', 'token_hash', 'ip', 'user_agent', 'created_at', 'last_used_at', 'expires_at'])
      .where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('expires_at', '>', now)
      .orderBy('last_used_at', 'desc').orderBy('created_at', 'desc').execute();
  }

  /** Ends one session of a subject by its public id; false if it is not theirs or gone. */
  async deleteSessionById(kind: SessionSubject, subjectId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('sessions').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Notes a session's use (the caller keeps this to once a minute). */
  async touchSession(tokenHash: string, now: number) {
    await this.db.updateTable('sessions').set({ last_used_at: now }).where('token_hash', '=', tokenHash).execute();
  }

  async insertSignIn(e: { id: string; kind: SessionSubject; subjectId: string; ip: string; userAgent: string; newDevice: boolean }, now: number) {
    await this.db.insertInto('sign_ins').values({ id: e.id, subject_kind: e.kind, subject_id: e.subjectId, created_at: now, ip: e.ip, user_agent: e.userAgent, new_device: e.newDevice ? 1 : 0 }).execute();
  }

  /** Whether the subject signed in before from this address with this User-Agent. */
  async signedInBefore(kind: SessionSubject, subjectId: string, ip: string, userAgent: string): Promise<boolean> {
    const row = await this.db.selectFrom('sign_ins').select('id').where('subject_kind', '=', kind).where('subject_id', '=', subjectId)
      .where('ip', '=', ip).where('user_agent', '=', userAgent).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets a subject's sign-ins before `before` (the history stays bounded). */
  async pruneSignInHistory(kind: SessionSubject, subjectId: string, before: number) {
    await this.db.deleteFrom('sign_ins').where('subject_kind', '=', kind).where('subject_id', '=', subjectId).where('created_at', '<', before).execute();
  }

  /** The newest `limit` sign-ins of a subject. */
  async signInsOf(kind: SessionSubject, subjectId: string, limit: number) {
    return this.db.selectFrom('sign_ins').select(['id', 'created_at', 'ip', 'user_agent', 'new_device'])
      .where('subject_kind', '=', kind).where('subject_id', '=', subjectId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** How many devices a subject has signed in from (a first device is no news). */
  async deviceCount(kind: SessionSubject, subjectId: string): Promise<number> {
    const row = await this.db.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).where('subject_kind', '=', kind).where('subject_id', '=', subjectId).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
