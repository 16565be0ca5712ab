import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeEmail } from '../domain/email.js';
import { AppError } from '../errors.js';
import { AccountsRepo } from '../store/accounts-repo.js';
import { PasswordResetsRepo } from '../store/password-resets-repo.js';
import { assertPasswordAcceptable } from './account/registration.js';
import type { ServiceCore } from './core.js';
import { MESSAGE_PATHS } from './notifier.js';
import { hashToken } from './sessions.js';

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** Requests a minute from one address, and for one email from anywhere (no mail bombing of a person). */
export const RESET_REQUESTS_PER_MINUTE = { address: 20, email: 3 } as const;

type Kind = 'operator' | 'reseller';

const invalid = () => new AppError('INVALID_RESET_TOKEN', 'this password-reset link is not valid any more (unknown, used, superseded or older than an hour); ask for a new one');

/**
 * Forgotten passwords of shops (dashboard) and operators (console). A request answers the
 * same whether or not the email belongs to an account, and does the same work before its
 * answer (a token made and hashed, the account looked up): the email goes out later, from
 * the outbox. The link works once, for an hour; only the newest link of an account works;
 * using it sets the password and ends every session of the account.
 */
export class PasswordResets {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'hasher' | 'clock' | 'ids' | 'sessions' | 'notifier' | 'wake'>) {}

  async request(kind: Kind, rawEmail: string, ip: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const { sessions, clock, db, notifier } = this.core;
    await sessions.throttle(`forgot:ip:${ip}`, RESET_REQUESTS_PER_MINUTE.address);
    // The email only as a digest: limiter keys must not spread addresses of people.
    await sessions.throttle(`forgot:${kind}:${createHash('sha256').update(email).digest('base64url').slice(0, 22)}`, RESET_REQUESTS_PER_MINUTE.email);
    const token = `pwr_${randomBytes(32).toString('base64url')}`;
    const tokenHash = hashToken(token);
    const accounts = new AccountsRepo(db);
    const who =
      kind === 'operator'
        ? await accounts.operatorByEmail(email).then((o) => (o && o.disabled_at === null ? { id: o.id, email: o.email, language: o.language } : null))
        : await accounts.resellerLogin(email).then((r) => (r ? { id: r.id, email: r.email, language: r.language } : null));
    if (!who) return;
    const now = clock.now();
    const link = notifier.link(kind === 'operator' ? MESSAGE_PATHS.consoleReset : MESSAGE_PATHS.dashboardReset, { token });
    const id = this.core.ids.uuid();
    await db.transaction().execute(async (trx) => {
      await new PasswordResetsRepo(trx).replace({ id, kind, subjectId: who.id, tokenHash, expiresAt: now + PASSWORD_RESET_TTL_MS }, now);
      await notifier.send(trx, { kind, id: who.id, email: who.email, language: who.language }, `password_reset:${id}`, { template: 'password_reset', link, expiresInMinutes: PASSWORD_RESET_TTL_MS / 60_000 }, now);
    });
    this.core.wake();
  }

  /** Sets the password of the link's account and ends all its sessions; the link is used up. */
  async reset(kind: Kind, token: string, password: string, ip: string): Promise<void> {
    await this.core.sessions.throttle(`reset:ip:${ip}`);
    assertPasswordAcceptable(password);
    // Hashed before the token is looked up: a valid and an invalid token take as long.
    const passwordHash = await this.core.hasher.hash(password);
    const tokenHash = hashToken(token);
    const found = await new PasswordResetsRepo(this.core.db).byTokenHash(kind, tokenHash);
    if (!found || !timingSafeEqual(Buffer.from(found.token_hash), Buffer.from(tokenHash))) throw invalid();
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      if (!(await new PasswordResetsRepo(trx).consume(found.id, now))) throw invalid();
      const accounts = new AccountsRepo(trx);
      if (kind === 'operator') await accounts.setOperatorPassword(found.subject_id, passwordHash);
      else await accounts.setResellerPassword(found.subject_id, passwordHash, now);
      await accounts.deleteSessionsOf(kind, found.subject_id);
    });
  }
}
