import { isEmail, normalizeEmail } from '../../domain/email.js';
import { AppError } from '../../errors.js';
import { ResellersRepo } from '../../store/resellers-repo.js';
import type { ServiceCore } from '../core.js';
import { MESSAGE_PATHS } from '../notifier.js';
import { REGISTRATIONS_PER_MINUTE } from '../sessions.js';

/** Long enough to resist guessing with sign-in throttled; no composition rules (NIST 800-63B). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** A new account waits for the operator, who approves it and assigns the real tier. */
export const NEW_ACCOUNT = { status: 'pending', tier: 'gold' } as const;

export function assertPasswordAcceptable(password: string, field = 'password') {
  if (password.length < PASSWORD_MIN_LENGTH) throw new AppError('VALIDATION_ERROR', `${field} must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw new AppError('VALIDATION_ERROR', `${field} must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

/** Self-registration of a reseller in the dashboard (onboarding step 1 of the spec). */
export class Registration {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'repos' | 'hasher' | 'clock' | 'ids' | 'sessions' | 'notifier'>) {}

  /** Creates the pending account and signs it in (returns a session). */
  async register(input: { name: string; email: string; password: string }, ip: string) {
    // Registrations from one address are throttled like sign-ins (account farming, email probing).
    await this.core.sessions.throttle(`register:ip:${ip}`, REGISTRATIONS_PER_MINUTE);
    const name = input.name.trim();
    const email = normalizeEmail(input.email);
    if (name === '') throw new AppError('VALIDATION_ERROR', 'name must not be blank');
    if (!isEmail(email)) throw new AppError('VALIDATION_ERROR', `"${input.email}" is not an email address`);
    assertPasswordAcceptable(input.password);
    const { accounts } = this.core.repos;
    const taken = () => new AppError('CONFLICT', `an account with email ${email} already exists; sign in instead`);
    if (await accounts.resellerLogin(email)) throw taken();
    const id = this.core.ids.uuid();
    const passwordHash = await this.core.hasher.hash(input.password);
    try {
      const now = this.core.clock.now();
      const { notifier } = this.core;
      await this.core.db.transaction().execute(async (trx) => {
        await new ResellersRepo(trx).create({ id, name, email, ...NEW_ACCOUNT, passwordHash }, now);
        await notifier.toOperators(trx, `reseller.registered:${id}`, { template: 'shop_registered', shopName: name, shopEmail: email, link: notifier.link(MESSAGE_PATHS.reseller(id)) }, now);
      });
    } catch (e) {
      // Two registrations raced past the check above: the unique index decides.
      if (await accounts.resellerLogin(email)) throw taken();
      throw e;
    }
    const session = await this.core.sessions.open('reseller', id);
    return { resellerId: id, status: NEW_ACCOUNT.status, session };
  }
}
