import { useQuery } from '@tanstack/react-query';
import { callData } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';

export const useOverview = () => useQuery({ queryKey: ['overview'], queryFn: () => callData(dashboardApi.GET('/overview')) });
