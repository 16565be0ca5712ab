import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics } from '../services/metrics.js';
import type { ScrapeReads } from '../store/metrics-repo.js';
import { HotCounter, HotHistogram, type HistogramChild } from './prometheus-hot.js';

/** How long a scrape waits for the store's figures before answering with the last ones (and store_read_ok 0). */
export const SCRAPE_READ_TIMEOUT_MS = 1000;

/**
 * The Metrics port on prom-client, plus what only the composition root sees: the HTTP
 * request histogram and the scrape-time figures read from the store. Metric names carry
 * the `topup_` prefix; durations are in seconds (Prometheus' convention).
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  /** The two figures every order request moves: the cheap kind (prometheus-hot.ts). */
  private readonly http = new HotHistogram(
    'topup_http_request_duration_seconds', 'HTTP requests by route pattern, method and status', ['method', 'route', 'status'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  );
  private readonly placed = new HotCounter('topup_orders_placed_total', 'POST /order answers: accepted, or the error code', 'result');
  private readonly settled = new Counter({ name: 'topup_orders_settled_total', help: 'Orders that reached a terminal state, by state and failure code', labelNames: ['state', 'failure_code'] as const, registers: [this.registry] });
  private readonly settleLatency = new Histogram({
    name: 'topup_order_settle_seconds', help: 'From an order\'s creation to its terminal state', labelNames: ['state'] as const, registers: [this.registry],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  });
  private readonly callbacks = new Counter({ name: 'topup_callback_attempts_total', help: 'Callback attempts by outcome (delivered, retry, failed, skipped)', labelNames: ['outcome'] as const, registers: [this.registry] });
  private readonly supplier = new Histogram({
    name: 'topup_supplier_request_duration_seconds', help: 'Requests to suppliers by supplier id, operation and outcome',
    labelNames: ['supplier', 'operation', 'outcome'] as const, registers: [this.registry],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  private readonly jobsReady = new Gauge({ name: 'topup_jobs_ready', help: 'Jobs due and free to claim, by kind', labelNames: ['kind'] as const, registers: [this.registry] });
  private readonly jobsRunning = new Gauge({ name: 'topup_jobs_running', help: 'Jobs held under a live lease, by kind', labelNames: ['kind'] as const, registers: [this.registry] });
  private readonly jobsOldest = new Gauge({ name: 'topup_jobs_oldest_due_age_seconds', help: 'Age of the oldest due job not yet claimed, by kind (0: none)', labelNames: ['kind'] as const, registers: [this.registry] });
  private readonly balances = new Gauge({ name: 'topup_reseller_balance_sum', help: 'Sum of every reseller balance, in minor units of the currency', registers: [this.registry] });
  private readonly attention = new Gauge({ name: 'topup_orders_needing_attention', help: 'Processing orders flagged for a person', registers: [this.registry] });
  private readonly storeOk = new Gauge({ name: 'topup_metrics_store_read_ok', help: '1 when the last scrape read the store in time; 0: the store figures are stale', registers: [this.registry] });
  /** Read at each scrape: a dependency lost now, not at the last readiness probe. */
  private readonly degraded = new Gauge({
    name: 'topup_dependency_degraded', help: '1 while a dependency the process serves without is lost (redis: rate limits counted per process); /readyz lists it in degraded',
    labelNames: ['dependency'] as const, registers: [this.registry],
    collect: () => {
      for (const [dependency, lost] of Object.entries(this.opts.degraded?.() ?? {})) this.degraded.set({ dependency }, lost ? 1 : 0);
    },
  });
  /** One cached child per (route, method, status): a request costs one lookup chain and one observe. */
  private readonly children = new Map<string, Map<string, Map<number, HistogramChild>>>();
  private reading: Promise<void> | null = null;

  private processMetrics = false;

  constructor(private readonly opts: {
    read: (now: number) => Promise<ScrapeReads>; now: () => number; timeoutMs?: number;
    /** Each configured dependency the process serves without: whether it is lost now. */
    degraded?: () => Record<string, boolean>;
  }) {
    this.registry.registerMetric(this.http as never);
    this.registry.registerMetric(this.placed as never);
  }

  /**
   * Node's process metrics (CPU, memory, event-loop delay, GC), once, when a listener will
   * serve them: their monitors run for the life of the process.
   */
  collectProcessMetrics() {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  orderPlaced(result: string) {
    this.placed.inc(result);
  }

  orderSettled(state: 'success' | 'failed', failureCode: string | null, latencyMs: number) {
    this.settled.inc({ state, failure_code: failureCode ?? 'none' });
    this.settleLatency.observe({ state }, latencyMs / 1000);
  }

  callbackAttempt(outcome: string) {
    this.callbacks.inc({ outcome });
  }

  supplierRequest(supplier: string, operation: string, outcome: string, ms: number) {
    this.supplier.observe({ supplier, operation, outcome }, ms / 1000);
  }

  /** `route` is the route's pattern (`/api/v1/order-status`), never the raw URL: bounded label values. */
  observeRequest(method: string, route: string, status: number, ms: number) {
    let byMethod = this.children.get(route);
    if (!byMethod) this.children.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.http.child([method, route, String(status)])));
    child.observe(ms / 1000);
  }

  /** The exposition text: the store's figures are read first (at most one read at a time, bounded by a timeout). */
  async scrape(): Promise<string> {
    await this.refreshStoreFigures();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async refreshStoreFigures() {
    this.reading ??= this.readStore().finally(() => (this.reading = null));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, this.opts.timeoutMs ?? SCRAPE_READ_TIMEOUT_MS, 'late')));
    const r = await Promise.race([this.reading.then(() => 'ok' as const, () => 'failed' as const), timeout]);
    clearTimeout(timer);
    this.storeOk.set(r === 'ok' ? 1 : 0);
  }

  private async readStore() {
    const now = this.opts.now();
    const r = await this.opts.read(now);
    // A kind with nothing left has no row: reset, so its gauges fall to 0 instead of keeping the last value.
    this.jobsReady.reset();
    this.jobsRunning.reset();
    this.jobsOldest.reset();
    for (const j of r.jobs) {
      this.jobsReady.set({ kind: j.kind }, j.ready);
      this.jobsRunning.set({ kind: j.kind }, j.running);
      this.jobsOldest.set({ kind: j.kind }, j.oldestDueAt === null ? 0 : Math.max(0, now - j.oldestDueAt) / 1000);
    }
    this.balances.set(r.balanceSum);
    this.attention.set(r.attention);
  }
}
