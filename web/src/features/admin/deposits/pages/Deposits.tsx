import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { IfCan } from '../../auth/Permitted.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { GatewayPayments } from '../GatewayPayments.js';
import { StatementCard } from '../StatementCard.js';
import { TicketsCard } from '../TicketsCard.js';
import { UnmatchedCard } from '../UnmatchedCard.js';

/** Money in: what is open, what came in today, unmatched money, statement import, gateway payments. */
export default function Deposits() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const summary = useQuery({ queryKey: ['admin', 'deposits', 'summary'], queryFn: () => callData(adminApi.GET('/deposits/summary')) });
  const s = summary.data;
  const tile = (label: string, value: string, testid?: string) => (
    <Card withBorder>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text fz={22} fw={700} data-testid={testid}>{value}</Text>
    </Card>
  );
  return (
    <>
      <PageTitle>{t('deposits.title')}</PageTitle>
      <Stack>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {tile(t('deposits.open'), s ? String(s.open) : '…')}
          {tile(t('deposits.review'), s ? String(s.review) : '…')}
          {tile(t('deposits.unmatched'), s ? String(s.unmatched) : '…')}
          {tile(t('deposits.today'), s ? (s.today.length ? s.today.map((x) => `${t(`deposits.channels.${x.channel}`, { defaultValue: x.channel })}: ${money(x.amount)} (${x.count})`).join(' · ') : t('deposits.none')) : '…', 'deposits-today')}
        </SimpleGrid>
        <TicketsCard />
        <UnmatchedCard />
        <IfCan permission="deposits.manage"><StatementCard /></IfCan>
        <GatewayPayments />
      </Stack>
    </>
  );
}
