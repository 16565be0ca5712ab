import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callData, call } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';
import type { PageQuery } from '../../../shared/table/usePagedList.js';

export const ORDER_FILTERS = ['status', 'start_date', 'end_date', 'product_code', 'ref_id'] as const;

/** One server-side page of the reseller's orders. */
export const fetchOrders = (query: PageQuery) => call(dashboardApi.GET('/orders', { params: { query } }));

export const useOrder = (id: string) =>
  useQuery({ queryKey: ['order', id], queryFn: () => callData(dashboardApi.GET('/orders/{id}', { params: { path: { id } } })) });

export function useResendCallback(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callData(dashboardApi.POST('/orders/{id}/resend-callback', { params: { path: { id } }, body: {} })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['order', id] }),
  });
}
