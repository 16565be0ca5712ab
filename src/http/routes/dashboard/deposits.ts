import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { toMajor } from '../../../domain/money.js';
import { accountMap, BankAccountView, DepositView, presentAccount, presentDeposit } from '../../deposit-views.js';
import type { JsonApiKit } from '../../json-api.js';
import { IdParams, Money, Nullable, PageQueryProps } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;

/** Deposits by bank transfer (issue 36) and the low-balance threshold, for the signed-in reseller. */
export function depositRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const svc = deps.services.bankTickets;
  const m = (v: number | null) => (v === null ? null : toMajor(v, svc.decimals));
  const present = async (d: Parameters<typeof presentDeposit>[0]) => presentDeposit(d, svc.decimals, accountMap(await svc.accounts()));

  kit.route({
    method: 'GET', url: '/deposits/options', tag: 'Deposits', summary: 'What a deposit request may ask: the bank accounts, the amount bounds, what is left of today\'s limit',
    response: Type.Object({
      bank_accounts: Type.Array(BankAccountView), min_amount: Money(), max_amount: Money(), ticket_hours: Type.Integer(),
      daily_cap: Nullable(Money()), remaining_today: Nullable(Money()),
    }),
    handler: async ({ who }) => {
      const o = await svc.options(who);
      return { data: { bank_accounts: o.accounts.map(presentAccount), min_amount: m(o.settings.minAmount)!, max_amount: m(o.settings.maxAmount)!, ticket_hours: o.settings.ticketHours, daily_cap: m(o.settings.dailyCap), remaining_today: m(o.remainingToday) } };
    },
  });
  kit.route({
    method: 'POST', url: '/deposits', tag: 'Deposits',
    summary: 'Ask for a deposit by bank transfer: answers the exact amount to transfer (amount + unique code), the note to write, the account and the expiry',
    body: Type.Object({
      amount: Money('what you want in your wallet'), bank_account_id: Type.String({ minLength: 1, maxLength: 100 }),
      sender_name: Type.String({ maxLength: 100, description: 'the name on the account you pay from' }),
    }, strict),
    response: DepositView, errors: ['INVALID_STATE'],
    handler: async ({ who, body }) => ({ data: await present(await svc.create(who, body)) }),
  });
  kit.route({
    method: 'GET', url: '/deposits', tag: 'Deposits', paged: true, summary: 'Your deposits, newest first (state: open, review, paid, expired, cancelled…; channel)',
    query: Type.Object({ state: Type.Optional(Type.String()), channel: Type.Optional(Type.String()), ...PageQueryProps }, strict),
    response: Type.Object({ deposits: Type.Array(DepositView) }), errors: ['INVALID_PAGINATION'],
    handler: async ({ who, query }) => {
      const r = await svc.list(who, query);
      const acc = accountMap(await svc.accounts());
      return { data: { deposits: r.items.map((d) => presentDeposit(d, svc.decimals, acc)) }, meta: pageMeta(r.total, r.page) };
    },
  });
  kit.route({
    method: 'GET', url: '/deposits/:id', tag: 'Deposits', summary: 'One of your deposits', params: IdParams, response: DepositView, errors: ['NOT_FOUND'],
    handler: async ({ who, params }) => ({ data: await present(await svc.get(who, params.id)) }),
  });
  kit.route({
    method: 'POST', url: '/deposits/:id/cancel', tag: 'Deposits', summary: 'Cancel an open ticket (do not transfer after this)',
    params: IdParams, body: Type.Object({}, strict), response: DepositView, errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ who, params }) => ({ data: await present(await svc.cancel(who, params.id)) }),
  });

  const LowBalance = Type.Object({ threshold: Nullable(Money()), balance: Money(), below: Type.Boolean({ description: 'the balance is under the threshold: show the top-up banner' }) });
  const lb = (r: { threshold: number | null; balance: number; below: boolean }) => ({ threshold: m(r.threshold), balance: m(r.balance)!, below: r.below });
  kit.route({
    method: 'GET', url: '/low-balance', tag: 'Deposits', summary: 'Your low-balance threshold and whether the balance is below it',
    response: LowBalance, handler: async ({ who }) => ({ data: lb(await svc.lowBalance(who)) }),
  });
  kit.route({
    method: 'PUT', url: '/low-balance', tag: 'Deposits', summary: 'Set the low-balance threshold (null: no banner)',
    body: Type.Object({ threshold: Nullable(Money()) }, strict), response: LowBalance,
    handler: async ({ who, body }) => ({ data: lb(await svc.setLowBalance(who, body.threshold)) }),
  });
}
