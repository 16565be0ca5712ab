import { Button, Card, Group, NativeSelect, Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';
import type { Reseller } from './types.js';

/** The catalogs (price lists) assigned to the reseller; assign another or unassign one. */
export function CatalogsCard({ reseller: r }: { reseller: Reseller }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const all = useQuery({ queryKey: ['admin', 'catalogs'], queryFn: () => callData(adminApi.GET('/catalogs')) });
  const unassigned = (all.data?.catalogs ?? []).filter((c) => !r.catalogs.some((a) => a.id === c.id));
  const [choice, setChoice] = useState('');
  const may = useCan()('resellers.pricing');
  const selected = choice || unassigned[0]?.id || '';
  const change = useMutation({
    mutationFn: (v: { catalogId: string; assign: boolean }) => {
      const params = { path: { id: r.id, catalogId: v.catalogId } };
      return v.assign ? callData(adminApi.POST('/resellers/{id}/catalogs/{catalogId}', { params })) : callData(adminApi.DELETE('/resellers/{id}/catalogs/{catalogId}', { params }));
    },
    onSuccess: () => {
      setChoice('');
      void qc.invalidateQueries({ queryKey: ['admin'] });
    },
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.catalogs')}</Title>
      <Stack>
        <DataTable
          caption={t('resellers.detail.catalogs')}
          rows={r.catalogs}
          rowKey={(c) => c.id}
          columns={[
            { key: 'name', header: t('resellers.detail.catalog'), cell: (c) => c.name },
            { key: 'x', header: t('actions'), align: 'right', cell: (c) => !may ? null : <Button size="xs" variant="light" color="red" aria-label={`${t('resellers.detail.unassign')} ${c.name}`} onClick={() => change.mutate({ catalogId: c.id, assign: false })}>{t('resellers.detail.unassign')}</Button> },
          ]}
        />
        {unassigned.length > 0 && may ? (
          <Group align="flex-end">
            <NativeSelect label={t('resellers.detail.catalog')} value={selected} onChange={(e) => setChoice(e.currentTarget.value)} data={unassigned.map((c) => ({ value: c.id, label: c.name }))} />
            <Button onClick={() => selected && change.mutate({ catalogId: selected, assign: true })} loading={change.isPending}>{t('resellers.detail.assign')}</Button>
          </Group>
        ) : null}
        {change.error ? <ErrorAlert error={change.error} /> : null}
      </Stack>
    </Card>
  );
}
