import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, PageQueryProps } from '../../schemas.js';
import { ApprovalRequest, approvalView } from './approval-view.js';
import type { AdminApiDeps } from './index.js';

const DECIDE = 'Only an operator other than the requester (403 FOUR_EYES_SELF_APPROVAL), holding a role that may do the action itself (see roles in the answer; else 403 FORBIDDEN_ROLE).';

/** /admin/v1/approvals: four-eyes requests (services/operator/approvals.ts). */
export function approvalRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { approvals } = deps.services;
  const view = (r: Parameters<typeof approvalView>[0]) => approvalView(r, deps.services.currency.decimals);

  kit.route({
    method: 'GET', url: '/approvals', tag: 'Approvals', paged: true,
    summary: 'Four-eyes requests: pending ones oldest first, otherwise newest first',
    query: Type.Object({
      state: Type.Optional(Type.String({ maxLength: 100, description: 'pending, approved, rejected, failed, cancelled, or a comma-separated list; default all' })),
      ...PageQueryProps,
    }, { additionalProperties: false }),
    response: Type.Object({ requests: Type.Array(ApprovalRequest) }),
    errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await approvals.list(query);
      return { data: { requests: r.items.map(view) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/approvals/:id', tag: 'Approvals', summary: 'One four-eyes request',
    params: IdParams, response: ApprovalRequest, errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: view(await approvals.get(params.id)) }),
  });

  kit.route({
    method: 'POST', url: '/approvals/:id/approve', tag: 'Approvals',
    summary: 'Approve a pending request: its action is applied in the same transaction, exactly once',
    description: `${DECIDE} The answer is the request as decided: approved (result says what was done), or failed when the action could not be applied any more (e.g. the balance is now below the debit; reason says why; nothing changed). Two approvals at once: one applies, the other answers 409 INVALID_STATE.`,
    params: IdParams, body: Type.Object({}, { additionalProperties: false }), response: ApprovalRequest,
    errors: ['NOT_FOUND', 'INVALID_STATE', 'FOUR_EYES_SELF_APPROVAL'],
    handler: async ({ params, who }) => ({ data: view(await approvals.approve(params.id, who)) }),
  });

  kit.route({
    method: 'POST', url: '/approvals/:id/reject', tag: 'Approvals', summary: 'Reject a pending request with a reason: nothing is done',
    description: DECIDE,
    params: IdParams,
    body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, description: 'required; the requester reads it' }) }, { additionalProperties: false }),
    response: ApprovalRequest, errors: ['NOT_FOUND', 'INVALID_STATE', 'FOUR_EYES_SELF_APPROVAL'],
    handler: async ({ params, body, who }) => ({ data: view(await approvals.reject(params.id, body.reason, who)) }),
  });

  kit.route({
    method: 'POST', url: '/approvals/:id/cancel', tag: 'Approvals', summary: 'Withdraw your own pending request: nothing is done',
    description: 'Only the operator who asked (others: 403 FORBIDDEN_ROLE; they approve or reject).',
    params: IdParams, body: Type.Object({}, { additionalProperties: false }), response: ApprovalRequest,
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, who }) => ({ data: view(await approvals.cancel(params.id, who)) }),
  });
}
