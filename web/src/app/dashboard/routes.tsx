import { createBrowserRouter, type RouteObject } from 'react-router';
import { sectionRoutes } from '../../shared/layout/section-routes.js';
import { NotFound } from '../../shared/ui/QueryState.js';
import { DashboardFrame } from './DashboardFrame.js';
import { NAV } from './nav.js';

/** A page loaded only when visited: each is its own chunk (initial JS stays small). */
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  { path: '/sign-in', ...page(() => import('../../features/dashboard/auth/pages/SignIn.js')) },
  { path: '/register', ...page(() => import('../../features/dashboard/auth/pages/Register.js')) },
  { path: '/registered', ...page(() => import('../../features/dashboard/auth/pages/Registered.js')) },
  { path: '/accept-invitation', ...page(() => import('../../features/dashboard/auth/pages/AcceptInvitation.js')) },
  { path: '/forgot-password', ...page(() => import('../../features/dashboard/auth/pages/ForgotPassword.js')) },
  { path: '/reset-password', ...page(() => import('../../features/dashboard/auth/pages/ResetPassword.js')) },
  {
    path: '/',
    Component: DashboardFrame,
    children: [
      { index: true, ...page(() => import('../../features/dashboard/home/pages/Home.js')) },
      { path: 'orders', ...page(() => import('../../features/dashboard/orders/pages/Orders.js')) },
      { path: 'orders/:orderId', ...page(() => import('../../features/dashboard/orders/pages/OrderDetail.js')) },
      { path: 'wallet', ...page(() => import('../../features/dashboard/wallet/pages/Wallet.js')) },
      { path: 'wallet/top-up', ...page(() => import('../../features/dashboard/wallet/pages/TopUp.js')) },
      { path: 'settings/low-balance', ...page(() => import('../../features/dashboard/wallet/pages/LowBalanceSetting.js')) },
      { path: 'wallet/deposits/:depositId', ...page(() => import('../../features/dashboard/wallet/pages/GatewayDepositStatus.js')) },
      { path: 'wallet/statement', ...page(() => import('../../features/dashboard/wallet/pages/Statement.js')) },
      { path: 'products', ...page(() => import('../../features/dashboard/products/pages/Products.js')) },
      { path: 'settings/api-keys', ...page(() => import('../../features/dashboard/settings/pages/ApiKeys.js')) },
      { path: 'settings/ip-whitelist', ...page(() => import('../../features/dashboard/settings/pages/IpWhitelist.js')) },
      { path: 'settings/callback-url', ...page(() => import('../../features/dashboard/settings/pages/CallbackUrl.js')) },
      { path: 'settings/password', ...page(() => import('../../features/dashboard/settings/pages/ChangePassword.js')) },
      { path: 'settings/email', ...page(() => import('../../features/dashboard/settings/pages/Email.js')) },
      { path: 'settings/security', ...page(() => import('../../features/dashboard/settings/pages/Security.js')) },
      { path: 'developers', ...page(() => import('../../features/dashboard/developers/pages/Developers.js')) },
      { path: 'api-errors', ...page(() => import('../../features/dashboard/api-errors/pages/ApiErrors.js')) },
      ...sectionRoutes(NAV),
      { path: '*', Component: NotFound },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/dashboard' });
