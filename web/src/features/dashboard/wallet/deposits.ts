import { useQuery } from '@tanstack/react-query';
import { callData } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';

/** The balance against the reseller's low-balance threshold (the banner and the setting read it). */
export const useLowBalance = () => useQuery({ queryKey: ['low-balance'], queryFn: () => callData(dashboardApi.GET('/low-balance')) });

/** "2h 05m" / "4m 09s": what is left until `iso`, for the ticket's countdown. */
export function timeLeft(iso: string, now: number): string | null {
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return null;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(s % 60).padStart(2, '0')}s`;
}
