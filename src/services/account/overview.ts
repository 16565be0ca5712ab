import type { OrderRecord, OrderStatus } from '../../domain/order.js';
import type { DashboardReadsRepo } from '../../store/dashboard-reads-repo.js';
import type { ServiceCore } from '../core.js';
import type { AccountPrincipal } from '../sessions.js';
import { keyState } from './api-keys.js';

const DAY_MS = 86_400_000;
export const SPEND_DAYS = 30;
/** Past days' figures are kept this long per reseller: they change only by late settlements and refunds. */
const PAST_DAYS_TTL_MS = 5 * 60_000;
const MAX_CACHED_RESELLERS = 5_000;

export interface DaySpend { day: number; amount: number; orders: number }

export interface Overview {
  balance: number;
  currency: string;
  ordersToday: Record<OrderStatus, number>;
  spendDaily: DaySpend[];
  onboarding: { approved: boolean; apiKey: boolean; ipWhitelisted: boolean; callbackUrl: boolean };
  recentOrders: OrderRecord[];
}

/**
 * The dashboard's home page in one read. Days are UTC days, like the API's date filters and
 * the hourly order counts they are summed from. Today's counts come from order_counts
 * (a day is at most 24 rows a status); spend needs the orders' prices, so the 29 past days
 * are computed once per reseller and kept a few minutes, and only today is read each time.
 */
export class AccountOverview {
  private readonly pastDays = new Map<string, { at: number; firstDay: number; days: Map<number, DaySpend> }>();

  constructor(
    private readonly core: Pick<ServiceCore, 'repos' | 'clock' | 'currency' | 'queries'>,
    private readonly reads: DashboardReadsRepo,
  ) {}

  async view(who: AccountPrincipal): Promise<Overview> {
    const now = this.core.clock.now();
    const today = Math.floor(now / DAY_MS);
    const { resellers, ledger } = this.core.repos;
    const [reseller, balance, keys, whitelist, ordersToday, past, todaySpend, todayOrders, recent] = await Promise.all([
      resellers.get(who.resellerId),
      ledger.balance(who.resellerId),
      resellers.apiKeysOf(who.resellerId),
      resellers.whitelistOf(who.resellerId),
      this.reads.statusCounts(who.resellerId, today * 24, today * 24 + 23),
      this.past(who.resellerId, today, now),
      this.reads.spendPerDay(who.resellerId, today, today),
      this.reads.ordersPerDay(who.resellerId, today),
      this.core.queries.listOrders(who, { limit: '5' }),
    ]);
    const spendDaily: DaySpend[] = [];
    for (let day = today - SPEND_DAYS + 1; day < today; day++) spendDaily.push(past.get(day) ?? { day, amount: 0, orders: 0 });
    spendDaily.push({ day: today, amount: todaySpend.get(today) ?? 0, orders: todayOrders.get(today) ?? 0 });
    return {
      balance: balance ?? 0,
      currency: this.core.currency.code,
      ordersToday,
      spendDaily,
      // The spec's prerequisites, in its order: approval, a key, a whitelisted IP, a callback URL.
      onboarding: {
        approved: reseller?.status === 'active',
        apiKey: keys.some((k) => keyState(k.revoked_at, now) !== 'revoked'),
        ipWhitelisted: whitelist.length > 0,
        callbackUrl: !!reseller?.callback_url,
      },
      recentOrders: recent.items,
    };
  }

  /** The 29 days before today, cached per reseller for PAST_DAYS_TTL_MS (recomputed when the day turns). */
  private async past(resellerId: string, today: number, now: number): Promise<Map<number, DaySpend>> {
    const firstDay = today - SPEND_DAYS + 1;
    const hit = this.pastDays.get(resellerId);
    if (hit && hit.firstDay === firstDay && now - hit.at < PAST_DAYS_TTL_MS) return hit.days;
    const [spend, counts] = await Promise.all([this.reads.spendPerDay(resellerId, firstDay, today - 1), this.reads.ordersPerDay(resellerId, firstDay)]);
    const days = new Map<number, DaySpend>();
    for (let day = firstDay; day < today; day++) days.set(day, { day, amount: spend.get(day) ?? 0, orders: counts.get(day) ?? 0 });
    if (this.pastDays.size >= MAX_CACHED_RESELLERS) this.pastDays.clear();
    this.pastDays.set(resellerId, { at: now, firstDay, days });
    return days;
  }
}
