import type { Kysely } from 'kysely';
import { deviceSummary } from '../domain/device.js';
import { isoMillis } from '../domain/order.js';
import { AccountsRepo } from '../store/accounts-repo.js';
import type { DB, SessionSubject } from '../store/schema.js';
import { MESSAGE_PATHS, type Notifier } from './notifier.js';
import type { IdGenerator } from './ports.js';

/** How long sign-ins are kept in the history. */
export const HISTORY_KEPT_MS = 90 * 86_400_000;

/**
 * Every sign-in is written to the person's history; one from a device the person never used
 * before (no device cookie of theirs) is also emailed to them, in the same transaction
 * (the outbox), unless it is their very first device.
 */
export class SignInHistory {
  constructor(private readonly deps: { db: Kysely<DB>; notifier: Notifier; ids: IdGenerator }) {}

  async record(kind: SessionSubject, subjectId: string, e: { ip: string; userAgent: string; newDevice: boolean }, now: number): Promise<void> {
    const { db, notifier, ids } = this.deps;
    await db.transaction().execute(async (trx) => {
      const accounts = new AccountsRepo(trx);
      const id = ids.uuid();
      // A client that keeps no cookie (a script) comes back without one every time: from the
      // same address with the same User-Agent as before, it is no new device.
      const newDevice = e.newDevice && !(await accounts.signedInBefore(kind, subjectId, e.ip, e.userAgent));
      await accounts.pruneSignInHistory(kind, subjectId, now - HISTORY_KEPT_MS);
      await accounts.insertSignIn({ id, kind, subjectId, ip: e.ip, userAgent: e.userAgent, newDevice }, now);
      if (!newDevice || (await accounts.deviceCount(kind, subjectId)) <= 1) return;
      const who = kind === 'operator' ? await accounts.operatorById(subjectId) : await accounts.resellerSubject(subjectId);
      if (!who) return;
      const link = notifier.link(kind === 'operator' ? MESSAGE_PATHS.consoleSecurity : MESSAGE_PATHS.dashboardSecurity);
      await notifier.send(trx, { kind, id: subjectId, email: who.email, language: await accounts.languageOf(kind, subjectId) }, `new_sign_in:${id}`, {
        template: 'new_sign_in', device: deviceSummary(e.userAgent), ip: e.ip, at: isoMillis(now).replace('T', ' ').slice(0, 16), link,
      }, now);
    });
  }
}
