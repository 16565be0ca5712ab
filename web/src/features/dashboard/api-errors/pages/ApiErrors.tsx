import { Card, Code, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useUrlFilters } from '../../../../shared/ui/useFilters.js';

export default function ApiErrors() {
  const { t, i18n } = useTranslation();
  const { page, setPage } = useUrlFilters([]);
  const list = useQuery({
    queryKey: ['api-errors', page],
    queryFn: () => call(dashboardApi.GET('/api-errors', { params: { query: { page: String(page), limit: '20' } } })),
    placeholderData: (prev) => prev,
  });
  return (
    <>
      <PageTitle>{t('apiErrors.title')}</PageTitle>
      <Text size="sm" mb="md">{t('apiErrors.intro')}</Text>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('apiErrors.title')}
          rows={list.data?.data.api_errors ?? []}
          rowKey={(r) => r.request_id}
          meta={list.data?.meta}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('apiErrors.time'), cell: (r) => formatDateTime(r.at, i18n.language) },
            { key: 'endpoint', header: t('apiErrors.endpoint'), cell: (r) => <Code>{`${r.method} ${r.path}`}</Code> },
            { key: 'status', header: t('apiErrors.status'), cell: (r) => r.http_status },
            { key: 'code', header: t('apiErrors.code'), cell: (r) => <Code>{r.error}</Code> },
            { key: 'message', header: t('apiErrors.message'), cell: (r) => r.message },
            { key: 'ip', header: t('apiErrors.ip'), cell: (r) => r.ip },
          ]}
        />
      </Card>
    </>
  );
}
