import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { isoMillis, orderCode } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Nullable, PageQueryProps } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const AuditEntry = Type.Object({
  id: Type.String(),
  operator_id: Type.String({ description: 'the operator, or "cli" for the topup command line' }),
  operator_email: Nullable(Type.String()),
  action: Type.String({ description: 'e.g. reseller.approve, wallet.credit, order.refund' }),
  target_kind: Type.String(),
  target_id: Type.String(),
  target_label: Nullable(Type.String({ description: 'how a person names the target: a shop by its name, an order by its ORD- code; null for others' })),
  before: Type.Unknown({ description: 'snapshot before the change (null for creations); never secrets' }),
  after: Type.Unknown({ description: 'snapshot after the change; never secrets' }),
  note: Nullable(Type.String()),
  approved_by: Nullable(Type.String({ description: 'four-eyes: the second operator who approved the change (operator_id asked for it); null: no approval was needed' })),
  approved_by_email: Nullable(Type.String()),
  created_at: IsoTime(),
});

/** /admin/v1/audit: who did what to which target, newest first. */
export function auditRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  kit.route({
    method: 'GET', url: '/audit', tag: 'Audit', paged: true,
    summary: 'The operator audit log, newest first',
    query: Type.Object({
      operator_id: Type.Optional(Type.String({ maxLength: 100 })), target_kind: Type.Optional(Type.String({ maxLength: 50 })),
      target_id: Type.Optional(Type.String({ maxLength: 100 })), action: Type.Optional(Type.String({ maxLength: 100 })), ...PageQueryProps,
    }, { additionalProperties: false }),
    response: Type.Object({ entries: Type.Array(AuditEntry) }),
    errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await deps.services.audit.list(query);
      return {
        data: {
          entries: r.items.map((e) => ({
            id: String(e.id), operator_id: e.operatorId, operator_email: e.operatorEmail, action: e.action, target_kind: e.targetKind,
            target_id: e.targetId, target_label: e.targetKind === 'order' ? orderCode(e.targetId) : e.resellerName, before: e.before, after: e.after, note: e.note, approved_by: e.approvedBy, approved_by_email: e.approvedByEmail, created_at: isoMillis(e.createdAt),
          })),
        },
        meta: pageMeta(r.total, r.page),
      };
    },
  });
}
