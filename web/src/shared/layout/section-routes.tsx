import { Navigate, type RouteObject } from 'react-router';
import type { NavItem } from './AppLayout.js';

/**
 * A route for each menu section's own address (`/settings`, `/catalog`) that opens its
 * first page, so every address the menu links to opens something when loaded directly.
 */
export function sectionRoutes(nav: readonly NavItem[]): RouteObject[] {
  return nav.flatMap((item) => {
    const first = item.children?.[0];
    if (!first) return [];
    return [{ path: item.to.replace(/^\//, ''), element: <Navigate to={first.to} replace /> }, ...sectionRoutes(item.children!)];
  });
}
