import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { StatementView, useStatementRange } from '../../../../shared/statement/StatementView.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';

/** A reseller's statement, the same its dashboard shows. */
export default function ResellerStatement() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const { resellerId = '' } = useParams();
  const { filters } = useStatementRange();
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as { from?: string; to?: string };
  const statement = useQuery({
    queryKey: ['admin', 'reseller', resellerId, 'statement', query],
    queryFn: () => callData(adminApi.GET('/resellers/{id}/statement', { params: { path: { id: resellerId }, query } })),
  });
  const title = statement.data ? t('statement.titleFor', { name: statement.data.reseller_name }) : t('statement.title');
  return (
    <>
      {statement.error ? <ErrorAlert error={statement.error} /> : null}
      <StatementView data={statement.data} csvHref={`/admin/v1/resellers/${encodeURIComponent(resellerId)}/statement/export.csv`} money={money} title={title} />
    </>
  );
}
