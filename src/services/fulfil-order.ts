import type { SubmitRequest, Supplier, SupplierAnswer, UpstreamSuccess } from '../adapters/suppliers/types.js';
import { classifyFailure, type FailureCode } from '../domain/failure.js';
import { referenceToken, serialNumber } from '../domain/serial.js';
import { nextSupplierReference } from '../domain/supplier-reference.js';
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
 * Fulfils one order (the handler of fulfil_order jobs). Routes are tried in priority order,
 * each attempt under its own supplier reference, written with the route before the
 * submission (a crash is followed by a status query about that reference).
 *
 * The rule for every supplier (adapters only say which answers are definite): once a
 * submission may have been taken (any answer but a definite "no" that stored nothing, or
 * no answer at all), only a definite final state of that transaction settles the order. A
 * status query that is refused, fails or cannot be read says nothing about it: the order
 * is asked about again later, the supplier's health records a failure, past the attention
 * bound the order is flagged for the operator, and it is never refunded nor ordered on
 * another route on that ground.
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
    const read = await this.deps.repo.orderWithRoutes(job.payload.orderId);
    if (!read || read.order.status !== 'processing') return { done: true };
    const { order, routes } = read;
    if (order.supplierId) return this.check(order, routes, job);
    return this.submitFrom(order, routes, { index: order.routesTried, last: order.supplierRef }, job);
  }

  /** An attempt is in flight: its supplier may have taken the order, so it is asked first. */
  private async check(order: FulfilmentOrder, routes: UsableRoute[], job: FulfilJob): Promise<Next> {
    const { repo, clock } = this.deps;
    // The route may have been disabled since we submitted; we still must ask that supplier.
    const same = routes.findIndex((r) => r.supplierId === order.supplierId && r.sku === order.supplierSku);
    const route = routes[same] ?? (await repo.supplierRoute(order.supplierId!, order.supplierSku ?? '', order.productCode));
    const reference = order.supplierRef ?? order.id;
    const answer = await this.ask('status', route, order, reference, job);
    switch (answer.kind) {
      case 'success':
      case 'pending':
        return this.answered(route, order, answer, job);
      case 'failed':
        await repo.supplierAnswered(route, clock.now());
        if (!answer.otherRoute) return this.fail(order, answer.code, answer.message, job);
        // Final there and never delivered: the next route may be tried, as after a refusal at submit.
        return this.submitFrom(order, routes, { index: same >= 0 ? same + 1 : order.routesTried, last: reference }, job, { code: answer.code, message: answer.message });
      case 'not-found':
        // Nothing under this reference there: submitting is safe, on that very route and
        // under the same reference, so a supplier that did have it dedups the submission.
        return this.submitFrom(order, routes, same >= 0 ? { index: same, last: reference, reuse: true } : { index: Math.max(0, order.routesTried - 1), last: reference }, job);
      case 'refused':
      case 'unknown': {
        // The query, not the transaction, was answered (or nothing was): ask again later.
        const why = answer.kind === 'unknown' ? answer.message : `status query refused: ${answer.message ?? answer.code ?? 'no reason given'}`;
        await repo.recordSupplierResult(route.supplierId, false, why, clock.now());
        return this.pollLater(order, job, why);
      }
    }
  }

  /**
   * Submits from route `from.index` on, each attempt under a new reference made from the
   * last one (`reuse`: the first attempt keeps `last`, which its supplier does not have).
   */
  private async submitFrom(order: FulfilmentOrder, routes: UsableRoute[], from: { index: number; last: string | null; reuse?: boolean }, job: FulfilJob, failure?: { code: FailureCode | null; message: string | null }): Promise<Next> {
    const { repo, clock } = this.deps;
    // `ours`: the message is the platform's own note, not the supplier's words.
    let lastFailure: { code: FailureCode | null; message: string | null; ours?: true } = failure ?? { code: 'NO_SUPPLIER_AVAILABLE', message: null };
    let reference = from.last;
    // The first route a circuit breaker held back: the next run starts there again.
    let held: number | null = null;
    for (let i = from.index; i < routes.length; i++) {
      const route = routes[i]!;
      if (costAbovePrice(route, order)) {
        // Never submitted at a cost above its price (issue 27): the route is passed over untried.
        lastFailure = { code: 'NO_SUPPLIER_AVAILABLE', message: `route ${route.supplierName}/${route.sku} costs ${route.cost}, above the order's price ${order.price}`, ours: true };
        await repo.markInFlight(order.id, null, i + 1, clock.now());
        continue;
      }
      if (!(await repo.breaker.admit(route.supplierId, route.breaker))) {
        // Open, or half-open with its probe orders out: not sent there now, and never failed for it.
        // A resubmission under the attempt's own reference waits for that very route: only it dedups on it.
        if (from.reuse && i === from.index) return this.pollLater(order, job, "waiting for a supplier's circuit breaker");
        held ??= i;
        continue;
      }
      reference = from.reuse && i === from.index && reference !== null ? reference : nextSupplierReference(order.id, reference);
      // Counted as tried before the attempt: routes_tried - 1 is the route in flight.
      await repo.markInFlight(order.id, { supplierId: route.supplierId, sku: route.sku, reference }, i + 1, clock.now());
      const answer = await this.ask('submit', route, order, reference, job);
      switch (answer.kind) {
        case 'success':
        case 'pending':
          return this.answered(route, order, answer, job);
        case 'not-found':
        case 'unknown': {
          // May have been taken: counts towards opening the supplier's breaker; routing-wise
          // the order stays with this supplier.
          const why = answer.kind === 'unknown' ? answer.message : 'submission answered "not found"';
          await repo.recordSupplierResult(route.supplierId, false, why, clock.now());
          return this.pollLater(order, job, why);
        }
        case 'failed':
          await repo.supplierAnswered(route, clock.now());
          if (!answer.otherRoute) return this.fail(order, answer.code, answer.message, job);
          lastFailure = { code: answer.code, message: answer.message };
          await repo.markInFlight(order.id, null, i + 1, clock.now());
          break;
        case 'refused':
          // The first call under this reference was refused: nothing was stored, move on. A
          // refusal is still an answer (a half-open breaker's probe order counts it), unless
          // the supplier could not be reached at all.
          if (answer.code === 'SUPPLIER_UNREACHABLE') await repo.recordSupplierResult(route.supplierId, false, answer.message, clock.now());
          else await repo.supplierAnswered(route, clock.now());
          lastFailure = { code: answer.code, message: answer.message };
          await repo.markInFlight(order.id, null, i + 1, clock.now());
      }
    }
    if (held !== null) {
      await repo.markInFlight(order.id, null, held, clock.now());
      return this.pollLater(order, job, "waiting for a supplier's circuit breaker");
    }
    return this.fail(order, lastFailure.code ?? 'NO_SUPPLIER_AVAILABLE', lastFailure.message, job, lastFailure.ours ? null : lastFailure.message);
  }

  /** The supplier answered for the transaction: delivered, or still working on it. */
  private async answered(route: UsableRoute, order: FulfilmentOrder, answer: Extract<SupplierAnswer, { kind: 'success' | 'pending' }>, job: FulfilJob): Promise<Next> {
    await this.deps.repo.supplierAnswered(route, this.deps.clock.now());
    return answer.kind === 'success' ? this.succeed(order, route, answer, job) : this.pollLater(order, job);
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

  /** The order's cost: what the supplier says it charged, else what its route expected (null: neither known). */
  private async succeed(order: FulfilmentOrder, route: UsableRoute, { voucherCode, supplierSerial, supplierMessage, charged }: UpstreamSuccess, job: FulfilJob): Promise<Next> {
    const serial = order.kind === 'voucher' ? serialNumber('voucher', referenceToken(), voucherCode ?? referenceToken()) : serialNumber('instant', referenceToken());
    const now = this.deps.clock.now();
    const cost = charged ?? (route.cost ? route.cost : null);
    const settled = await this.deps.repo.succeed(order.id, serial, now, job, { serial: supplierSerial, message: supplierMessage, cost });
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

  /** One request to the route's supplier; an exception (the request may have left) is an unknown answer. */
  private async ask(operation: 'submit' | 'status', route: UsableRoute, order: FulfilmentOrder, reference: string, job: FulfilJob): Promise<SupplierAnswer> {
    const start = this.deps.clock.now();
    let answer: SupplierAnswer;
    try {
      const supplier = this.deps.suppliers(route);
      const req = submission(route, order, reference);
      answer = operation === 'submit' ? await supplier.submit(req) : await supplier.status(reference, req);
    } catch (e) {
      answer = { kind: 'unknown', message: (e as Error).message };
    }
    this.logRequest(operation, route, order, reference, job, answer.kind, start);
    return answer;
  }

  /** One line per supplier request, with the placing request's id: an order is followed from the API to its supplier. */
  private logRequest(operation: string, route: UsableRoute, order: FulfilmentOrder, reference: string, job: FulfilJob, outcome: string, start: number) {
    this.deps.logger?.info(
      { order_id: order.id, request_id: job.payload.requestId, supplier_id: route.supplierId, supplier_ref: reference, operation, outcome, ms: this.deps.clock.now() - start },
      'supplier request',
    );
  }
}

/** A route whose expected cost is above the order's price would sell at a loss (cost 0 or null: not known). */
export const costAbovePrice = (route: UsableRoute, order: FulfilmentOrder) => route.cost !== null && route.cost > order.price;

/** What a supplier is sent for an attempt (again, identically, when asked about it). */
function submission(route: UsableRoute, order: FulfilmentOrder, reference: string): SubmitRequest {
  return { reference, sku: route.sku, target: order.target, zone: order.zone, kind: order.kind, price: order.price, cost: route.cost, options: route.options };
}
