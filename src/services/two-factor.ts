import { createHash, randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import type { PasswordHasher } from '../adapters/password-hasher.js';
import type { SecretBox } from '../adapters/secret-box.js';
import {
  matchTotp, newTotpSecret, operatorMustHaveTwoFactor, type TwoFactorPolicy, normalizeRecoveryCode, otpauthUri, RECOVERY_CODE_COUNT, recoveryCodesFrom,
} from '../domain/two-factor.js';
import type { OperatorRole } from '../domain/operator-roles.js';
import { AppError } from '../errors.js';
import type { AccountsRepo } from '../store/accounts-repo.js';
import type { Kysely } from 'kysely';
import { AuditRepo } from '../store/audit-repo.js';
import type { DB, SessionSubject } from '../store/schema.js';
import { TwoFactorRepo } from '../store/two-factor-repo.js';
import type { Clock } from './ports.js';
import type { SignInThrottle } from './sign-in-throttle.js';

/** What proves the second factor: a code of the authenticator app, or one recovery code. */
export interface SecondFactor {
  code?: string | undefined;
  recovery_code?: string | undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Two-factor sign-in of operators and resellers' people alike (one rule, one place): enrol,
 * confirm, check a code or recovery code, turn off. Wrong codes count in the sign-in
 * throttle of the address and person, as wrong passwords do.
 */
export class TwoFactor {
  constructor(
    private readonly deps: {
      db: Kysely<DB>; repo: TwoFactorRepo; accounts: AccountsRepo; secrets: SecretBox; hasher: PasswordHasher; clock: Clock; signIns: SignInThrottle;
      /** OPERATOR_2FA_REQUIRED. */
      operatorPolicy: TwoFactorPolicy;
    },
  ) {}

  /** Whether an operator with these roles must have two-factor sign-in (resellers' people: their own choice until shop teams). */
  requiredFor(roles: readonly OperatorRole[]): boolean {
    return operatorMustHaveTwoFactor(this.deps.operatorPolicy, roles);
  }

  /** Must this operator enrol before anything else? (read on every operator request) */
  async missingFor(operatorId: string, roles: readonly OperatorRole[]): Promise<boolean> {
    return this.requiredFor(roles) && !(await this.deps.repo.enabled('operator', operatorId));
  }

  async status(kind: SessionSubject, subjectId: string) {
    const row = await this.deps.repo.find(kind, subjectId);
    const enabled = row !== undefined && row.enabled_at !== null;
    return { enabled, enabledAt: enabled ? Number(row.enabled_at) : null, recoveryCodesLeft: enabled ? await this.deps.repo.recoveryCodesLeft(kind, subjectId) : 0 };
  }

  async enabled(kind: SessionSubject, subjectId: string) {
    return this.deps.repo.enabled(kind, subjectId);
  }

  /**
   * A new secret waiting for its first code (any earlier unconfirmed one is replaced). The
   * secret is shown as text and as a QR code (an SVG data: URL, drawn here so the page's
   * CSP needs nothing new).
   */
  async startEnrolment(kind: SessionSubject, subjectId: string, label: string) {
    const secret = newTotpSecret();
    const started = await this.deps.repo.startEnrolment(kind, subjectId, this.deps.secrets.seal(secret), this.deps.clock.now());
    if (!started) throw new AppError('INVALID_STATE', 'two-factor sign-in is already on; turn it off first to enrol a new device');
    const uri = otpauthUri(secret, label);
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Turns two-factor on with the first code of the app; answers the ten recovery codes (shown once). */
  async confirmEnrolment(kind: SessionSubject, subjectId: string, code: string, ip: string): Promise<string[]> {
    const row = await this.deps.repo.find(kind, subjectId);
    if (!row || row.enabled_at !== null) throw new AppError('INVALID_STATE', row ? 'two-factor sign-in is already on' : 'start an enrolment first (POST /auth/two-factor/enrolment)');
    const attempt = await this.admit(kind, subjectId, ip);
    const now = this.deps.clock.now();
    const step = matchTotp(this.deps.secrets.open(row.secret_enc), code, now, row.last_step === null ? null : Number(row.last_step));
    const codes = recoveryCodes();
    // On, its recovery codes and (for an operator) the audit entry commit together.
    const ok = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepo(trx);
      if (step === null || !(await repo.useStep(kind, subjectId, step, now, true))) return false;
      await repo.replaceRecoveryCodes(kind, subjectId, codes.map((c) => digest(c)));
      if (kind === 'operator') await AuditRepo.record(trx, { operatorId: subjectId, action: 'operator.two_factor_on', targetKind: 'operator', targetId: subjectId, before: null, after: null }, now);
      return true;
    });
    if (!ok) throw wrongCode();
    await attempt.succeeded();
    return codes;
  }

  /** Ten new recovery codes; the earlier ones stop working. */
  async newRecoveryCodes(kind: SessionSubject, subjectId: string): Promise<string[]> {
    const codes = recoveryCodes();
    await this.deps.db.transaction().execute((trx) => new TwoFactorRepo(trx).replaceRecoveryCodes(kind, subjectId, codes.map((c) => digest(c))));
    return codes;
  }

  /**
   * Turns it off without a code (the `topup operator-two-factor-off` command, for an operator
   * who lost the phone and the recovery codes); audited with who did it.
   */
  async turnOff(kind: SessionSubject, subjectId: string, actor: string): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      const removed = await new TwoFactorRepo(trx).remove(kind, subjectId);
      if (removed && kind === 'operator') await AuditRepo.record(trx, { operatorId: actor, action: 'operator.two_factor_off', targetKind: 'operator', targetId: subjectId, before: null, after: null }, this.deps.clock.now());
      return removed;
    });
  }

  /**
   * Checks a second factor of a person with two-factor on: a code (of its step or one either
   * side, and later than the last accepted) or an unused recovery code, each accepted once.
   * Wrong ones count in the sign-in throttle; INVALID_TWO_FACTOR_CODE.
   */
  async verify(kind: SessionSubject, subjectId: string, factor: SecondFactor, ip: string): Promise<'code' | 'recovery_code'> {
    const hasCode = typeof factor.code === 'string' && factor.code !== '';
    const hasRecovery = typeof factor.recovery_code === 'string' && factor.recovery_code !== '';
    if (hasCode === hasRecovery) throw new AppError('VALIDATION_ERROR', 'send either code (the six digits of the authenticator app) or recovery_code');
    const row = await this.deps.repo.find(kind, subjectId);
    if (!row || row.enabled_at === null) throw new AppError('INVALID_STATE', 'two-factor sign-in is not on');
    const attempt = await this.admit(kind, subjectId, ip);
    const now = this.deps.clock.now();
    let ok: boolean;
    if (hasCode) {
      const step = matchTotp(this.deps.secrets.open(row.secret_enc), factor.code!, now, row.last_step === null ? null : Number(row.last_step));
      ok = step !== null && (await this.deps.repo.useStep(kind, subjectId, step, now, false));
    } else {
      const normalized = normalizeRecoveryCode(factor.recovery_code!);
      ok = normalized !== null && (await this.deps.repo.useRecoveryCode(kind, subjectId, digest(normalized), now));
    }
    if (!ok) throw wrongCode();
    await attempt.succeeded();
    return hasCode ? 'code' : 'recovery_code';
  }

  /** Turns two-factor off, proven by a current code, a recovery code, or the password. */
  async disable(kind: SessionSubject, subjectId: string, proof: SecondFactor & { password?: string | undefined }, ip: string) {
    if (typeof proof.password === 'string' && proof.password !== '') {
      if (proof.code || proof.recovery_code) throw new AppError('VALIDATION_ERROR', 'send one of password, code or recovery_code');
      const attempt = await this.admit(kind, subjectId, ip);
      const hash = kind === 'operator' ? await this.deps.accounts.operatorPasswordHash(subjectId) : await this.deps.accounts.resellerPasswordHash(subjectId);
      if (!hash || !(await this.deps.hasher.verify(proof.password, hash))) throw new AppError('INVALID_CREDENTIALS', 'password is wrong');
      await attempt.succeeded();
    } else {
      await this.verify(kind, subjectId, proof, ip);
    }
    await this.turnOff(kind, subjectId, subjectId);
  }

  private admit(kind: SessionSubject, subjectId: string, ip: string) {
    // The throttle keys by a person's name as typed at sign-in; here the person is known by id.
    return this.deps.signIns.admit(kind, `2fa:${subjectId}`, ip);
  }
}

const wrongCode = () => new AppError('INVALID_TWO_FACTOR_CODE', 'the code is wrong, was used already, or is too old; type the code your app shows now, or an unused recovery code');

function recoveryCodes(): string[] {
  const codes = new Set<string>();
  // Ten distinct codes (a repeat among ten 49-bit codes is next to impossible, but cheap to rule out).
  while (codes.size < RECOVERY_CODE_COUNT) for (const c of recoveryCodesFromBytes()) if (codes.size < RECOVERY_CODE_COUNT) codes.add(c);
  return [...codes];
}

const recoveryCodesFromBytes = () => recoveryCodesFrom(randomBytes(RECOVERY_CODE_COUNT * 10));
