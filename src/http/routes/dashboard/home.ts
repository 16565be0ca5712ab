import { Type } from '@sinclair/typebox';
import { csvDocument } from '../../../domain/csv.js';
import { pageMeta } from '../../../domain/list-query.js';
import { PRICE_LIST_EXPORT_MAX } from '../../../services/account/price-list.js';
import { Category as CategoryShape, Order as OrderShape, Product as ProductShape } from '../../openapi/reseller-schemas.js';
import type { JsonApiKit } from '../../json-api.js';
import { Money, Nullable, PageQueryProps } from '../../schemas.js';
import type { DashboardApiDeps } from './index.js';

const DAY_MS = 86_400_000;
const Count = Type.Integer({ minimum: 0 });
const ProductFilterProps = {
  q: Type.Optional(Type.String({ description: 'search: product code or name contains this (any case)' })),
  category_slug: Type.Optional(Type.String({ description: 'only this game (slug from GET /categories)' })),
};

/** Home (overview), the price list and categories, and the Developers page's data. */
export function homeRoutes(kit: JsonApiKit<'dashboard'>, deps: DashboardApiDeps) {
  const { overview, priceList, developer } = deps.services;
  const { present } = deps;

  kit.route({
    method: 'GET', url: '/overview', tag: 'Home',
    summary: 'Balance, today\'s orders by state, spend per day for 30 days, the onboarding checklist and the 5 newest orders',
    description:
      'Days are UTC days (like the date filters). orders_today counts the orders placed today by their current state. ' +
      'spend_daily: the last 30 days, oldest first, today last, days without orders included; amount is what the orders placed that day ' +
      'kept (processing and success; failed and refunded orders gave their money back), orders is every order placed that day. ' +
      'Past days may lag by up to 5 minutes (they are kept per account); today is always current.',
    response: Type.Object({
      balance: Money(),
      currency: Type.String(),
      orders_today: Type.Object({ processing: Count, success: Count, failed: Count, refunded: Count }),
      spend_daily: Type.Array(Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' }), amount: Money(), orders: Count }), { minItems: 30, maxItems: 30 }),
      onboarding: Type.Object({
        approved: Type.Boolean({ description: 'the operator approved the account (status active)' }),
        api_key: Type.Boolean({ description: 'a live or expiring API key exists' }),
        ip_whitelisted: Type.Boolean({ description: 'at least one whitelisted IP' }),
        callback_url: Type.Boolean({ description: 'a callback URL is set' }),
      }),
      recent_orders: Type.Array(OrderShape, { maxItems: 5 }),
    }),
    handler: async ({ who }) => {
      const o = await overview.view(who);
      return {
        data: {
          balance: present.money(o.balance),
          currency: o.currency,
          orders_today: o.ordersToday,
          spend_daily: o.spendDaily.map((d) => ({ date: new Date(d.day * DAY_MS).toISOString().slice(0, 10), amount: present.money(d.amount), orders: d.orders })),
          onboarding: { approved: o.onboarding.approved, api_key: o.onboarding.apiKey, ip_whitelisted: o.onboarding.ipWhitelisted, callback_url: o.onboarding.callbackUrl },
          recent_orders: o.recentOrders.map(present.order),
        },
      };
    },
  });

  kit.route({
    method: 'GET', url: '/products', tag: 'Products', paged: true,
    summary: 'The account\'s price list (its tier\'s prices), as GET /api/v1/products, with search',
    query: Type.Object({ ...PageQueryProps, ...ProductFilterProps }, { additionalProperties: false }),
    response: Type.Object({ products: Type.Array(ProductShape) }),
    errors: ['INVALID_PAGINATION'],
    handler: async ({ who, query }) => {
      const r = await priceList.products(who, query);
      return { data: { products: r.items.map(present.product) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/products/export.csv', tag: 'Products', produces: 'csv',
    summary: 'The price list as CSV (same filters as GET /products)',
    description: `At most ${PRICE_LIST_EXPORT_MAX.toLocaleString('en')} products. Cells starting with = + - @ are prefixed with a quote (CSV injection).`,
    query: Type.Object(ProductFilterProps, { additionalProperties: false }),
    response: Type.String(),
    handler: async ({ who, query }) => {
      const products = (await priceList.exportProducts(who, query)).map(present.product);
      const rows = products.map((p) => [p.code, p.name, p.category_slug, p.category, p.price, p.status, p.type]);
      return { file: { filename: 'price-list.csv', body: csvDocument(['code', 'name', 'category_slug', 'category', 'price', 'status', 'type'], rows) } };
    },
  });

  kit.route({
    method: 'GET', url: '/categories', tag: 'Products',
    summary: 'The account\'s games and vouchers with their input forms, as GET /api/v1/categories',
    response: Type.Object({ categories: Type.Array(CategoryShape) }),
    handler: async ({ who }) => ({ data: { categories: (await priceList.categories(who)).map(present.category) } }),
  });

  kit.route({
    method: 'GET', url: '/developer', tag: 'Developers',
    summary: 'What the Developers page prefills its examples with: API v1 base URL, the newest live key (masked), the sandbox test accounts',
    description: 'Never a secret: the key is masked as in GET /api-keys. Any target not in sandbox_accounts passes the ID check and succeeds.',
    response: Type.Object({
      base_url: Type.String({ description: 'API v1 base URL, e.g. https://topup.example.com/api/v1 (PUBLIC_BASE_URL, else the request\'s origin)' }),
      key_id: Nullable(Type.String({ description: 'the newest live API key, masked; null without one' })),
      api_key_id: Nullable(Type.String({ description: 'that key\'s id (as in GET /api-keys)' })),
      sandbox_accounts: Type.Array(Type.Object({
        target: Type.String({ description: 'target (user id) to order for' }),
        check: Type.String({ description: 'the ID check\'s verdict: valid, INVALID_ID, REGION_LOCK, PURCHASE_LIMIT or no_answer' }),
        outcome: Type.Union([Type.Literal('refused'), Type.Literal('success'), Type.Literal('failed')], { description: 'for a game with the ID check: refused by POST /order (nothing charged), or how the order ends' }),
        failure_code: Nullable(Type.String({ description: 'the refusal\'s error code, or the failed order\'s failure_code' })),
        description: Type.String(),
      })),
    }),
    handler: async ({ who, reply }) => {
      const d = await developer.view(who);
      const origin = deps.browser.publicOrigin ?? `${reply.request.protocol}://${reply.request.host}`;
      return { data: { base_url: `${origin}/api/v1`, key_id: d.key?.masked ?? null, api_key_id: d.key?.id ?? null, sandbox_accounts: d.sandboxAccounts } };
    },
  });
}
