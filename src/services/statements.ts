import { AppError } from '../errors.js';
import { DAY_MS, dayOf, dayToIso, offsetLabel } from '../domain/report-calendar.js';
import { bucketOf, emptyTotals, parseStatementRange, STATEMENT_BUCKETS, type StatementTotals } from '../domain/statement.js';
import { StatementRepo } from '../store/statement-repo.js';
import type { ServiceCore } from './core.js';

export interface Statement {
  resellerId: string;
  resellerName: string;
  from: string;
  to: string;
  timeZone: string;
  utcOffset: string;
  opening: number;
  closing: number;
  totals: StatementTotals;
  /** Every day of the range with its buckets and closing balance. */
  days: ({ date: string; closing: number } & StatementTotals)[];
}

/** Reseller statements (the dashboard's Wallet → Statements, and the operator's per reseller). */
export class Statements {
  private readonly repo: StatementRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'reportTimeZone'>) {
    this.repo = new StatementRepo(core.db);
  }

  async forReseller(resellerId: string, q: { from?: string; to?: string }): Promise<Statement> {
    const zone = this.core.reportTimeZone;
    const offsetMs = zone.offsetMinutes * 60_000;
    const range = parseStatementRange(q, dayOf(this.core.clock.now(), zone.offsetMinutes));
    if (!range.ok) throw new AppError(range.code, range.message);
    const reseller = await this.repo.exists(resellerId);
    if (!reseller) throw new AppError('NOT_FOUND', 'no such reseller');
    const { fromDay, toDay } = range;
    const start = await this.repo.boundary(resellerId, fromDay * DAY_MS - offsetMs);
    const end = await this.repo.boundary(resellerId, (toDay + 1) * DAY_MS - offsetMs);
    const opening = await this.repo.balanceAfter(resellerId, start);
    const closing = await this.repo.balanceAfter(resellerId, end);
    const totals = emptyTotals();
    const perDay = new Map<number, StatementTotals>();
    for (const r of await this.repo.daily(resellerId, start, end, zone.offsetMinutes)) {
      const b = bucketOf(r.type);
      totals[b].count += r.n;
      totals[b].amount += r.amount;
      // An entry a millisecond off its neighbours' order stays in the range's first or last day.
      const day = Math.min(toDay, Math.max(fromDay, r.day));
      const d = perDay.get(day) ?? emptyTotals();
      d[b].count += r.n;
      d[b].amount += r.amount;
      perDay.set(day, d);
    }
    const days: Statement['days'] = [];
    let running = opening;
    for (let day = fromDay; day <= toDay; day++) {
      const d = perDay.get(day) ?? emptyTotals();
      for (const b of STATEMENT_BUCKETS) running += d[b].amount;
      days.push({ date: dayToIso(day), closing: running, ...d });
    }
    // The ledger's chain guarantees it; a failure here is a broken ledger, never a rounding.
    if (running !== closing) throw new Error(`statement of ${resellerId}: entries sum to ${running}, the ledger says ${closing}`);
    return { resellerId, resellerName: reseller.name, from: dayToIso(fromDay), to: dayToIso(toDay), timeZone: zone.name, utcOffset: offsetLabel(zone.offsetMinutes), opening, closing, totals, days };
  }
}
