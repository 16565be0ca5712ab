import type { NavItem } from '../../shared/layout/AppLayout.js';

export const NAV: NavItem[] = [
  { to: '/', label: 'nav.home' },
  { to: '/approvals', label: 'nav.approvals' },
  { to: '/resellers', label: 'nav.resellers' },
  { to: '/orders', label: 'nav.orders' },
  { to: '/attention', label: 'nav.attention' },
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
  { to: '/audit', label: 'nav.audit' },
  { to: '/messages', label: 'nav.messages' },
  { to: '/operators', label: 'nav.operators' },
  { to: '/account', label: 'nav.account' },
];
