import { AppError } from '../../errors.js';
import { dayOf, dayToIso, nextBucket, offsetLabel } from '../../domain/report-calendar.js';
import { addSums, figures, parseProfitQuery, ZERO_SUMS, type ProfitFigures, type ProfitGroup, type ProfitSums } from '../../domain/profit-report.js';
import { ReportRepo } from '../../store/report-repo.js';
import type { ServiceCore } from '../core.js';

export interface ProfitReport {
  from: string;
  to: string;
  granularity: 'day' | 'week' | 'month';
  groupBy: ProfitGroup;
  timeZone: string;
  utcOffset: string;
  totals: ProfitFigures;
  /** Every period of the range, empty ones included, oldest first. */
  periods: ({ start: string; end: string } & ProfitFigures)[];
  /** Each group's totals over the range, largest revenue first. */
  groups: ({ key: string; name: string | null } & ProfitFigures)[];
  /** (period, group) cells with any figure, by period then group. */
  rows: ({ period: string; key: string; name: string | null } & ProfitFigures)[];
}

/** The profit and loss report, read from the daily aggregates only (never the orders). */
export class ProfitReports {
  private readonly repo: ReportRepo;
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'reportTimeZone'>) {
    this.repo = new ReportRepo(core.db);
  }

  /** Today's figures (the report time zone's day), for the home page. */
  async today(): Promise<ProfitFigures> {
    const today = dayToIso(dayOf(this.core.clock.now(), this.core.reportTimeZone.offsetMinutes));
    return (await this.profit({ from: today, to: today })).totals;
  }

  async profit(q: { from?: string; to?: string; granularity?: string; group_by?: string }): Promise<ProfitReport> {
    const zone = this.core.reportTimeZone;
    const parsed = parseProfitQuery(q, dayOf(this.core.clock.now(), zone.offsetMinutes));
    if (!parsed.ok) throw new AppError(parsed.code, parsed.message);
    const { fromDay, toDay, granularity, groupBy, periods } = parsed.query;
    const cells = await this.repo.profit(fromDay, toDay, granularity, groupBy);
    const names = await this.repo.names(groupBy, [...new Set(cells.map((c) => c.group))]);
    const nameOf = (key: string) => (groupBy === 'none' ? null : names.get(key) ?? (key === '' ? null : groupBy === 'tier' ? key : null));
    const byPeriod = new Map<number, ProfitSums>();
    const byGroup = new Map<string, ProfitSums>();
    let total = ZERO_SUMS;
    for (const c of cells) {
      byPeriod.set(c.period, addSums(byPeriod.get(c.period) ?? ZERO_SUMS, c));
      byGroup.set(c.group, addSums(byGroup.get(c.group) ?? ZERO_SUMS, c));
      total = addSums(total, c);
    }
    const sums = (c: ProfitSums): ProfitSums => ({ delivered: c.delivered, revenue: c.revenue, cost: c.cost, costUnknown: c.costUnknown, refunds: c.refunds, refunded: c.refunded, manualRefunds: c.manualRefunds, manualRefunded: c.manualRefunded, manualRefundedDelivered: c.manualRefundedDelivered });
    return {
      from: dayToIso(fromDay), to: dayToIso(toDay), granularity, groupBy, timeZone: zone.name, utcOffset: offsetLabel(zone.offsetMinutes),
      totals: figures(total),
      periods: periods.map((p) => ({ start: dayToIso(Math.max(p, fromDay)), end: dayToIso(Math.min(nextBucket(p, granularity) - 1, toDay)), ...figures(byPeriod.get(p) ?? ZERO_SUMS) })),
      groups: [...byGroup].map(([key, s]) => ({ key, name: nameOf(key), ...figures(s) })).sort((a, b) => b.revenue - a.revenue || a.key.localeCompare(b.key)),
      rows: [...cells].sort((a, b) => a.period - b.period || a.group.localeCompare(b.group))
        .map((c) => ({ period: dayToIso(Math.max(c.period, fromDay)), key: c.group, name: nameOf(c.group), ...figures(sums(c)) })),
    };
  }
}
