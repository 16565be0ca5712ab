import type { NavItem } from '../../shared/layout/AppLayout.js';

export const NAV: NavItem[] = [
  { to: '/', label: 'nav.home' },
  { to: '/orders', label: 'nav.orders' },
  { to: '/wallet', label: 'nav.wallet' },
  { to: '/products', label: 'nav.products' },
  {
    to: '/settings',
    label: 'nav.settings',
    children: [
      { to: '/settings/api-keys', label: 'nav.apiKeys' },
      { to: '/settings/ip-whitelist', label: 'nav.ipWhitelist' },
      { to: '/settings/callback-url', label: 'nav.callbackUrl' },
      { to: '/settings/password', label: 'nav.password' },
      { to: '/settings/email', label: 'nav.email' },
      { to: '/settings/low-balance', label: 'nav.lowBalance' },
      { to: '/settings/security', label: 'nav.security' },
    ],
  },
  { to: '/developers', label: 'nav.developers' },
  { to: '/api-errors', label: 'nav.apiErrors' },
];
