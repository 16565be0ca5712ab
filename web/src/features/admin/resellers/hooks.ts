import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../../shared/api/admin.js';
import { call } from '../../../shared/api/client.js';

export const TIERS = ['gold', 'platinum', 'diamond'] as const;
export type Tier = (typeof TIERS)[number];
type Status = 'pending' | 'active' | 'suspended';

/** One server-side page of the reseller search. */
export function useResellerSearch(q: { q?: string; status?: string; tier?: string; page: number }) {
  return useQuery({
    queryKey: ['admin', 'resellers', q],
    queryFn: () => call(adminApi.GET('/resellers', {
      params: { query: { q: q.q || undefined, status: (q.status || undefined) as Status | undefined, tier: (q.tier || undefined) as Tier | undefined, page: String(q.page), limit: '20' } },
    })),
  });
}
