import { APPROVAL_PERMISSION, cancelRefusal, decisionRefusal, isApprovalState, needsApproval, type ApprovalKind, type ApprovalState } from '../../domain/four-eyes.js';
import { parsePage } from '../../domain/list-query.js';
import { toMajor } from '../../domain/money.js';
import type { OperatorRole } from '../../domain/operator-roles.js';
import { AppError } from '../../errors.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../store/schema.js';
import { ApprovalsRepo, type ApprovalRequest } from '../../store/approvals-repo.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { lostRefundRace } from '../../store/operator-orders-repo.js';
import type { ManageSupply } from '../manage-supply.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';
import type { AdjustWallet, WalletChange } from './adjust-wallet.js';
import type { Claim } from './idempotency.js';
import type { OperatorOrders, OrderView } from './operator-orders.js';

/** A guarded action's outcome: done at once, or waiting as an approval request (HTTP 202). */
export type Gated<T> = { done: T } | { pending: ApprovalRequest };

const MAX_REASON = 500;

/** The approver of a request: who and with which roles (read fresh with the session). */
export interface Decider {
  operatorId: string;
  roles: readonly OperatorRole[];
}

/** What an approval could not apply (the action refused: balance too low, order settled): the request becomes failed. */
class NotApplicable extends Error {}

/**
 * Four-eyes (issue 37; rules in domain/four-eyes.ts). An operator's credit, debit or manual
 * refund above FOUR_EYES_THRESHOLD, and every change of a supplier's credentials, is kept
 * as a request (new credentials sealed) instead of applied. Another operator whose roles
 * may do the action approves it, and the action is applied in the transaction that moves
 * the request from pending to approved (a guarded update: two approvers, one application),
 * audited with both people; or rejects it; the requester may cancel it. An approval whose
 * action is refused (balance now too low, order settled meanwhile) rolls back and leaves
 * the request failed with the refusal as its reason.
 */
export class Approvals {
  constructor(
    private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'ids' | 'currency' | 'fourEyesThreshold'>,
    private readonly actions: { wallet: AdjustWallet; orders: OperatorOrders; supply: ManageSupply },
  ) {}

  /** A credit or debit: at once at or below the threshold (as before four-eyes), else a request. */
  async walletChange(kind: 'credit' | 'debit', resellerId: string, amount: number | string, rawNote: string, actor: Actor, claim?: Claim<Gated<WalletChange>>): Promise<Gated<WalletChange>> {
    const { minor, note } = this.actions.wallet.validate(amount, rawNote);
    if (!needsApproval(`wallet.${kind}`, minor, this.core.fourEyesThreshold)) {
      const inner = claim && { take: claim.take, keep: (trx: Parameters<typeof claim.keep>[0], r: WalletChange) => claim.keep(trx, { done: r }) };
      return { done: await (kind === 'credit' ? this.actions.wallet.credit(resellerId, amount, note, actor, inner) : this.actions.wallet.debit(resellerId, amount, note, actor, inner)) };
    }
    const exists = await this.core.db.selectFrom('resellers').select('id').where('id', '=', resellerId).executeTakeFirst();
    if (!exists) throw new AppError('NOT_FOUND', `no reseller with id ${resellerId}`);
    return { pending: await this.open({ kind: `wallet.${kind}`, targetKind: 'reseller', targetId: resellerId, amount: minor, note, payloadEnc: null }, actor, claim) };
  }

  /** A manual refund: at once when the order's price is at or below the threshold, else a request. */
  async refund(orderId: string, rawNote: string, actor: Actor, claim?: Claim<Gated<OrderView>>): Promise<Gated<OrderView>> {
    const note = this.actions.orders.validateNote(rawNote);
    const price = await this.actions.orders.refundablePrice(orderId);
    // Not refundable (or not found): refund() answers why, after its Idempotency-Key claim, so
    // that a request racing with the same key replays the first answer rather than INVALID_STATE.
    if (price === null || !needsApproval('order.refund', price, this.core.fourEyesThreshold)) {
      const inner = claim && { take: claim.take, keep: (trx: Parameters<typeof claim.keep>[0], r: OrderView) => claim.keep(trx, { done: r }) };
      return { done: await this.actions.orders.refund(orderId, note, actor, inner) };
    }
    return { pending: await this.open({ kind: 'order.refund', targetKind: 'order', targetId: orderId, amount: price, note, payloadEnc: null }, actor, claim) };
  }

  /** New supplier credentials: always a request; they wait sealed and are never shown. */
  async supplierCredentials(idOrName: string, input: Parameters<ManageSupply['sealNewCredentials']>[1], rawNote: string | undefined, actor: Actor): Promise<ApprovalRequest> {
    const note = rawNote?.trim() || null;
    if (note !== null && note.length > MAX_REASON) throw new AppError('VALIDATION_ERROR', `note must be at most ${MAX_REASON} characters`);
    const { supplier, sealed } = await this.actions.supply.sealNewCredentials(idOrName, input);
    return this.open({ kind: 'supplier.credentials', targetKind: 'supplier', targetId: supplier.id, amount: null, note, payloadEnc: sealed }, actor);
  }

  async list(q: Record<string, unknown>) {
    const page = parsePage(q);
    const states = parseStates(q.state);
    const r = await new ApprovalsRepo(this.core.db).list({ states, limit: page.limit, offset: page.offset });
    return { ...r, page };
  }

  async get(id: string): Promise<ApprovalRequest> {
    const r = await new ApprovalsRepo(this.core.db).get(id);
    if (!r) throw new AppError('NOT_FOUND', `no approval request with id ${id}`);
    return r;
  }

  /**
   * Approves and applies, exactly once. The answer is the request as decided: approved with
   * what the action produced, or failed with why it could not be applied.
   */
  async approve(id: string, who: Decider): Promise<ApprovalRequest> {
    const request = await this.get(id);
    refuse(decisionRefusal(request, { id: who.operatorId, roles: who.roles }));
    const now = this.core.clock.now();
    try {
      await this.core.db.transaction().execute(async (trx) => {
        const repo = new ApprovalsRepo(trx);
        // The guard first: a second approver's update matches no row (it waits for this one on PostgreSQL).
        if (!(await repo.decide(id, 'approved', who.operatorId, now))) throw decidedMeanwhile();
        const result = await this.apply(trx, request, who.operatorId);
        await trx.updateTable('approval_requests').set({ result: JSON.stringify(result) }).where('id', '=', id).execute();
        await AuditRepo.record(trx, { operatorId: who.operatorId, action: 'approval.approve', targetKind: 'approval_request', targetId: id, before: { state: 'pending' }, after: { state: 'approved', kind: request.kind, target_id: request.targetId } }, now);
      });
    } catch (e) {
      if (!(e instanceof NotApplicable)) throw e;
      await this.core.db.transaction().execute(async (trx) => {
        if (!(await new ApprovalsRepo(trx).decide(id, 'failed', who.operatorId, now, { reason: e.message }))) return;
        await AuditRepo.record(trx, { operatorId: who.operatorId, action: 'approval.fail', targetKind: 'approval_request', targetId: id, before: { state: 'pending' }, after: { state: 'failed', kind: request.kind, target_id: request.targetId }, note: e.message }, now);
      });
    }
    return this.get(id);
  }

  async reject(id: string, rawReason: string, who: Decider): Promise<ApprovalRequest> {
    const reason = rawReason.trim();
    if (!reason) throw new AppError('VALIDATION_ERROR', 'reason is required: say why the change is rejected (the requester reads it)');
    if (reason.length > MAX_REASON) throw new AppError('VALIDATION_ERROR', `reason must be at most ${MAX_REASON} characters`);
    const request = await this.get(id);
    refuse(decisionRefusal(request, { id: who.operatorId, roles: who.roles }));
    await this.close(request, 'rejected', who.operatorId, reason);
    return this.get(id);
  }

  async cancel(id: string, who: Decider): Promise<ApprovalRequest> {
    const request = await this.get(id);
    refuse(cancelRefusal(request, who.operatorId));
    await this.close(request, 'cancelled', who.operatorId, null);
    return this.get(id);
  }

  private async close(request: ApprovalRequest, to: 'rejected' | 'cancelled', by: string, reason: string | null) {
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      if (!(await new ApprovalsRepo(trx).decide(request.id, to, by, now, { reason }))) throw decidedMeanwhile();
      await AuditRepo.record(trx, {
        operatorId: by, action: to === 'rejected' ? 'approval.reject' : 'approval.cancel', targetKind: 'approval_request', targetId: request.id,
        before: { state: 'pending' }, after: { state: to, kind: request.kind, target_id: request.targetId }, note: reason,
      }, now);
    });
  }

  private async open(r: Pick<ApprovalRequest, 'kind' | 'targetKind' | 'targetId' | 'amount' | 'note' | 'payloadEnc'>, actor: Actor, claim?: Claim<Gated<never>>): Promise<ApprovalRequest> {
    const id = this.core.ids.uuid();
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      // The Idempotency-Key's claim first, its answer (this request, pending) last: a retry replays the 202.
      await claim?.take(trx);
      await new ApprovalsRepo(trx).insert({ id, ...r, requestedBy: actor, requestedAt: now });
      await AuditRepo.record(trx, {
        operatorId: actor, action: 'approval.request', targetKind: 'approval_request', targetId: id, before: null,
        after: { state: 'pending', kind: r.kind, target_kind: r.targetKind, target_id: r.targetId, amount: r.amount === null ? null : toMajor(r.amount, this.core.currency.decimals) },
        note: r.note,
      }, now);
      if (claim) await claim.keep(trx, { pending: (await new ApprovalsRepo(trx).get(id))! });
    });
    return (await new ApprovalsRepo(this.core.db).get(id))!;
  }

  /** The approved action, in the approval's transaction, audited as the requester's with the approver beside. */
  private async apply(trx: Transaction<DB>, r: ApprovalRequest, approver: string): Promise<unknown> {
    const approval = { by: approver, requestId: r.id };
    try {
      switch (r.kind) {
        case 'wallet.credit':
        case 'wallet.debit': {
          const c = await this.actions.wallet.applyIn(trx, r.targetId, r.kind === 'wallet.credit' ? 'credit' : 'debit', r.amount!, r.note ?? '', r.requestedBy, approval);
          return { ledger_entry_id: String(c.entry.id), balance: toMajor(c.entry.balanceAfter, this.core.currency.decimals) };
        }
        case 'order.refund': {
          const o = await this.actions.orders.applyIn(trx, r.targetId, r.note ?? '', r.requestedBy, approval);
          return { order_status: o.order.status, reseller_id: o.order.resellerId };
        }
        case 'supplier.credentials':
          await this.actions.supply.applyCredentialsIn(trx, r.targetId, r.payloadEnc!, r.requestedBy, approval);
          return { credentials: 'sealed' };
      }
    } catch (e) {
      if (e instanceof AppError) throw new NotApplicable(`${e.code}: ${e.message}`);
      if (lostRefundRace(e)) throw new NotApplicable('INVALID_STATE: the order was settled or refunded while the request waited; nothing was changed');
      throw e;
    }
  }
}

/** The permission an approver of this request must hold. */
export const permissionToDecide = (kind: ApprovalKind) => APPROVAL_PERMISSION[kind];

function refuse(refusal: ReturnType<typeof decisionRefusal>) {
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

const decidedMeanwhile = () => new AppError('INVALID_STATE', 'the request was decided by someone else meanwhile; reload it');

function parseStates(raw: unknown): ApprovalState[] {
  if (raw === undefined || raw === '') return [];
  const states = String(raw).split(',').map((s) => s.trim()).filter(Boolean);
  const bad = states.filter((s) => !isApprovalState(s));
  if (bad.length) throw new AppError('VALIDATION_ERROR', `state must be pending, approved, rejected, failed or cancelled, or a comma-separated list (got "${bad[0]!.slice(0, 40)}")`);
  return states as ApprovalState[];
}
