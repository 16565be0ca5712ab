import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import type { ServiceCore } from '../core.js';

export const FIRST_OPERATOR_EMAIL = 'admin@localhost';

const newPassword = () => randomBytes(18).toString('base64url');
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/** Operator accounts: the first one created at first start, more added by an operator or the CLI. */
export class OperatorAccounts {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'hasher' | 'clock' | 'ids'>) {}

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

  /**
   * The way back in for an operator who lost its password (or never saw the first one): a
   * new generated password (returned once), every session of that operator ended, audited
   * without the secret. Whoever can run the CLI already holds the store and the master key.
   */
  async resetPassword(email: string, byOperatorId: string): Promise<{ id: string; email: string; password: string }> {
    const normalized = email.trim().toLowerCase();
    const op = await this.core.repos.accounts.operatorByEmail(normalized);
    if (!op) throw new AppError('NOT_FOUND', `no operator has the email ${normalized}`);
    const password = newPassword();
    const passwordHash = await this.core.hasher.hash(password);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      await trx.updateTable('operators').set({ password_hash: passwordHash }).where('id', '=', op.id).execute();
      await trx.deleteFrom('sessions').where('subject_kind', '=', 'operator').where('subject_id', '=', op.id).execute();
      await AuditRepo.record(trx, { operatorId: byOperatorId, action: 'operator.reset_password', targetKind: 'operator', targetId: op.id, before: null, after: { email: normalized, sessions_ended: true } }, now);
    });
    return { id: op.id, email: normalized, password };
  }
}
