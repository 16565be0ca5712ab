import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callData, call } from '../../shared/api/client.js';
import { dashboardApi } from '../../shared/api/dashboard.js';

export const ORDER_FILTERS = ['status', 'start_date', 'end_date', 'product_code', 'ref_id'] as const;
export type OrderFilters = Record<(typeof ORDER_FILTERS)[number], string>;

export function useOrders(filters: OrderFilters, page: number) {
  const query = Object.fromEntries(Object.entries({ ...filters, page: String(page), limit: '20' }).filter(([, v]) => v));
  return useQuery({
    queryKey: ['orders', query],
    queryFn: () => call(dashboardApi.GET('/orders', { params: { query } })),
    placeholderData: (prev) => prev,
  });
}

export const useOrder = (id: string) =>
  useQuery({ queryKey: ['order', id], queryFn: () => callData(dashboardApi.GET('/orders/{id}', { params: { path: { id } } })) });

export function useResendCallback(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callData(dashboardApi.POST('/orders/{id}/resend-callback', { params: { path: { id } }, body: {} })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['order', id] }),
  });
}
