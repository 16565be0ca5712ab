import { Anchor, Card, Group, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { ApprovalsTable } from './ApprovalsTable.js';

/** The home page's card: what waits for a second operator, with approve/reject for those allowed. */
export function PendingApprovals() {
  const { t } = useTranslation();
  const pending = useQuery({
    queryKey: ['admin', 'approvals', 'pending', 'home'],
    queryFn: () => callData(adminApi.GET('/approvals', { params: { query: { state: 'pending', limit: '10' } } })),
    refetchInterval: 30_000,
  });
  const rows = pending.data?.requests ?? [];
  return (
    <Card withBorder data-testid="pending-approvals">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('approvals.pendingTitle')}</Title>
        <Anchor component={Link} to="/four-eyes">{t('approvals.viewRequests')}</Anchor>
      </Group>
      <ApprovalsTable rows={rows} caption={t('approvals.pendingTitle')} empty={pending.isLoading ? '…' : t('approvals.pendingNone')} />
    </Card>
  );
}
