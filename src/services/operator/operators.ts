import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import { AccountsRepo } from '../../store/accounts-repo.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { assertPasswordAcceptable } from '../account/registration.js';
import type { ServiceCore } from '../core.js';
import { bearerToken, hashToken, type OperatorPrincipal } from '../sessions.js';
import type { Actor } from './actor.js';

export const FIRST_OPERATOR_EMAIL = 'admin@localhost';

const newPassword = () => randomBytes(18).toString('base64url');
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/** Operator accounts: the first one created at first start, more added by an operator or the CLI. */
export class OperatorAccounts {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'hasher' | 'clock' | 'ids' | 'sessions'>) {}

  async list() {
    return (await this.core.repos.accounts.listOperators()).map((o) => ({
      id: o.id, email: o.email, name: o.name, createdAt: Number(o.created_at), disabledAt: o.disabled_at === null ? null : Number(o.disabled_at),
    }));
  }

  /**
   * The signed-in operator's own password, as the dashboard's: the current one is required
   * (a borrowed session cannot take the account over), attempts are throttled, and every
   * other session of the operator ends. Audited without any password.
   */
  async changeOwnPassword(who: OperatorPrincipal, authorization: string | undefined, current: string, next: string) {
    await this.core.sessions.throttle(`password:operator:${who.operatorId}`);
    const hash = await this.core.repos.accounts.operatorPasswordHash(who.operatorId);
    const ok = hash !== null && (await this.core.hasher.verify(current, hash));
    if (!ok) throw new AppError('INVALID_CREDENTIALS', 'current_password is wrong');
    assertPasswordAcceptable(next, 'new_password');
    if (next === current) throw new AppError('VALIDATION_ERROR', 'new_password must differ from current_password');
    const newHash = await this.core.hasher.hash(next);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      await accounts.setOperatorPassword(who.operatorId, newHash);
      await accounts.deleteOtherSessions('operator', who.operatorId, hashToken(bearerToken(authorization) ?? ''));
      await AuditRepo.record(trx, { operatorId: who.operatorId, action: 'operator.change_password', targetKind: 'operator', targetId: who.operatorId, before: null, after: { other_sessions: 'ended' } }, now);
    });
  }

  /**
   * Another operator's password replaced by a generated one (returned once): for an operator
   * locked out. Their sessions end; the reset is audited (never the password).
   */
  async resetPassword(operatorId: string, actor: Actor): Promise<{ id: string; email: string; password: string }> {
    const target = await this.core.repos.accounts.operatorById(operatorId);
    if (!target) throw new AppError('NOT_FOUND', `no operator with id ${operatorId}`);
    if (target.id === actor) throw new AppError('VALIDATION_ERROR', 'to change your own password use POST /admin/v1/me/password (it needs the current one)');
    const password = newPassword();
    const passwordHash = await this.core.hasher.hash(password);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      if (!(await accounts.setOperatorPassword(target.id, passwordHash))) throw new AppError('NOT_FOUND', `no operator with id ${operatorId}`);
      await accounts.deleteSessionsOf('operator', target.id);
      await AuditRepo.record(trx, { operatorId: actor, action: 'operator.reset_password', targetKind: 'operator', targetId: target.id, before: null, after: { email: target.email, sessions: 'ended' } }, now);
    });
    return { id: target.id, email: target.email, password };
  }

  /** Creates the first operator if there is none; returns its password, shown once. */
  async ensureFirst(): Promise<{ email: string; password: string } | null> {
    if ((await this.core.repos.accounts.operatorCount()) > 0) return null;
    return this.create(FIRST_OPERATOR_EMAIL, 'Operator');
  }

  /** A new operator with a generated password (returned once, stored as a scrypt hash). */
  async create(email: string, name: string, byOperatorId?: string): Promise<{ id: string; email: string; password: string }> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) throw new AppError('VALIDATION_ERROR', `"${email}" is not an email address`);
    if (await this.core.repos.accounts.operatorByEmail(normalized)) throw new AppError('CONFLICT', `an operator with email ${normalized} already exists`);
    const password = newPassword();
    const id = this.core.ids.uuid();
    const passwordHash = await this.core.hasher.hash(password);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      await trx.insertInto('operators').values({ id, email: normalized, name, password_hash: passwordHash, created_at: now, disabled_at: null }).execute();
      if (byOperatorId) await AuditRepo.record(trx, { operatorId: byOperatorId, action: 'operator.create', targetKind: 'operator', targetId: id, before: null, after: { email: normalized, name } }, now);
    });
    return { id, email: normalized, password };
  }
}
