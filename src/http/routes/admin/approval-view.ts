import { Type } from '@sinclair/typebox';
import { APPROVAL_KINDS, APPROVAL_PERMISSION, APPROVAL_STATES } from '../../../domain/four-eyes.js';
import { isoMillis } from '../../../domain/order.js';
import { toMajor } from '../../../domain/money.js';
import { rolesFor } from '../../../domain/operator-roles.js';
import type { ApprovalRequest as Request } from '../../../store/approvals-repo.js';
import { IsoTime, Money, Nullable, StringEnum } from '../../schemas.js';

/** A four-eyes request as the operator API shows it (sealed credentials never leave the service). */
export const ApprovalRequest = Type.Object({
  id: Type.String(),
  kind: StringEnum(APPROVAL_KINDS, 'what waits: wallet.credit, wallet.debit, order.refund or supplier.credentials'),
  target_kind: Type.String({ description: 'reseller, order or supplier' }),
  target_id: Type.String(),
  amount: Nullable(Money('major units; null for supplier credentials (the new credentials are kept sealed and never shown)')),
  note: Nullable(Type.String()),
  state: StringEnum(APPROVAL_STATES, 'pending; approved (applied); rejected; failed (approved but could not be applied: reason says why; nothing changed); cancelled (by the requester)'),
  requested_by: Type.String(), requested_by_email: Nullable(Type.String()), requested_at: IsoTime(),
  decided_by: Nullable(Type.String()), decided_by_email: Nullable(Type.String()), decided_at: Nullable(IsoTime()),
  reason: Nullable(Type.String({ description: 'rejected: why; failed: why the action could not be applied' })),
  result: Type.Unknown({ description: 'approved: what the action produced (e.g. ledger_entry_id and balance); otherwise null' }),
  permission: Type.String({ description: 'the permission an approver needs (that of the action); the requester cannot approve their own' }),
  roles: Type.Array(Type.String(), { description: 'the roles that hold that permission' }),
});

export function approvalView(r: Request, decimals: number) {
  const permission = APPROVAL_PERMISSION[r.kind];
  return {
    id: r.id, kind: r.kind, target_kind: r.targetKind, target_id: r.targetId,
    amount: r.amount === null ? null : toMajor(r.amount, decimals), note: r.note, state: r.state,
    requested_by: r.requestedBy, requested_by_email: r.requestedByEmail, requested_at: isoMillis(r.requestedAt),
    decided_by: r.decidedBy, decided_by_email: r.decidedByEmail, decided_at: r.decidedAt === null ? null : isoMillis(r.decidedAt),
    reason: r.reason, result: r.result, permission, roles: [...rolesFor(permission)],
  };
}

export const ACCEPTED_FOR_APPROVAL = 'accepted for approval (four-eyes): the amount is above FOUR_EYES_THRESHOLD, so nothing changed yet; '
  + 'data is the approval request (state pending). Another operator approves it with POST /approvals/{id}/approve. '
  + 'A retry with the same Idempotency-Key answers this 202 again; GET /approvals/{id} tells its state now.';
