/**
 * Who may do what on the operator API: the one table. Each /admin/v1 route names one
 * permission, each permission the roles that hold it. The server's check, the OpenAPI
 * document (x-roles), the session's answer and docs/operator-api.md all read it from here;
 * a route that is not in OPERATOR_ROUTES fails the server's start.
 */

export const OPERATOR_ROLES = ['owner', 'finance', 'support', 'catalog', 'viewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const ROLE_DESCRIPTIONS: Record<OperatorRole, string> = {
  owner: 'everything, including operators and their roles',
  finance: 'wallets, deposits, refunds and reports',
  support: 'reads everything; resends callbacks; acts for a reseller on API keys, whitelist and callback URL; no money',
  catalog: 'categories, products, catalogs, prices, margins and supply',
  viewer: 'reads only',
};

const ALL = OPERATOR_ROLES;

/** What a role may do: a permission is held by exactly the roles listed. */
export const PERMISSIONS = {
  session: { roles: ALL, description: 'their own session, profile and password' },
  read: { roles: ALL, description: 'read everything (lists, details, reports, exports, the audit log)' },
  'operators.manage': { roles: ['owner'], description: 'add operators, reset their passwords, set their roles' },
  'wallet.adjust': { roles: ['owner', 'finance'], description: "credit or debit a reseller's wallet" },
  'orders.refund': { roles: ['owner', 'finance'], description: 'refund an order by hand' },
  'callbacks.resend': { roles: ['owner', 'support'], description: "resend an order's callback" },
  'messages.resend': { roles: ['owner', 'support'], description: 'send an email of the outbox again' },
  'resellers.integration': { roles: ['owner', 'support'], description: "act for a reseller on its API keys, IP whitelist and callback URL" },
  'resellers.accounts': { roles: ['owner', 'support'], description: 'create, approve, suspend and reactivate resellers; invite them to the dashboard' },
  'resellers.pricing': { roles: ['owner', 'catalog'], description: "a reseller's tier and catalogs" },
  'catalog.manage': { roles: ['owner', 'catalog'], description: 'categories, products, catalogs, prices, margin rules and imports' },
  'supply.manage': { roles: ['owner', 'catalog'], description: 'suppliers, routes, syncs, sandbox switches and supply refresh' },
  'approvals.decide': { roles: ['owner', 'finance', 'catalog'], description: "four-eyes: approve or reject another operator's request whose action their roles may do (never their own); cancel their own" },
  'payments.manage': { roles: ['owner', 'finance'], description: 'payment gateway settings (Midtrans keys, environment) and payment methods with their fees' },
  'attention.resolve': { roles: ['owner', 'catalog'], description: 'resolve attention items (prices a sync found below cost)' },
  'deposits.manage': { roles: ['owner', 'finance'], description: 'bank accounts and deposit settings; mark deposits paid, import statements, assign or close unmatched money' },
} as const satisfies Record<string, { roles: readonly OperatorRole[]; description: string }>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/**
 * Every /admin/v1 route ("METHOD /path", path after the prefix, parameters as {name}) and the
 * permission it needs. Public routes (sign-in, the OpenAPI document) need none and are not here.
 */
export const OPERATOR_ROUTES: Record<string, Permission> = {
  'GET /auth/session': 'session',
  'POST /auth/sign-out': 'session',
  'GET /auth/two-factor': 'session',
  'POST /auth/two-factor/enrolment': 'session',
  'POST /auth/two-factor/enrolment/confirm': 'session',
  'POST /auth/two-factor/recovery-codes': 'session',
  'POST /auth/two-factor/disable': 'session',
  'GET /auth/sessions': 'session',
  'DELETE /auth/sessions/{id}': 'session',
  'GET /auth/sign-ins': 'session',
  'GET /me': 'session',
  'POST /me/password': 'session',
  'GET /me/language': 'session',
  'PUT /me/language': 'session',
  'GET /me/notifications': 'session',
  'PUT /me/notifications': 'session',
  'GET /roles': 'session',

  'GET /operators': 'read',
  'POST /operators': 'operators.manage',
  'POST /operators/{id}/reset-password': 'operators.manage',
  'PUT /operators/{id}/roles': 'operators.manage',
  'GET /operators/{id}/sessions': 'operators.manage',
  'DELETE /operators/{id}/sessions': 'operators.manage',

  'GET /overview': 'read',
  'GET /reports/profit': 'read',
  'GET /reports/profit/export.csv': 'read',
  'GET /audit': 'read',
  'GET /messages': 'read',
  'GET /messages/{id}': 'read',
  'POST /messages/{id}/resend': 'messages.resend',
  'GET /payment-gateway': 'read',
  'PUT /payment-gateway': 'payments.manage',
  'GET /payment-methods': 'read',
  'PUT /payment-methods/{code}': 'payments.manage',
  'GET /gateway-payments': 'read',
  'GET /gateway-payments/unmatched-notifications': 'read',
  'GET /gateway-payments/{id}': 'read',
  'POST /gateway-payments/{id}/reverse': 'wallet.adjust',
  'GET /attention-items': 'read',
  'GET /approvals': 'read',
  'GET /approvals/{id}': 'read',
  'POST /approvals/{id}/approve': 'approvals.decide',
  'POST /approvals/{id}/reject': 'approvals.decide',
  'POST /approvals/{id}/cancel': 'approvals.decide',
  'POST /attention-items/{id}/resolve': 'attention.resolve',

  'GET /bank-accounts': 'read',
  'POST /bank-accounts': 'deposits.manage',
  'PUT /bank-accounts/{id}': 'deposits.manage',
  'PUT /bank-accounts/{id}/statement-mapping': 'deposits.manage',
  'POST /bank-accounts/{id}/statement/preview': 'deposits.manage',
  'POST /bank-accounts/{id}/statement/apply': 'deposits.manage',
  'GET /deposit-settings': 'read',
  'PUT /deposit-settings': 'deposits.manage',
  'PUT /deposit-settings/webhook-secret': 'deposits.manage',
  'GET /deposits': 'read',
  'GET /deposits/summary': 'read',
  'POST /deposits/{id}/mark-paid': 'deposits.manage',
  'GET /bank-mutations': 'read',
  'POST /bank-mutations/{id}/assign': 'deposits.manage',
  'POST /bank-mutations/{id}/handle': 'deposits.manage',

  'GET /resellers': 'read',
  'GET /resellers/{id}': 'read',
  'GET /resellers/{id}/wallet-history': 'read',
  'GET /resellers/{id}/statement': 'read',
  'GET /resellers/{id}/statement/export.csv': 'read',
  'POST /resellers/{id}/wallet/credit': 'wallet.adjust',
  'POST /resellers/{id}/wallet/debit': 'wallet.adjust',
  'POST /resellers': 'resellers.accounts',
  'POST /resellers/{id}/approve': 'resellers.accounts',
  'POST /resellers/{id}/suspend': 'resellers.accounts',
  'POST /resellers/{id}/reactivate': 'resellers.accounts',
  'GET /resellers/{id}/invitations': 'read',
  'POST /resellers/{id}/invitations': 'resellers.accounts',
  'DELETE /resellers/{id}/invitations/{invitationId}': 'resellers.accounts',
  'POST /resellers/{id}/tier': 'resellers.pricing',
  'POST /resellers/{id}/catalogs/{catalogId}': 'resellers.pricing',
  'DELETE /resellers/{id}/catalogs/{catalogId}': 'resellers.pricing',
  'GET /resellers/{id}/api-keys': 'read',
  'POST /resellers/{id}/api-keys': 'resellers.integration',
  'DELETE /resellers/{id}/api-keys/{keyId}': 'resellers.integration',
  'GET /resellers/{id}/whitelist': 'read',
  'POST /resellers/{id}/whitelist': 'resellers.integration',
  'DELETE /resellers/{id}/whitelist/{ip}': 'resellers.integration',
  'PUT /resellers/{id}/callback-url': 'resellers.integration',

  'GET /orders': 'read',
  'GET /orders/{id}': 'read',
  'POST /orders/{id}/refund': 'orders.refund',
  'POST /orders/{id}/resend-callback': 'callbacks.resend',

  'GET /categories': 'read',
  'POST /categories': 'catalog.manage',
  'PATCH /categories/{slug}': 'catalog.manage',
  'GET /products': 'read',
  'POST /products': 'catalog.manage',
  'PATCH /products/{code}': 'catalog.manage',
  'GET /catalogs': 'read',
  'POST /catalogs': 'catalog.manage',
  'GET /catalogs/{id}': 'read',
  'PUT /catalogs/{id}/prices': 'catalog.manage',
  'DELETE /catalogs/{id}/prices/{code}/{tier}': 'catalog.manage',
  'GET /margin-rules': 'read',
  'POST /margin-rules': 'catalog.manage',
  'PUT /margin-rules/{id}': 'catalog.manage',
  'DELETE /margin-rules/{id}': 'catalog.manage',
  'POST /imports/preview': 'catalog.manage',
  'POST /imports/apply': 'catalog.manage',

  'GET /suppliers': 'read',
  'POST /suppliers': 'supply.manage',
  'PATCH /suppliers/{id}': 'supply.manage',
  'PUT /suppliers/{id}/credentials': 'supply.manage',
  'POST /suppliers/{id}/breaker/reset': 'supply.manage',
  'POST /suppliers/{id}/sync': 'supply.manage',
  'GET /suppliers/{id}/skus': 'read',
  'GET /routes': 'read',
  'POST /routes': 'supply.manage',
  'PATCH /routes/{id}': 'supply.manage',
  'DELETE /routes/{id}': 'supply.manage',
  'GET /sandbox': 'read',
  'PUT /sandbox': 'supply.manage',
  'PUT /sandbox/products/{code}/out-of-stock': 'supply.manage',
  'DELETE /sandbox/products/{code}/out-of-stock': 'supply.manage',
  'PUT /sandbox/skus/{sku}/out-of-stock': 'supply.manage',
  'DELETE /sandbox/skus/{sku}/out-of-stock': 'supply.manage',
  'PUT /sandbox/products/{code}/broken-availability': 'supply.manage',
  'DELETE /sandbox/products/{code}/broken-availability': 'supply.manage',
  'PUT /sandbox/skus/{sku}/broken-availability': 'supply.manage',
  'DELETE /sandbox/skus/{sku}/broken-availability': 'supply.manage',
  'POST /supply/refresh': 'supply.manage',
  'GET /supply/status': 'read',
};

export const isOperatorRole = (v: string): v is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(v);

/** The permission a route needs; throws for a route nobody put in the table (the server then does not start). */
export function permissionOf(route: string): Permission {
  const p = OPERATOR_ROUTES[route];
  if (!p) throw new Error(`operator route ${route} has no entry in OPERATOR_ROUTES (src/domain/operator-roles.ts): say which permission it needs`);
  return p;
}

export const rolesFor = (permission: Permission): readonly OperatorRole[] => PERMISSIONS[permission].roles;

export const mayDo = (roles: readonly OperatorRole[], permission: Permission) => roles.some((r) => (rolesFor(permission) as readonly string[]).includes(r));

/** Every permission the roles hold, in the table's order. */
export const permissionsOf = (roles: readonly OperatorRole[]): Permission[] => PERMISSION_NAMES.filter((p) => mayDo(roles, p));

/** "owner or finance": for messages and docs. */
export const roleList = (roles: readonly OperatorRole[]) =>
  roles.length <= 1 ? (roles[0] ?? '') : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;

/**
 * A set of roles as given (API body, CLI argument): known names, at least one, no repeats
 * (returned in the table's order), or the reason it is not acceptable.
 */
export function parseRoles(input: readonly string[]): { roles: OperatorRole[] } | { error: string } {
  const names = input.map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  if (names.length === 0) return { error: `give at least one role (${OPERATOR_ROLES.join(', ')})` };
  const unknown = names.filter((n) => !isOperatorRole(n));
  if (unknown.length > 0) return { error: `unknown role ${unknown.map((u) => `"${u.slice(0, 40)}"`).join(', ')}; the roles are ${OPERATOR_ROLES.join(', ')}` };
  return { roles: OPERATOR_ROLES.filter((r) => names.includes(r)) };
}
