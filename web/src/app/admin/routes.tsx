import { createBrowserRouter, type RouteObject } from 'react-router';
import type { Permission } from '../../features/admin/auth/hooks.js';
import { Permitted } from '../../features/admin/auth/Permitted.js';
import { sectionRoutes } from '../../shared/layout/section-routes.js';
import { NotFound } from '../../shared/ui/QueryState.js';
import { AdminFrame } from './AdminFrame.js';
import { NAV } from './nav.js';

/**
 * A page loaded only when visited: each is its own chunk. A page for one permission tells an
 * operator without it why it is not available (reached by a link or typed URL).
 */
const page = (load: () => Promise<{ default: React.ComponentType }>, permission?: Permission): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const Page = (await load()).default;
    return { Component: permission ? () => <Permitted permission={permission}><Page /></Permitted> : Page };
  },
});

export const routes: RouteObject[] = [
  { path: '/sign-in', ...page(() => import('../../features/admin/auth/pages/SignIn.js')) },
  { path: '/forgot-password', ...page(() => import('../../features/admin/auth/pages/ForgotPassword.js')) },
  { path: '/reset-password', ...page(() => import('../../features/admin/auth/pages/ResetPassword.js')) },
  {
    path: '/',
    Component: AdminFrame,
    children: [
      { index: true, ...page(() => import('../../features/admin/home/pages/Home.js')) },
      { path: 'resellers', ...page(() => import('../../features/admin/resellers/pages/Resellers.js')) },
      { path: 'approvals', ...page(() => import('../../features/admin/resellers/pages/Approvals.js'), 'resellers.accounts') },
      { path: 'resellers/:resellerId', ...page(() => import('../../features/admin/resellers/pages/ResellerDetail.js')) },
      { path: 'resellers/:resellerId/statement', ...page(() => import('../../features/admin/resellers/pages/ResellerStatement.js')) },
      { path: 'resellers/:resellerId/wallet', ...page(() => import('../../features/admin/resellers/pages/ResellerWallet.js')) },
      { path: 'orders', ...page(() => import('../../features/admin/orders/pages/Orders.js')) },
      { path: 'attention', ...page(() => import('../../features/admin/orders/pages/Attention.js')) },
      { path: 'orders/:orderId', ...page(() => import('../../features/admin/orders/pages/OrderDetail.js')) },
      { path: 'catalog/categories', ...page(() => import('../../features/admin/catalog/pages/Categories.js')) },
      { path: 'catalog/products', ...page(() => import('../../features/admin/catalog/pages/Products.js')) },
      { path: 'catalog/catalogs', ...page(() => import('../../features/admin/catalog/pages/Catalogs.js')) },
      { path: 'catalog/catalogs/:catalogId', ...page(() => import('../../features/admin/catalog/pages/CatalogPrices.js')) },
      { path: 'supply', ...page(() => import('../../features/admin/supply/pages/Supply.js')) },
      { path: 'supply/import', ...page(() => import('../../features/admin/supply/pages/Import.js'), 'catalog.manage') },
      { path: 'deposits', ...page(() => import('../../features/admin/deposits/pages/Deposits.js')) },
      { path: 'deposit-settings', ...page(() => import('../../features/admin/deposits/pages/DepositSettings.js')) },
      { path: 'reports', ...page(() => import('../../features/admin/reports/pages/Reports.js')) },
      { path: 'audit', ...page(() => import('../../features/admin/audit/pages/Audit.js')) },
      { path: 'four-eyes', ...page(() => import('../../features/admin/approvals/pages/Approvals.js')) },
      { path: 'messages', ...page(() => import('../../features/admin/messages/pages/Messages.js')) },
      { path: 'payment-gateway', ...page(() => import('../../features/admin/deposits/pages/GatewayPage.js')) },
      { path: 'operators', ...page(() => import('../../features/admin/auth/pages/Operators.js')) },
      { path: 'account', ...page(() => import('../../features/admin/auth/pages/Account.js')) },
      { path: 'security', ...page(() => import('../../features/admin/auth/pages/Security.js')) },
      ...sectionRoutes(NAV),
      { path: '*', Component: NotFound },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/admin' });
