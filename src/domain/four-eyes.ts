import { mayDo, roleList, rolesFor, type OperatorRole, type Permission } from './operator-roles.js';

/**
 * Four-eyes (issue 37): which operator actions wait for a second operator, and who may
 * decide them. Pure rules; the service (services/operator/approvals.ts) applies them.
 */
export const APPROVAL_KINDS = ['wallet.credit', 'wallet.debit', 'order.refund', 'supplier.credentials'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/**
 * pending: waiting. approved: applied (in the transaction that approved it). rejected: a
 * second operator said no. failed: approved, but the action could no longer be applied
 * (reason says why; nothing changed). cancelled: withdrawn by the requester.
 */
export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'failed', 'cancelled'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** The permission the underlying action needs: the requester held it, the approver must too. */
export const APPROVAL_PERMISSION: Record<ApprovalKind, Permission> = {
  'wallet.credit': 'wallet.adjust',
  'wallet.debit': 'wallet.adjust',
  'order.refund': 'orders.refund',
  'supplier.credentials': 'supply.manage',
};

/**
 * Whether an action must wait for approval: a supplier's credentials always; money above the
 * threshold (minor units; null: four-eyes is off for money). At the threshold: at once.
 */
export function needsApproval(kind: ApprovalKind, amountMinor: number | null, thresholdMinor: number | null): boolean {
  if (kind === 'supplier.credentials') return true;
  return thresholdMinor !== null && amountMinor !== null && amountMinor > thresholdMinor;
}

export type DecisionRefusal =
  | { code: 'INVALID_STATE'; message: string }
  | { code: 'FOUR_EYES_SELF_APPROVAL'; message: string }
  | { code: 'FORBIDDEN_ROLE'; message: string };

/** Why this operator may not approve or reject this request, or null when they may. */
export function decisionRefusal(
  request: { kind: ApprovalKind; state: ApprovalState; requestedBy: string },
  operator: { id: string; roles: readonly OperatorRole[] },
): DecisionRefusal | null {
  if (request.state !== 'pending') return { code: 'INVALID_STATE', message: `the request is ${request.state}; only a pending request can be approved or rejected` };
  if (request.requestedBy === operator.id) {
    return { code: 'FOUR_EYES_SELF_APPROVAL', message: 'you asked for this change: another operator must approve or reject it (four-eyes)' };
  }
  const permission = APPROVAL_PERMISSION[request.kind];
  if (!mayDo(operator.roles, permission)) {
    return { code: 'FORBIDDEN_ROLE', message: `deciding a ${request.kind} request needs a role that may do it: ${roleList(rolesFor(permission))}` };
  }
  return null;
}

/** Whether the requester may withdraw it. */
export function cancelRefusal(request: { state: ApprovalState; requestedBy: string }, operatorId: string): DecisionRefusal | null {
  if (request.requestedBy !== operatorId) return { code: 'FORBIDDEN_ROLE', message: 'only the operator who asked for this change can cancel it; others approve or reject it' };
  if (request.state !== 'pending') return { code: 'INVALID_STATE', message: `the request is ${request.state}; only a pending request can be cancelled` };
  return null;
}

export const isApprovalState = (v: string): v is ApprovalState => (APPROVAL_STATES as readonly string[]).includes(v);
