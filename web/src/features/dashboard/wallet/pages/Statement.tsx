import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { StatementView, useStatementRange } from '../../../../shared/statement/StatementView.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useMoney } from '../../../../shared/ui/useCurrency.js';

/** Wallet → Statements: the account's statement for a range (this month by default), printable and as CSV. */
export default function Statement() {
  const { t } = useTranslation();
  const money = useMoney();
  const { filters } = useStatementRange();
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as { from?: string; to?: string };
  const statement = useQuery({ queryKey: ['wallet-statement', query], queryFn: () => callData(dashboardApi.GET('/wallet/statement', { params: { query } })) });
  return (
    <>
      {statement.error ? <ErrorAlert error={statement.error} /> : null}
      <StatementView data={statement.data} csvHref="/dashboard/v1/wallet/statement/export.csv" money={money} title={t('statement.title')} />
    </>
  );
}
