import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { adminApi, type AdminPaths } from '../../../shared/api/admin.js';
import { callData, setCsrfToken } from '../../../shared/api/client.js';

export const ADMIN_SESSION_KEY = ['admin-session'] as const;

/** The operator's cookie session, asked of the API on load; its CSRF token is kept for later writes. */
export function useOperatorSession() {
  return useQuery({
    queryKey: ADMIN_SESSION_KEY,
    queryFn: async () => {
      const s = await callData(adminApi.GET('/auth/session'));
      setCsrfToken(s.csrf_token);
      return s;
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** After sign-in: the new session is the current one. */
export function useStartOperatorSession() {
  const qc = useQueryClient();
  return (csrf: string) => {
    setCsrfToken(csrf);
    qc.clear();
  };
}

/** Reads the session again (after enrolling, the console's other pages open). */
export function useRefreshOperatorSession() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ADMIN_SESSION_KEY });
}

export function useOperatorSignOut() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => callData(adminApi.POST('/auth/sign-out')),
    onSettled: () => {
      setCsrfToken(null);
      qc.clear();
      navigate('/sign-in', { replace: true });
    },
  });
}

type SessionData = AdminPaths['/auth/session']['get']['responses'][200]['content']['application/json']['data'];
/** A permission of the API's roles table (GET /roles): the console names them, the API decides who holds them. */
export type Permission = SessionData['permissions'][number];

/** Whether the signed-in operator may do what needs `permission`, from the session's own permissions (the API's answer). */
export function useCan() {
  const session = useOperatorSession();
  return (permission: Permission) => session.data?.permissions.includes(permission) ?? false;
}

/** The API's roles table: which roles hold each permission (to say who may, when this operator may not). */
export function useRolesTable() {
  return useQuery({ queryKey: ['admin', 'roles'], queryFn: () => callData(adminApi.GET('/roles')), staleTime: Infinity });
}
