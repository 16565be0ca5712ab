import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import type { JobHandler } from '../worker/job-contract.js';
import type { Notifier } from './notifier.js';
import type { Clock } from './ports.js';

/**
 * The shop's "deposit credited" email (issue 40): the handler of the job the credit wrote
 * in its own transaction. The message key is the deposit, so a job run twice (a crash
 * between the write and the job's completion) writes one message.
 */
export class DepositNotices {
  constructor(private readonly deps: { db: Kysely<DB>; notifier: Notifier; clock: Clock; money: (minor: number) => string }) {}

  readonly handle: JobHandler<{ depositId: string }> = async (job) => {
    const { db, notifier, clock, money } = this.deps;
    const d = await db
      .selectFrom('deposits as d')
      .innerJoin('resellers as r', 'r.id', 'd.reseller_id')
      .innerJoin('ledger_entries as l', (j) => j.onRef('l.deposit_id', '=', 'd.id').on('l.type', '=', 'deposit'))
      .select(['d.id', 'd.reseller_id', 'd.amount', 'l.balance_after', 'r.name', 'r.email', 'r.language'])
      .where('d.id', '=', job.payload.depositId)
      .executeTakeFirst();
    if (!d) return { status: 'done' };
    await notifier.send(db, { kind: 'reseller', id: d.reseller_id, email: d.email, language: d.language }, `deposit_credited:${d.id}`, {
      template: 'deposit_credited', shopName: d.name, depositId: d.id, amount: money(Number(d.amount)), balance: money(Number(d.balance_after)),
      link: notifier.link('/dashboard/wallet'),
    }, clock.now());
    return { status: 'done' };
  };
}
