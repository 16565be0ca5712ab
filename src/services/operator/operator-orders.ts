import { assertWithinSearchCap, parseDateRange, parsePage, parseStatusFilter } from '../../domain/list-query.js';
import { assertNoControlChars } from '../../domain/order-request.js';
import { REFUND_CEILING_MINOR, toMajor } from '../../domain/money.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { CallbacksRepo } from '../../store/callbacks-repo.js';
import { LedgerRepo } from '../../store/ledger-repo.js';
import { MANUALLY_REFUNDABLE, OperatorOrdersRepo } from '../../store/operator-orders-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';
import type { Claim } from './idempotency.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { OrderRecord } from '../../domain/order.js';

const MAX_NOTE = 500;

/**
 * The operator's view of orders across resellers, the manual refund and the callback
 * resend. The refund is exactly once (see OperatorOrdersRepo.refundManually); fulfilment's own
 * terminal updates are guarded by status = 'processing', so a refunded order is never
 * later marked success or failed (nor refunded again) by the worker.
 */
export class OperatorOrders {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'dialect' | 'repos' | 'clock' | 'currency' | 'resendCallback'>) {}

  async search(q: Record<string, string | undefined>) {
    const page = parsePage(q);
    const statuses = parseStatusFilter(q.status);
    const range = parseDateRange(q, this.core.clock.now());
    const refId = q.ref_id ? q.ref_id : null;
    if (refId !== null) {
      if (refId.length > 100) throw new AppError('VALIDATION_ERROR', 'ref_id must be at most 100 characters');
      assertNoControlChars('ref_id', refId);
    }
    let needsAttention: boolean | null = null;
    if (q.needs_attention !== undefined && q.needs_attention !== '') {
      if (q.needs_attention !== 'true' && q.needs_attention !== 'false') throw new AppError('VALIDATION_ERROR', 'needs_attention must be true or false');
      needsAttention = q.needs_attention === 'true';
    }
    assertWithinSearchCap(page, 'status, dates, reseller_id, ref_id');
    const { orders, total, capped } = await this.core.repos.operatorOrders.search({
      resellerId: q.reseller_id ? q.reseller_id : null, refId, statuses, ...range, needsAttention, limit: page.limit, offset: page.offset,
    });
    return { items: orders, total, capped, page };
  }

  /** An order's id from its id or its ORD- code (as the CLI takes it); NOT_FOUND when none matches. */
  async resolve(idOrCode: string): Promise<string> {
    const id = await this.core.repos.operatorOrders.idOf(idOrCode);
    if (id === null) throw notFound(idOrCode);
    return id;
  }

  /** One order (by id or ORD- code) with its ledger entries, its callback delivery log and its fulfilment facts. */
  async view(idOrCode: string) {
    return orderView(this.core.repos, await this.resolve(idOrCode));
  }

  /**
   * Manual refund with a required note: only from processing (stuck) or success; failed is
   * already refunded and refunded is final (INVALID_STATE). No callback is sent.
   */
  async refund(orderId: string, rawNote: string, actor: Actor, claim?: Claim<OrderView>): Promise<OrderView> {
    const note = requiredNote(rawNote);
    const now = this.core.clock.now();
    let refunded: OrderView | null = null;
    const result = await this.core.repos.operatorOrders.refundManually(orderId, note, now, {
      // The key first: a refund racing with the same key waits here, before the order is read.
      first: async (trx) => claim?.take(trx),
      last: async (trx, r) => {
        refunded = await this.audited(trx, orderId, note, actor, r, now);
        await claim?.keep(trx, refunded);
      },
    });
    if (!result.ok) throw this.refusal(orderId, result);
    return refunded!;
  }

  /** The note of a manual refund, trimmed, or VALIDATION_ERROR. */
  validateNote(rawNote: string) {
    return requiredNote(rawNote);
  }

  /**
   * An approved four-eyes refund, in the approval's transaction: the same writes and audit
   * line as refund() (naming the second operator too); refusals throw and write nothing.
   * A refund that lost a race throws from the repo (lostRefundRace): roll back.
   */
  async applyIn(trx: Transaction<DB>, orderId: string, note: string, actor: Actor, approval: { by: string; requestId: string }): Promise<OrderView> {
    const now = this.core.clock.now();
    const r = await OperatorOrdersRepo.refundIn(trx, orderId, note, now);
    if (!r.ok) throw this.refusal(orderId, r);
    return this.audited(trx, orderId, note, actor, r, now, approval);
  }

  /** The order's price (minor units) when it can be refunded now; null when it cannot (refund() then says why). */
  async refundablePrice(orderId: string): Promise<number | null> {
    const facts = await this.core.repos.operatorOrders.facts(orderId);
    if (!facts || !(MANUALLY_REFUNDABLE as readonly string[]).includes(facts.order.status)) return null;
    return facts.order.price;
  }

  private async audited(trx: Transaction<DB>, orderId: string, note: string, actor: Actor, r: { before: OrderRecord; after: OrderRecord; balanceAfter: number }, now: number, approval?: { by: string; requestId: string }) {
    const money = (m: number) => toMajor(m, this.core.currency.decimals);
    await AuditRepo.record(trx, {
      operatorId: actor, action: 'order.refund', targetKind: 'order', targetId: orderId, approvedBy: approval?.by ?? null,
      before: { status: r.before.status, completed_at: r.before.completedAt },
      after: {
        status: r.after.status, completed_at: r.after.completedAt, refunded: money(r.after.price), reseller_id: r.after.resellerId, balance_after: money(r.balanceAfter),
        ...(approval ? { approval_request_id: approval.requestId } : {}),
      },
      note,
    }, now);
    // The answer as committed with the refund: what a replay of its key gives again.
    return orderView({ operatorOrders: new OperatorOrdersRepo(trx), ledger: new LedgerRepo(trx), callbacks: new CallbacksRepo(trx, this.core.dialect) }, orderId);
  }

  private refusal(orderId: string, result: { ok: false; current: OrderRecord | null; pastCeiling?: true }) {
    const money = (m: number) => toMajor(m, this.core.currency.decimals);
    if (!result.current) return notFound(orderId);
    if (result.pastCeiling) return new AppError('VALIDATION_ERROR', `the refund would take the balance past ${money(REFUND_CEILING_MINOR)} ${this.core.currency.code}, beyond which amounts are not exact; debit the wallet first`);
    const why = result.current.status === 'failed' ? 'a failed order was already refunded automatically' : 'a refunded order is final';
    return new AppError('INVALID_STATE', `only processing or success orders can be refunded (${MANUALLY_REFUNDABLE.join(', ')}); ${why}`);
  }

  /** A new round of callback attempts for a success or failed order, audited; `requestId` goes into its delivery logs. */
  async resendCallback(orderId: string, actor: Actor, requestId?: string) {
    const { round } = await this.core.resendCallback.execute(orderId, { requestId });
    await this.core.repos.audit.record({ operatorId: actor, action: 'order.resend_callback', targetKind: 'order', targetId: orderId, before: null, after: { round } }, this.core.clock.now());
    return { orderId, round };
  }
}

export type OrderView = Awaited<ReturnType<typeof orderView>>;

async function orderView(repos: { operatorOrders: OperatorOrdersRepo; ledger: LedgerRepo; callbacks: CallbacksRepo }, orderId: string) {
  const facts = await repos.operatorOrders.facts(orderId);
  if (!facts) throw notFound(orderId);
  const [ledger, callbacks] = await Promise.all([repos.ledger.forOrder(orderId), repos.callbacks.log(orderId)]);
  return { ...facts, ledger, callbacks };
}

function requiredNote(raw: string): string {
  const note = raw.trim();
  if (!note) throw new AppError('VALIDATION_ERROR', 'note is required: say why the order is refunded');
  if (note.length > MAX_NOTE) throw new AppError('VALIDATION_ERROR', `note must be at most ${MAX_NOTE} characters`);
  return note;
}

const notFound = (id: string) => new AppError('NOT_FOUND', `no order with id or code ${id}`);
