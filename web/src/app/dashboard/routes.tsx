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
      { path: '*', Component: NotFound },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/dashboard' });
