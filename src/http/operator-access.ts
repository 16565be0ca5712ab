import { mayDo, permissionOf, rolesFor, roleList, type OperatorRole, type Permission } from '../domain/operator-roles.js';
import { AppError } from '../errors.js';
import type { OperatorPrincipal } from '../services/sessions.js';

/** What one operator route needs, from the table in domain/operator-roles.ts. */
export interface RouteAccess {
  permission: Permission;
  roles: readonly OperatorRole[];
}

/** The access of an /admin/v1 route ("METHOD /path" after the prefix); a route missing from the table throws (no start). */
export function operatorRouteAccess(route: string): RouteAccess {
  const permission = permissionOf(route);
  return { permission, roles: rolesFor(permission) };
}

/** Refuses an operator whose roles do not hold the route's permission: 403 FORBIDDEN_ROLE naming who may. */
export function assertMay(who: OperatorPrincipal, access: RouteAccess) {
  if (mayDo(who.roles, access.permission)) return;
  const yours = who.roles.length > 0 ? who.roles.join(', ') : 'none';
  throw new AppError('FORBIDDEN_ROLE', `this needs the role ${roleList(rolesFor(access.permission))} (permission ${access.permission}); your roles: ${yours}. An owner can change roles.`);
}
