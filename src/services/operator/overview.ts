import type { BreakerState } from '../../domain/supplier-breaker.js';
import type { ProfitFigures } from '../../domain/profit-report.js';
import type { Clock, CurrencySettings } from '../ports.js';
import { ALL_ORDERS, type OverviewRepo, type StatusRow } from '../../store/overview-repo.js';

const HOUR_MS = 3_600_000;
/** Processing orders older than this are not looked for (order_counts is read this far back). */
const BACKLOG_HOURS = 30 * 24;
export const CHART_HOURS = 48;
export const CHART_DAYS = 14;
/** The page polls; one computation serves every operator for this long. */
const CACHE_MS = 10_000;

export interface Bucket { start: number; orders: number; success: number; failed: number; refunded: number }

export interface OverviewFacts {
  at: number;
  /** Orders placed per minute over the last 60 minutes (the previous hour's share taken evenly). */
  ordersPerMinute: number;
  /**
   * Delivered / (success + failed + refunded) of the last 24 hours' orders; null without any.
   * Delivered: success, and refunded by hand after the supplier delivered.
   */
  successRate24h: number | null;
  processing: { count: number; oldestCreatedAt: number | null };
  attention: number;
  /** Open attention items besides orders (e.g. a sync repriced a product or took a route out of service). */
  attentionItems: number;
  callbacks: { retrying: number; failed24h: number };
  suppliers: { id: string; name: string; enabled: boolean; status: string; consecutiveFailures: number; lastError: string | null; checkedAt: number | null;
    /** The circuit breaker's state (src/domain/supplier-breaker.ts). */
    breaker: BreakerState;
    /** Minor units, as the last refresh read the deposit (null: the adapter does not report one); flagged below its threshold. */
    balance: number | null; balanceFlagged: boolean }[];
  /** Minor units. */
  resellerBalances: number;
  hourly: Bucket[];
  daily: Bucket[];
  /** Today in the report time zone, from the daily aggregates: what the business earned so far. */
  today: ProfitFigures;
}

/**
 * The operator's home page: the platform's pulse from counts the store already keeps, never
 * a scan of the orders (see OverviewRepo), computed at most every CACHE_MS.
 */
export class Overview {
  private cached: { at: number; facts: Promise<OverviewFacts> } | null = null;

  constructor(private readonly repo: OverviewRepo, private readonly core: { clock: Clock; currency: CurrencySettings }, private readonly today: () => Promise<ProfitFigures>) {}

  get(): Promise<OverviewFacts> {
    const now = this.core.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.facts;
    const facts = this.compute(now);
    this.cached = { at: now, facts };
    facts.catch(() => (this.cached = null));
    return facts;
  }

  private async compute(now: number): Promise<OverviewFacts> {
    const hourNow = Math.floor(now / HOUR_MS);
    const chartFrom = (Math.floor(hourNow / 24) - CHART_DAYS + 1) * 24; // whole UTC days
    const [byHour, byReseller, callbacks, suppliers, balances, attentionItems, today] = await Promise.all([
      this.repo.countsByHour(Math.min(chartFrom, hourNow - 24)),
      this.repo.countsByReseller(hourNow - BACKLOG_HOURS),
      this.repo.failingCallbacks(now - 24 * HOUR_MS),
      this.repo.suppliers(),
      this.repo.balanceSum(),
      this.repo.openAttentionItems(),
      this.today(),
    ]);
    const perReseller = processingBy(byReseller);
    const busy = [...perReseller].filter(([, n]) => n > 0).map(([id]) => id);
    const refunding = byReseller.filter((r) => r.status === 'refunded' && r.n > 0).map((r) => String(r.key));
    const [proc, deliveredRefunded] = await Promise.all([
      this.repo.processingOf(busy),
      this.repo.deliveredThenRefunded(refunding, (hourNow - 23) * HOUR_MS),
    ]);

    const hours = new Map<number, Bucket>();
    for (const r of byHour) add(hours, Number(r.key), r);
    const bucket = (h: number) => hours.get(h) ?? empty(h);
    const last24 = Array.from({ length: 24 }, (_, i) => bucket(hourNow - i));
    const settled = last24.reduce((s, b) => s + b.success + b.failed + b.refunded, 0);
    const delivered = last24.reduce((s, b) => s + b.success, 0) + deliveredRefunded;
    const elapsed = (now - hourNow * HOUR_MS) / HOUR_MS;
    const lastHour = bucket(hourNow).orders + bucket(hourNow - 1).orders * (1 - elapsed);

    const hourly = Array.from({ length: CHART_HOURS }, (_, i) => bucket(hourNow - CHART_HOURS + 1 + i));
    const days = new Map<number, Bucket>();
    for (let h = chartFrom; h <= hourNow; h++) {
      const b = bucket(h);
      const d = Math.floor(h / 24);
      const day = days.get(d) ?? empty(d * 24);
      days.set(d, { start: day.start, orders: day.orders + b.orders, success: day.success + b.success, failed: day.failed + b.failed, refunded: day.refunded + b.refunded });
    }

    return {
      at: now,
      ordersPerMinute: Math.round((lastHour / 60) * 100) / 100,
      successRate24h: settled === 0 ? null : delivered / settled,
      processing: { count: [...perReseller.values()].reduce((s, n) => s + Math.max(0, n), 0), oldestCreatedAt: proc.oldest },
      attention: proc.attention,
      attentionItems,
      callbacks: { retrying: callbacks.retrying, failed24h: callbacks.failed },
      suppliers: suppliers.map((s) => ({
        id: s.id, name: s.name, enabled: Number(s.enabled) === 1, status: s.status, consecutiveFailures: Number(s.consecutive_failures ?? 0),
        lastError: s.last_error ?? null, checkedAt: s.updated_at == null ? null : Number(s.updated_at), breaker: (s.breaker ?? 'closed') as BreakerState,
        balance: s.balance == null ? null : Number(s.balance), balanceFlagged: s.balance_flagged_at != null,
      })),
      resellerBalances: balances,
      hourly: hourly.map((b) => ({ ...b, start: b.start * HOUR_MS })),
      daily: [...days.values()].sort((a, b) => a.start - b.start).map((b) => ({ ...b, start: b.start * HOUR_MS })),
      today,
    };
  }
}

const empty = (start: number): Bucket => ({ start, orders: 0, success: 0, failed: 0, refunded: 0 });

function add(into: Map<number, Bucket>, h: number, r: StatusRow) {
  const b = into.get(h) ?? empty(h);
  if (r.status === ALL_ORDERS) b.orders += r.n;
  else if (r.status === 'success' || r.status === 'failed' || r.status === 'refunded') b[r.status] += r.n;
  into.set(h, b);
}

/** Processing orders per reseller: every order minus the terminal ones (order_counts keeps no processing row). */
function processingBy(rows: StatusRow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) {
    const id = String(r.key);
    m.set(id, (m.get(id) ?? 0) + (r.status === ALL_ORDERS ? r.n : -r.n));
  }
  return m;
}
