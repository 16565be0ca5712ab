import { randomBytes } from 'node:crypto';
import { OPERATOR_ROLES, parseRoles, type OperatorRole } from '../../domain/operator-roles.js';
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
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'dialect' | 'repos' | 'hasher' | 'clock' | 'ids' | 'sessions' | 'twoFactor' | 'sessionList'>) {}

  async list() {
    const roles = await this.core.repos.accounts.allOperatorRoles();
    return (await this.core.repos.accounts.listOperators()).map((o) => ({
      id: o.id, email: o.email, name: o.name, createdAt: Number(o.created_at), disabledAt: o.disabled_at === null ? null : Number(o.disabled_at),
      roles: inTableOrder(roles.get(o.id) ?? []),
    }));
  }

  /**
   * Replaces an operator's roles (given as names; at least one). The last operator holding
   * owner keeps it (LAST_OWNER): an installation always has someone who can manage roles.
   * Audited as operator.roles with the roles before and after.
   */
  async setRoles(operatorId: string, given: readonly string[], actor: Actor): Promise<{ id: string; email: string; roles: OperatorRole[] }> {
    const parsed = parseRoles(given);
    if ('error' in parsed) throw new AppError('VALIDATION_ERROR', `roles: ${parsed.error}`);
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      const target = await accounts.operatorById(operatorId);
      if (!target) throw new AppError('NOT_FOUND', `no operator with id ${operatorId}`);
      // Locked on PostgreSQL so that two owners demoting each other at once cannot both pass.
      const owners = await accounts.activeHoldersOf('owner', this.core.dialect === 'postgres');
      const before = inTableOrder(await accounts.operatorRoles(target.id));
      if (!parsed.roles.includes('owner') && owners.length === 1 && owners[0] === target.id) {
        throw new AppError('LAST_OWNER', `${target.email} is the last owner: make another operator owner first, then change this one's roles`);
      }
      await accounts.setOperatorRoles(target.id, parsed.roles);
      await AuditRepo.record(trx, { operatorId: actor, action: 'operator.roles', targetKind: 'operator', targetId: target.id, before: { roles: before }, after: { email: target.email, roles: parsed.roles } }, now);
      return { id: target.id, email: target.email, roles: parsed.roles };
    });
  }

  /** setRoles by email: the CLI's operator-roles. */
  async setRolesByEmail(email: string, given: readonly string[], actor: Actor) {
    const op = await this.core.repos.accounts.operatorByEmail(email.trim().toLowerCase());
    if (!op) throw new AppError('NOT_FOUND', `no operator has the email ${email.trim().toLowerCase()}`);
    return this.setRoles(op.id, given, actor);
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

  /** Another operator's live sessions (an owner's view). */
  async sessionsOf(operatorId: string) {
    if (!(await this.core.repos.accounts.operatorById(operatorId))) throw new AppError('NOT_FOUND', `no operator with id ${operatorId}`);
    return this.core.sessionList.sessions('operator', operatorId, null);
  }

  /** Ends every session of another operator at once (audited); answers how many ended. */
  async endSessionsOf(operatorId: string, actor: Actor): Promise<number> {
    const target = await this.core.repos.accounts.operatorById(operatorId);
    if (!target) throw new AppError('NOT_FOUND', `no operator with id ${operatorId}`);
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      const ended = (await accounts.liveSessionsOf('operator', target.id, now)).length;
      await accounts.deleteSessionsOf('operator', target.id);
      await AuditRepo.record(trx, { operatorId: actor, action: 'operator.end_sessions', targetKind: 'operator', targetId: target.id, before: null, after: { email: target.email, ended } }, now);
      return ended;
    });
  }

  /** Turns off an operator's two-factor sign-in without a code (CLI: lost phone and recovery codes). */
  async turnOffTwoFactorByEmail(email: string, actor: Actor): Promise<{ id: string; email: string; wasOn: boolean }> {
    const target = await this.core.repos.accounts.operatorByEmail(email.trim().toLowerCase());
    if (!target) throw new AppError('NOT_FOUND', `no operator with email ${email}`);
    return { id: target.id, email: target.email, wasOn: await this.core.twoFactor.turnOff('operator', target.id, actor) };
  }

  /** Creates the first operator if there is none; returns its password, shown once. */
  async ensureFirst(): Promise<{ email: string; password: string } | null> {
    if ((await this.core.repos.accounts.operatorCount()) > 0) return null;
    return this.create(FIRST_OPERATOR_EMAIL, 'Operator');
  }

  /**
   * A new operator with a generated password (returned once, stored as a scrypt hash) and
   * the roles given (none given: viewer). The first operator of an installation is owner
   * whatever was asked: someone must be able to manage the others.
   */
  async create(email: string, name: string, byOperatorId?: string, roles?: readonly string[]): Promise<{ id: string; email: string; password: string; roles: OperatorRole[] }> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) throw new AppError('VALIDATION_ERROR', `"${email}" is not an email address`);
    const parsed = roles === undefined ? { roles: [] as OperatorRole[] } : parseRoles(roles);
    if ('error' in parsed) throw new AppError('VALIDATION_ERROR', `roles: ${parsed.error}`);
    if (await this.core.repos.accounts.operatorByEmail(normalized)) throw new AppError('CONFLICT', `an operator with email ${normalized} already exists`);
    const password = newPassword();
    const id = this.core.ids.uuid();
    const passwordHash = await this.core.hasher.hash(password);
    const now = this.core.clock.now();
    const given = parsed.roles;
    return this.core.db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      const first = (await accounts.operatorCount()) === 0;
      const held: OperatorRole[] = first ? ['owner', ...given] : given.length > 0 ? given : ['viewer'];
      await trx.insertInto('operators').values({ id, email: normalized, name, password_hash: passwordHash, created_at: now, disabled_at: null }).execute();
      await accounts.setOperatorRoles(id, inTableOrder(held));
      if (byOperatorId) await AuditRepo.record(trx, { operatorId: byOperatorId, action: 'operator.create', targetKind: 'operator', targetId: id, before: null, after: { email: normalized, name, roles: inTableOrder(held) } }, now);
      return { id, email: normalized, password, roles: inTableOrder(held) };
    });
  }

  /**
   * The way back in for an operator who lost its password (or never saw the first one), by
   * email: the CLI's twin of resetPassword. Whoever can run the CLI already holds the store
   * and the master key.
   */
  async resetPasswordByEmail(email: string, actor: Actor): Promise<{ id: string; email: string; password: string }> {
    const normalized = email.trim().toLowerCase();
    const op = await this.core.repos.accounts.operatorByEmail(normalized);
    if (!op) throw new AppError('NOT_FOUND', `no operator has the email ${normalized}`);
    return this.resetPassword(op.id, actor);
  }
}

/** Stored role names, known ones only, in the table's order. */
const inTableOrder = (roles: readonly string[]): OperatorRole[] => OPERATOR_ROLES.filter((r) => roles.includes(r));
