import type { StatusResult, SubmitRequest, SubmitResult, Supplier, UpstreamSuccess } from '../adapters/suppliers/types.js';
import { classifyFailure, type FailureCode } from '../domain/failure.js';
import { referenceToken, serialNumber } from '../domain/serial.js';
import type { FulfilmentOrder, FulfilmentRepo, Settled, UsableRoute } from '../store/fulfilment-repo.js';
import type { Job, JobHandler, JobOutcome } from '../worker/job-contract.js';
import type { Logger } from 'pino';
import type { Clock } from './ports.js';
import { noMetrics, type Metrics } from './metrics.js';

/** A fulfil_order job's payload (store/job-kinds.ts fulfilPayload). */
type FulfilJob = Job<{ orderId: string; requestId?: string }>;

export interface FulfilSettings {
  /** First wait before asking an upstream about an accepted or ambiguous submission. */
  pollBaseMs: number;
  /** Past this age an order without a definite upstream answer is flagged for the operator. */
  ambiguousBoundMs: number;
}

export type SupplierResolver = (route: { supplierId: string; adapter: string }) => Supplier;

/** Settled (what the settling transaction wrote, if this run settled it) or ask again later. */
type Next = { done: true; settled?: Settled | null } | { retryAt: number; error?: string };

/** How often an order flagged for the operator is still asked about. */
const FLAGGED_POLL_MS = 10 * 60_000;

/**
 * Fulfils one order (the handler of fulfil_order jobs). Routes are tried in priority order;
 * a failure that certainly was not taken upstream moves to the next route, anything that
 * may have been taken is only ever asked about, never re-ordered elsewhere. The route in
 * flight is written before each submission, so a crash is followed by a status query.
 */
export class FulfilOrder {
  constructor(
    private readonly deps: { repo: FulfilmentRepo; suppliers: SupplierResolver; clock: Clock; settings: FulfilSettings; metrics?: Metrics; logger?: Logger },
  ) {
    this.metrics = deps.metrics ?? noMetrics;
  }

  private readonly metrics: Metrics;

  /**
   * The order's callback job is written leased to this runner and handed back, so the
   * outcome goes out the moment it is settled instead of waiting for a claim.
   */
  readonly handle: JobHandler<{ orderId: string; requestId?: string }> = async (job) => {
    const next = await this.run(job);
    if ('done' in next) return next.settled ? { status: 'done', handoff: [next.settled.callback], written: next.settled.jobDone } : { status: 'done' };
    return { status: 'retry', retryAt: next.retryAt, error: next.error } satisfies JobOutcome;
  };

  private async run(job: FulfilJob): Promise<Next> {
    const { repo } = this.deps;
    const read = await repo.orderWithRoutes(job.payload.orderId);
    if (!read || read.order.status !== 'processing') return { done: true };
    const { order, routes } = read;

    if (order.supplierId) {
      // The route may have been disabled since we submitted; we still must ask that supplier.
      const route = routes.find((r) => r.supplierId === order.supplierId && r.sku === order.supplierSku) ?? (await repo.supplierRoute(order.supplierId, order.supplierSku ?? '', order.productCode));
      const status = await this.safeStatus(route, order, job);
      switch (status.state) {
        case 'success':
          return this.succeed(order, status, job);
        case 'failed': {
          if (!status.notTaken) return this.fail(order, status.code, status.message, job);
          // Final at that supplier and never taken there (e.g. refused after a crash hid the
          // submission's answer): the next route may be tried, as after a submit refusal.
          const same = routes.findIndex((r) => r.supplierId === order.supplierId && r.sku === order.supplierSku);
          return this.submitFrom(order, routes, same >= 0 ? same + 1 : order.routesTried, job, { code: status.code, message: status.message });
        }
        case 'pending':
        case 'ambiguous':
          return this.pollLater(order, job, status.state === 'ambiguous' ? status.message : undefined);
        case 'unknown': {
          // Never reached that supplier: submitting there again is safe. Start from that very
          // route even if the list changed, since it alone dedups on our reference.
          const same = routes.findIndex((r) => r.supplierId === order.supplierId && r.sku === order.supplierSku);
          return this.submitFrom(order, routes, same >= 0 ? same : order.routesTried, job);
        }
      }
    }
    return this.submitFrom(order, routes, order.routesTried, job);
  }

  private async submitFrom(order: FulfilmentOrder, routes: UsableRoute[], start: number, job: FulfilJob, failure?: { code: FailureCode | null; message: string | null }): Promise<Next> {
    const { repo, clock } = this.deps;
    // `ours`: the message is the platform's own note, not the supplier's words.
    let lastFailure: { code: FailureCode | null; message: string | null; ours?: true } = failure ?? { code: 'NO_SUPPLIER_AVAILABLE', message: null };
    let heldByBreaker = false;
    for (let i = start; i < routes.length; i++) {
      const route = routes[i]!;
      if (costAbovePrice(route, order)) {
        // Never submitted at a cost above its price (issue 27): the route is passed over untried.
        lastFailure = { code: 'NO_SUPPLIER_AVAILABLE', message: `route ${route.supplierName}/${route.sku} costs ${route.cost}, above the order's price ${order.price}`, ours: true };
        await repo.markInFlight(order.id, null, i + 1, clock.now());
        continue;
      }
      if (!(await repo.breaker.admit(route.supplierId, route.breaker))) {
        // Open, or half-open with its probe orders out: not sent there now, and never failed for it.
        heldByBreaker = true;
        continue;
      }
      await repo.markInFlight(order.id, route, i, clock.now());
      const result = await this.safeSubmit(route, order, job);
      switch (result.outcome) {
        case 'success':
          await repo.supplierAnswered(route, clock.now());
          return this.succeed(order, result, job);
        case 'accepted':
          await repo.supplierAnswered(route, clock.now());
          return this.pollLater(order, job);
        case 'ambiguous':
          // Counts towards "unreachable several times in a row" for the gate; routing-wise
          // the order stays with this supplier.
          await repo.recordSupplierResult(route.supplierId, false, result.message, clock.now());
          return this.pollLater(order, job, result.message);
        case 'rejected':
          // A refusal is an answer too (a half-open breaker's probe order counts it), unless the supplier was unreachable.
          if (result.code === 'SUPPLIER_UNREACHABLE') await repo.recordSupplierResult(route.supplierId, false, result.message, clock.now());
          else await repo.supplierAnswered(route, clock.now());
          if (!result.notTaken) return this.fail(order, result.code, result.message, job);
          lastFailure = { code: result.code, message: result.message };
          await repo.markInFlight(order.id, null, i + 1, clock.now());
      }
    }
    if (heldByBreaker) return this.pollLater(order, job, "waiting for a supplier's circuit breaker");
    return this.fail(order, lastFailure.code ?? 'NO_SUPPLIER_AVAILABLE', lastFailure.message, job, lastFailure.ours ? null : lastFailure.message);
  }

  private pollLater(order: FulfilmentOrder, job: FulfilJob, error?: string): Next | Promise<Next> {
    const { clock, settings, repo } = this.deps;
    const now = clock.now();
    if (now - order.createdAt > settings.ambiguousBoundMs) {
      // No definite answer for too long: keep the money where it is and ask a human, but
      // keep asking the supplier slowly, so a late answer still settles the order.
      return repo.flagForOperator(order.id, now).then(() => ({ retryAt: now + FLAGGED_POLL_MS, error: error ?? 'no definite answer from the supplier' }));
    }
    const delay = Math.min(settings.pollBaseMs * 2 ** Math.min(job.attempts, 10), 60_000);
    return { retryAt: now + delay, error };
  }

  private async succeed(order: FulfilmentOrder, { voucherCode, supplierSerial, supplierMessage }: UpstreamSuccess, job: FulfilJob): Promise<Next> {
    const serial = order.kind === 'voucher' ? serialNumber('voucher', referenceToken(), voucherCode ?? referenceToken()) : serialNumber('instant', referenceToken());
    const now = this.deps.clock.now();
    const settled = await this.deps.repo.succeed(order.id, serial, now, job, { serial: supplierSerial, message: supplierMessage });
    if (settled) this.settledNow(order, job, now, 'success', null);
    return { done: true, settled };
  }

  /** `message`: the supplier's words, kept on the order for the operator (supplierMessage: unless they are the platform's own). */
  private async fail(order: FulfilmentOrder, code: FailureCode | null, message: string | null, job: FulfilJob, supplierMessage = message): Promise<Next> {
    const { repo, clock } = this.deps;
    const failure = classifyFailure({ code, upstreamMessage: message, limitGated: order.limitGated, checkerVerified: order.checkerVerified, supplierNames: await repo.supplierNames() });
    const now = clock.now();
    const settled = await repo.fail(order.id, failure, now, job, { message: supplierMessage });
    if (settled) this.settledNow(order, job, now, 'failed', failure.code);
    return { done: true, settled };
  }

  /** Counted only by the run whose transaction settled the order (a rerun finds it settled). */
  private settledNow(order: FulfilmentOrder, job: FulfilJob, now: number, state: 'success' | 'failed', failureCode: string | null) {
    this.metrics.orderSettled(state, failureCode, now - order.createdAt);
    this.deps.logger?.info({ order_id: order.id, request_id: job.payload.requestId, state, failure_code: failureCode }, 'order settled');
  }

  private async safeSubmit(route: UsableRoute, order: FulfilmentOrder, job: FulfilJob): Promise<SubmitResult> {
    const start = this.deps.clock.now();
    let result: SubmitResult;
    try {
      result = await this.deps.suppliers(route).submit(submission(route, order));
    } catch (e) {
      // An exception after the request may have left: treat as ambiguous, never re-route.
      result = { outcome: 'ambiguous', message: (e as Error).message };
    }
    this.logRequest('submit', route, order, job, result.outcome, start);
    return result;
  }

  private async safeStatus(route: UsableRoute, order: FulfilmentOrder, job: FulfilJob): Promise<StatusResult> {
    const start = this.deps.clock.now();
    let result: StatusResult;
    try {
      result = await this.deps.suppliers(route).status(order.id, submission(route, order));
    } catch (e) {
      result = { state: 'ambiguous', message: (e as Error).message };
    }
    this.logRequest('status', route, order, job, result.state, start);
    return result;
  }

  /** One line per supplier request, with the placing request's id: an order is followed from the API to its supplier. */
  private logRequest(operation: string, route: UsableRoute, order: FulfilmentOrder, job: FulfilJob, outcome: string, start: number) {
    this.deps.logger?.info(
      { order_id: order.id, request_id: job.payload.requestId, supplier_id: route.supplierId, operation, outcome, ms: this.deps.clock.now() - start },
      'supplier request',
    );
  }
}

/** A route whose expected cost is above the order's price would sell at a loss (cost 0 or null: not known). */
export const costAbovePrice = (route: UsableRoute, order: FulfilmentOrder) => route.cost !== null && route.cost > order.price;

/** What a supplier is sent for an order on a route (again, identically, when asked about it). */
function submission(route: UsableRoute, order: FulfilmentOrder): SubmitRequest {
  return { reference: order.id, sku: route.sku, target: order.target, zone: order.zone, kind: order.kind, price: order.price, cost: route.cost, options: route.options };
}
