import type { Permission } from '../../features/admin/auth/hooks.js';
import type { NavItem } from '../../shared/layout/AppLayout.js';

/** A console entry; one with a permission is shown only to operators whose session holds it. */
export type AdminNavItem = NavItem & { permission?: Permission; children?: AdminNavItem[] };

export const NAV: AdminNavItem[] = [
  { to: '/', label: 'nav.home' },
  { to: '/approvals', label: 'nav.approvals', permission: 'resellers.accounts' },
  { to: '/resellers', label: 'nav.resellers' },
  { to: '/orders', label: 'nav.orders' },
  { to: '/attention', label: 'nav.attention' },
  { to: '/deposits', label: 'nav.deposits' },
  { to: '/deposit-settings', label: 'nav.depositSettings' },
  {
    to: '/catalog',
    label: 'nav.catalog',
    children: [
      { to: '/catalog/categories', label: 'nav.categories' },
      { to: '/catalog/products', label: 'nav.products' },
      { to: '/catalog/catalogs', label: 'nav.catalogs' },
    ],
  },
  { to: '/supply', label: 'nav.supply' },
  { to: '/four-eyes', label: 'nav.fourEyes' },
  { to: '/reports', label: 'nav.reports' },
  { to: '/audit', label: 'nav.audit' },
  { to: '/messages', label: 'nav.messages' },
  { to: '/payment-gateway', label: 'nav.paymentGateway' },
  { to: '/operators', label: 'nav.operators' },
  { to: '/account', label: 'nav.account' },
  { to: '/security', label: 'nav.security' },
];

/** The entries the session may use (the API's permissions decide; the console keeps no rule of its own). */
export const navFor = (can: (p: Permission) => boolean, items: AdminNavItem[] = NAV): NavItem[] =>
  items.filter((i) => !i.permission || can(i.permission)).map((i) => (i.children ? { ...i, children: navFor(can, i.children) } : i));
