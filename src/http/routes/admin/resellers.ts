import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { isoMillis } from '../../../domain/order.js';
import { presenters } from '../../presenters.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, IsoTime, Money, Nullable, PageQueryProps, StringEnum } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';
import { onceGated } from '../../idempotency.js';
import { ACCEPTED_FOR_APPROVAL, ApprovalRequest, approvalView } from './approval-view.js';
import { LedgerEntry } from '../../openapi/reseller-schemas.js';
import { TIERS } from '../../../store/resellers-repo.js';

const TierSchema = StringEnum(TIERS);
const StatusSchema = StringEnum(['pending', 'active', 'suspended'] as const);
const Note = Type.String({ minLength: 1, maxLength: 500, description: 'why; kept in the audit log' });

const ResellerSummary = Type.Object({
  id: Type.String(), name: Type.String(), email: Type.String(), tier: TierSchema, status: StatusSchema,
  balance: Money(), callback_url: Nullable(Type.String()), created_at: IsoTime(), updated_at: IsoTime(),
});

const ResellerDetail = Type.Object({
  ...ResellerSummary.properties,
  ip_whitelist: Type.Array(Type.String()),
  api_keys: Type.Array(Type.Object({
    id: Type.String(), masked_key: Type.String({ description: 'the key is never shown in full after creation' }),
    created_at: IsoTime(), revoked_at: Nullable(IsoTime()),
  })),
  catalogs: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});

const WalletChange = Type.Object({
  reseller_id: Type.String(),
  entry: LedgerEntry,
  balance: Money('balance after the change'),
});

/** /admin/v1/resellers: accounts, approval, tier, suspension, and the wallet. */
export function resellerRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const { resellers, wallet, approvals } = deps.services;
  const approvalRequest = (r: Parameters<typeof approvalView>[0]) => approvalView(r, deps.services.currency.decimals);
  const present = presenters(deps.services.currency.decimals);
  const summary = (r: Awaited<ReturnType<typeof resellers.search>>['items'][number]) => ({
    id: r.id, name: r.name, email: r.email, tier: r.tier, status: r.status, balance: present.money(r.balance),
    callback_url: r.callbackUrl, created_at: isoMillis(r.createdAt), updated_at: isoMillis(r.updatedAt),
  });
  const detail = (r: Awaited<ReturnType<typeof resellers.view>>) => ({
    ...summary(r),
    ip_whitelist: r.whitelist,
    api_keys: r.apiKeys.map((k) => ({ id: k.id, masked_key: k.maskedKey, created_at: isoMillis(k.createdAt), revoked_at: k.revokedAt === null ? null : isoMillis(k.revokedAt) })),
    catalogs: r.catalogs,
  });
  const walletChange = (r: Awaited<ReturnType<typeof wallet.credit>>) => ({
    reseller_id: r.resellerId, entry: present.ledgerEntry(r.entry), balance: present.money(r.entry.balanceAfter),
  });

  kit.route({
    method: 'GET', url: '/resellers', tag: 'Resellers', paged: true,
    summary: 'Search resellers (q: part of name or email; status and tier filters), newest first',
    query: Type.Object({
      q: Type.Optional(Type.String({ maxLength: 100 })), status: Type.Optional(StatusSchema), tier: Type.Optional(TierSchema), ...PageQueryProps,
    }, { additionalProperties: false }),
    response: Type.Object({ resellers: Type.Array(ResellerSummary) }),
    errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await resellers.search(query);
      return { data: { resellers: r.items.map(summary) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'POST', url: '/resellers', tag: 'Resellers',
    summary: 'Create a reseller: pending, or active when approve is true (API keys are issued separately)',
    body: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 100 }), email: Type.String({ minLength: 3, maxLength: 254 }),
      tier: Type.Optional(TierSchema), approve: Type.Optional(Type.Boolean({ description: 'approve at once (status active); default false' })),
      note: Type.Optional(Note),
    }, { additionalProperties: false }),
    response: ResellerDetail,
    errors: ['CONFLICT'],
    handler: async ({ body, who }) => ({ data: detail(await resellers.create(body, who.operatorId, body.note)) }),
  });

  kit.route({
    method: 'GET', url: '/resellers/:id', tag: 'Resellers',
    summary: 'One reseller: profile, tier, status, balance, callback URL, IP whitelist, masked API keys, catalogs',
    params: IdParams,
    response: ResellerDetail,
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ data: detail(await resellers.view(params.id)) }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/approve', tag: 'Resellers',
    summary: 'Approve a pending reseller with a tier (pending → active)',
    params: IdParams,
    body: Type.Object({ tier: TierSchema, note: Type.Optional(Note) }, { additionalProperties: false }),
    response: ResellerDetail,
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => ({ data: detail(await resellers.approve(params.id, body.tier, who.operatorId, body.note)) }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/tier', tag: 'Resellers',
    summary: "Change a reseller's tier (prices follow at once)",
    params: IdParams,
    body: Type.Object({ tier: TierSchema, note: Type.Optional(Note) }, { additionalProperties: false }),
    response: ResellerDetail,
    errors: ['NOT_FOUND'],
    handler: async ({ params, body, who }) => ({ data: detail(await resellers.setTier(params.id, body.tier, who.operatorId, body.note)) }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/suspend', tag: 'Resellers',
    summary: 'Suspend an active reseller: API v1 answers RESELLER_INACTIVE from the next request',
    params: IdParams,
    body: Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false }),
    response: ResellerDetail,
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => ({ data: detail(await resellers.suspend(params.id, who.operatorId, body.note)) }),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/reactivate', tag: 'Resellers',
    summary: 'Reactivate a suspended reseller (suspended → active)',
    params: IdParams,
    body: Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false }),
    response: ResellerDetail,
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, body, who }) => ({ data: detail(await resellers.reactivate(params.id, who.operatorId, body.note)) }),
  });

  const WalletBody = Type.Object({
    amount: Money('major units, greater than 0, at most the currency\'s decimals'),
    note: Type.String({ minLength: 1, maxLength: 500, description: 'required; the reseller sees it in wallet-history' }),
  }, { additionalProperties: false });

  kit.route({
    method: 'POST', url: '/resellers/:id/wallet/credit', tag: 'Wallet',
    summary: "Credit a reseller's wallet (a credit ledger entry with the note)",
    params: IdParams, body: WalletBody, response: WalletChange, idempotent: true, accepted: { response: ApprovalRequest, description: ACCEPTED_FOR_APPROVAL },
    errors: ['NOT_FOUND'],
    handler: ({ params, body, who, reply }) =>
      onceGated(deps.services.idempotency, who.operatorId, reply, body, (claim) => approvals.walletChange('credit', params.id, body.amount, body.note, who.operatorId, claim), walletChange, approvalRequest),
  });

  kit.route({
    method: 'POST', url: '/resellers/:id/wallet/debit', tag: 'Wallet',
    summary: "Debit a reseller's wallet (a debit ledger entry with the note); never below zero",
    params: IdParams, body: WalletBody, response: WalletChange, idempotent: true, accepted: { response: ApprovalRequest, description: ACCEPTED_FOR_APPROVAL },
    errors: ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
    handler: ({ params, body, who, reply }) =>
      onceGated(deps.services.idempotency, who.operatorId, reply, body, (claim) => approvals.walletChange('debit', params.id, body.amount, body.note, who.operatorId, claim), walletChange, approvalRequest),
  });

  kit.route({
    method: 'GET', url: '/resellers/:id/wallet-history', tag: 'Wallet', paged: true,
    summary: "A reseller's ledger, newest first, in the same shape as API v1 GET /wallet-history",
    params: IdParams,
    query: Type.Object({
      type: Type.Optional(Type.String({ description: 'order_debit, order_refund, credit, debit, or a comma-separated list' })),
      start_date: Type.Optional(Type.String()), end_date: Type.Optional(Type.String()), ...PageQueryProps,
    }, { additionalProperties: false }),
    response: Type.Object({ entries: Type.Array(LedgerEntry) }),
    errors: ['NOT_FOUND', 'INVALID_PAGINATION', 'INVALID_DATE_RANGE', 'DATE_RANGE_TOO_LARGE'],
    handler: async ({ params, query }) => {
      const r = await wallet.history(params.id, query);
      return { data: { entries: r.items.map(present.ledgerEntry) }, meta: pageMeta(r.total, r.page) };
    },
  });
}
