import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';

/** Open attention items besides orders (e.g. a price-list sync repriced a product or took a route out of service). */
export function AttentionItemsCard() {
  const { t, i18n } = useTranslation();
  const may = useCan()('attention.resolve');
  const qc = useQueryClient();
  const items = useQuery({ queryKey: ['admin', 'attention-items'], queryFn: () => callData(adminApi.GET('/attention-items', { params: { query: { limit: '100' } } })) });
  const resolve = useMutation({
    mutationFn: (id: string) => callData(adminApi.POST('/attention-items/{id}/resolve', { params: { path: { id } }, body: {} })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin'] }),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('supply.attentionItems')}</Title>
      <Stack>
        {[items.error, resolve.error].map((e, i) => (e ? <ErrorAlert key={i} error={e} /> : null))}
        {items.data && items.data.items.length === 0 ? <Text size="sm">{t('supply.noAttentionItems')}</Text> : (
          <DataTable
            caption={t('supply.attentionItems')}
            rows={items.data?.items ?? []}
            rowKey={(i) => i.id}
            columns={[
              { key: 'at', header: t('supply.when'), cell: (i) => formatDateTime(i.created_at, i18n.language) },
              { key: 'kind', header: t('supply.kind'), cell: (i) => (i.kind === 'below_cost' ? t('supply.kind_below_cost') : i.kind) },
              { key: 'summary', header: t('supply.summary'), cell: (i) => i.summary },
              { key: 'x', header: t('actions'), align: 'right', cell: (i) => !may ? null : <Button size="xs" variant="light" loading={resolve.isPending && resolve.variables === i.id} onClick={() => resolve.mutate(i.id)}>{t('supply.resolve')}</Button> },
            ]}
          />
        )}
      </Stack>
    </Card>
  );
}
