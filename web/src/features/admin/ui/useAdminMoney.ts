import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { formatMoney } from '../../../shared/format/money.js';

export const useOperatorMe = () => useQuery({ queryKey: ['admin', 'me'], queryFn: () => callData(adminApi.GET('/me')), staleTime: Infinity });

/** Formats amounts in the platform's currency (GET /me) and the viewer's language. */
export function useAdminMoney() {
  const me = useOperatorMe();
  const { i18n } = useTranslation();
  const currency = me.data?.currency ?? 'IDR';
  const format = (amount: number | string) => formatMoney(amount, currency, i18n.language);
  return Object.assign(format, { currency });
}

/** A fresh Idempotency-Key for one confirmed money action (a retried click sends the same one). */
export const newIdempotencyKey = () => crypto.randomUUID();
