import { Anchor, Button, Card, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { fetchResellers, type Tier } from '../hooks.js';
import { TierSelect } from '../TierSelect.js';

/** The pending approvals queue: each shop approved with a tier in one step. */
export default function Approvals() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const { setPage, list } = usePagedList([], ['admin', 'resellers'], fetchResellers, { fixed: { status: 'pending' } });
  const [tiers, setTiers] = useState<Record<string, Tier>>({});
  const approve = useMutation({
    mutationFn: (v: { id: string; tier: Tier }) => callData(adminApi.POST('/resellers/{id}/approve', { params: { path: { id: v.id } }, body: { tier: v.tier } })),
    onSuccess: (r) => {
      notifications.show({ color: 'green', message: t('resellers.approvals.approved', { name: r.name }) });
      void qc.invalidateQueries({ queryKey: ['admin'] });
    },
  });
  return (
    <>
      <PageTitle>{t('resellers.approvals.title')}</PageTitle>
      <Text size="sm" mb="md">{t('resellers.approvals.intro')}</Text>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      {approve.error ? <ErrorAlert error={approve.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('resellers.approvals.title')}
          rows={list.data?.data.resellers ?? []}
          rowKey={(r) => r.id}
          meta={list.data?.meta as never}
          onPage={setPage}
          columns={[
            { key: 'name', header: t('resellers.name'), cell: (r) => <Anchor component={Link} to={`/resellers/${r.id}`}>{r.name}</Anchor> },
            { key: 'email', header: t('resellers.email'), cell: (r) => r.email },
            { key: 'created', header: t('resellers.created'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
            {
              key: 'approve', header: t('actions'),
              cell: (r) => (
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TierSelect label={t('resellers.approvals.approveAs', { name: r.name })} value={tiers[r.id] ?? 'gold'} onChange={(x) => setTiers({ ...tiers, [r.id]: x })} />
                  <Button size="sm" loading={approve.isPending && approve.variables?.id === r.id} onClick={() => approve.mutate({ id: r.id, tier: tiers[r.id] ?? 'gold' })}>
                    {t('resellers.approvals.approve')}
                  </Button>
                </Group>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
