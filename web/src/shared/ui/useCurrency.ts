import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callData } from '../api/client.js';
import { dashboardApi } from '../api/dashboard.js';
import { formatMoney } from '../format/money.js';

export const useProfile = () => useQuery({ queryKey: ['me'], queryFn: () => callData(dashboardApi.GET('/me')) });

/** Formats amounts in the account's currency and the viewer's language. */
export function useMoney() {
  const me = useProfile();
  const { i18n } = useTranslation();
  const currency = me.data?.currency ?? 'IDR';
  return (amount: number | string) => formatMoney(amount, currency, i18n.language);
}
