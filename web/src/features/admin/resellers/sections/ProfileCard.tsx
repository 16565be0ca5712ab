import { Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { useLoadedForm } from '../../../../shared/forms/useLoadedForm.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import type { Tier } from '../hooks.js';
import { TierSelect } from '../TierSelect.js';
import { useCan } from '../../auth/hooks.js';
import type { Reseller } from './types.js';

/** Profile, tier, approval and suspension. */
export function ProfileCard({ reseller: r }: { reseller: Reseller }) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const qc = useQueryClient();
  const form = useLoadedForm<{ tier: Tier }>({ tier: r.tier });
  const tier = form.value('tier') ?? r.tier;
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const path = { params: { path: { id: r.id } } };
  const change = useMutation({
    mutationFn: (action: 'tier' | 'approve' | 'suspend' | 'reactivate') =>
      action === 'tier' ? callData(adminApi.POST('/resellers/{id}/tier', { ...path, body: { tier } }))
        : action === 'approve' ? callData(adminApi.POST('/resellers/{id}/approve', { ...path, body: { tier } }))
          : action === 'suspend' ? callData(adminApi.POST('/resellers/{id}/suspend', { ...path, body: {} }))
            : callData(adminApi.POST('/resellers/{id}/reactivate', { ...path, body: {} })),
    onSuccess: done,
  });
  const row = (k: string, v: React.ReactNode) => (
    <Table.Tr key={k}><Table.Th scope="row" w="35%">{k}</Table.Th><Table.Td>{v}</Table.Td></Table.Tr>
  );
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.profile')}</Title>
      <Stack>
        <Table>
          <Table.Tbody>
            {row(t('resellers.detail.id'), <Code>{r.id}</Code>)}
            {row(t('resellers.email'), r.email)}
            {row(t('resellers.status'), <StatusBadge status={r.status} />)}
            {row(t('resellers.tier'), t(`resellers.tiers.${r.tier}`))}
            {row(t('resellers.created'), formatDateTime(r.created_at, i18n.language))}
          </Table.Tbody>
        </Table>
        <Group align="flex-end" wrap="wrap">
          <TierSelect label={t('resellers.tier')} value={tier} onChange={(x) => form.set('tier', x)} />
          {r.status === 'pending' ? (can('resellers.accounts') ?
            <Button onClick={() => change.mutate('approve')} loading={change.isPending}>{t('resellers.approvals.approve')}</Button> : null
          ) : can('resellers.pricing') ? (
            <Button variant="default" onClick={() => change.mutate('tier')} loading={change.isPending} disabled={tier === r.tier}>{t('resellers.detail.changeTier')}</Button>
          ) : null}
          {r.status === 'active' && can('resellers.accounts') ? (
            <ConfirmButton label={t('resellers.detail.suspend')} title={t('resellers.detail.suspend')} color="red" size="sm" onConfirm={() => change.mutate('suspend')}>
              <Text size="sm">{t('resellers.detail.suspendText')}</Text>
            </ConfirmButton>
          ) : null}
          {r.status === 'suspended' && can('resellers.accounts') ? (
            <ConfirmButton label={t('resellers.detail.reactivate')} title={t('resellers.detail.reactivate')} color="green" size="sm" onConfirm={() => change.mutate('reactivate')}>
              <Text size="sm">{t('resellers.detail.reactivateText')}</Text>
            </ConfirmButton>
          ) : null}
        </Group>
        {change.error ? <ErrorAlert error={change.error} /> : null}
      </Stack>
    </Card>
  );
}
