import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { adminApi } from '../../../shared/api/admin.js';
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
