import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFound } from '../../shared/ui/QueryState.js';
import { DashboardFrame } from './DashboardFrame.js';

/** A page loaded only when visited: each is its own chunk (initial JS stays small). */
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  { path: '/sign-in', ...page(() => import('../../features/auth/pages/SignIn.js')) },
  { path: '/register', ...page(() => import('../../features/auth/pages/Register.js')) },
  { path: '/registered', ...page(() => import('../../features/auth/pages/Registered.js')) },
  { path: '/accept-invitation', ...page(() => import('../../features/auth/pages/AcceptInvitation.js')) },
  {
    path: '/',
    Component: DashboardFrame,
    children: [
      { index: true, ...page(() => import('../../features/home/pages/Home.js')) },
      { path: 'orders', ...page(() => import('../../features/orders/pages/Orders.js')) },
      { path: 'orders/:orderId', ...page(() => import('../../features/orders/pages/OrderDetail.js')) },
      { path: 'wallet', ...page(() => import('../../features/wallet/pages/Wallet.js')) },
      { path: 'products', ...page(() => import('../../features/products/pages/Products.js')) },
      { path: 'settings/api-keys', ...page(() => import('../../features/settings/pages/ApiKeys.js')) },
      { path: 'settings/ip-whitelist', ...page(() => import('../../features/settings/pages/IpWhitelist.js')) },
      { path: 'settings/callback-url', ...page(() => import('../../features/settings/pages/CallbackUrl.js')) },
      { path: 'settings/password', ...page(() => import('../../features/settings/pages/ChangePassword.js')) },
      { path: 'developers', ...page(() => import('../../features/developers/pages/Developers.js')) },
      { path: 'api-errors', ...page(() => import('../../features/api-errors/pages/ApiErrors.js')) },
      { path: '*', Component: NotFound },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/dashboard' });
