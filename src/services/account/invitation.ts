import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import { AccountsRepo } from '../../store/accounts-repo.js';
import { InvitationsRepo } from '../../store/invitations-repo.js';
import type { ServiceCore } from '../core.js';
import { hashToken } from '../sessions.js';
import { assertPasswordAcceptable } from './registration.js';

/** One answer for an unknown, used, expired or revoked token: the answer tells a guesser nothing. */
const invalid = () => new AppError('INVALID_INVITATION', 'this invitation link is not valid any more (unknown, used, expired or revoked); ask the operator for a new one');

/**
 * Accepting an invitation (no session): sets the reseller's dashboard password, uses the
 * token up, ends any other session of the account, and signs it in like sign-in does.
 * Throttled per address like sign-in; the password is hashed before the token is looked up,
 * so a valid and an invalid token take as long.
 */
export class AcceptInvitation {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'hasher' | 'clock' | 'sessions'>) {}

  async accept(token: string, password: string, ip: string) {
    await this.core.sessions.throttle(`invitation:ip:${ip}`);
    assertPasswordAcceptable(password);
    const passwordHash = await this.core.hasher.hash(password);
    const tokenHash = hashToken(token);
    const found = await new InvitationsRepo(this.core.db).byTokenHash(tokenHash);
    if (!found || !timingSafeEqual(Buffer.from(found.tokenHash), Buffer.from(tokenHash))) throw invalid();
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      // Guarded: of two accepts racing with one token, one wins; used, revoked and expired never pass.
      if (!(await new InvitationsRepo(trx).consume(found.id, now))) throw invalid();
      const accounts = new AccountsRepo(trx);
      await accounts.setResellerPassword(found.resellerId, passwordHash, now);
      await accounts.deleteSessionsOf('reseller', found.resellerId);
    });
    return { resellerId: found.resellerId, session: await this.core.sessions.open('reseller', found.resellerId) };
  }
}
