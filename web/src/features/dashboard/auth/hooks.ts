import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { callData, setCsrfToken } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';

export const SESSION_KEY = ['session'] as const;

/** The cookie session, asked of the API on load; its CSRF token is kept for later writes. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      const s = await callData(dashboardApi.GET('/auth/session'));
      setCsrfToken(s.csrf_token);
      return s;
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** After sign-in, registration or an accepted invitation: the new session is the current one. */
export function useStartSession() {
  const qc = useQueryClient();
  return (csrf: string) => {
    setCsrfToken(csrf);
    qc.clear();
  };
}

export function useSignOut() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => callData(dashboardApi.POST('/auth/sign-out')),
    onSettled: () => {
      setCsrfToken(null);
      qc.clear();
      navigate('/sign-in', { replace: true });
    },
  });
}
