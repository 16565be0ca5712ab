import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import type { AttentionItem } from '../../../store/attention-repo.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Nullable, PageQueryProps } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const Item = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'below_cost: a price-list sync found a route\'s cost at or above a price of its product (details.action: repriced or route_disabled)' }),
  target_kind: Type.String(), target_id: Type.String(), summary: Type.String(),
  details: Type.Unknown({ description: 'amounts in minor units' }),
  created_at: IsoTime(), resolved_at: Nullable(IsoTime()), resolved_by: Nullable(Type.String()),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const item = (i: AttentionItem) => ({
  id: i.id, kind: i.kind, target_kind: i.targetKind, target_id: i.targetId, summary: i.summary, details: i.details,
  created_at: iso(i.createdAt)!, resolved_at: iso(i.resolvedAt), resolved_by: i.resolvedBy,
});

/** /admin/v1/attention-items: what a person should look at besides orders (GET /orders?needs_attention=true). */
export function attentionRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const svc = deps.services.attention;
  kit.route({
    method: 'GET', url: '/attention-items', tag: 'Overview', paged: true,
    summary: 'Attention items besides orders (open ones, newest first; status=all for resolved ones too)',
    query: Type.Object({ status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('all')])), ...PageQueryProps }, { additionalProperties: false }),
    response: Type.Object({ items: Type.Array(Item) }), errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await svc.list(query);
      return { data: { items: r.items.map(item) }, meta: pageMeta(r.total, r.page) };
    },
  });
  kit.route({
    method: 'POST', url: '/attention-items/:id/resolve', tag: 'Overview', summary: 'Mark an attention item resolved (again: no change)',
    params: IdParams, body: Type.Object({}, { additionalProperties: false }), response: Item, errors: ['NOT_FOUND'],
    handler: async ({ params, who }) => ({ data: item(await svc.resolve(params.id, who.operatorId)) }),
  });
}
