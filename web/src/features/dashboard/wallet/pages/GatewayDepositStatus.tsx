import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { useMoney } from '../../../../shared/ui/useCurrency.js';

const COLORS: Record<string, string> = { open: 'blue', review: 'blue', paid: 'green', failed: 'red', expired: 'gray', cancelled: 'gray', reversed: 'orange' };
const POLL_MS = 3000;

/** Where the gateway sends the browser back: the deposit's state, polled until it is final. */
export default function GatewayDepositStatus() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { depositId = '' } = useParams();
  const deposit = useQuery({
    queryKey: ['gateway-deposit', depositId],
    queryFn: () => callData(dashboardApi.GET('/gateway-deposits/{id}', { params: { path: { id: depositId } } })),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'open' && q.state.data.state !== 'review' ? false : POLL_MS),
  });
  return (
    <>
      <PageTitle>{t('gateway.statusTitle', { id: depositId })}</PageTitle>
      <QueryState query={deposit}>
        {(d) => (
          <Stack>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Text fw={700} fz="lg">{money(d.amount)}</Text>
                <Badge color={COLORS[d.state] ?? 'gray'} variant="light" data-testid="deposit-state">{t(`gateway.states.${d.state}`)}</Badge>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <div><Text size="xs" c="dimmed">{t('gateway.fee')}</Text><Text size="sm">{money(d.fee)}</Text></div>
                <div><Text size="xs" c="dimmed">{t('gateway.total')}</Text><Text size="sm">{money(d.payable)}</Text></div>
                <div>
                  <Text size="xs" c="dimmed">{d.paid_at ? t('gateway.paidAt') : t('gateway.expiresAt')}</Text>
                  <Text size="sm">{formatDateTime(d.paid_at ?? d.expires_at, i18n.language)}</Text>
                </div>
              </SimpleGrid>
            </Card>
            <div role="status" aria-live="polite">
              {d.state === 'open' || d.state === 'review' ? <Alert color="blue">{t('gateway.waiting')}</Alert> : null}
              {d.state === 'paid' ? <Alert color="green">{t('gateway.credited', { amount: money(d.amount) })}</Alert> : null}
              {d.state === 'reversed' ? <Alert color="orange">{t('gateway.reversed')}</Alert> : null}
              {['failed', 'expired', 'cancelled'].includes(d.state) ? <Alert color="gray">{t('gateway.notPaid')}</Alert> : null}
            </div>
            <Group>
              {d.state === 'open' && d.redirect_url ? <Button component="a" href={d.redirect_url}>{t('gateway.continuePayment')}</Button> : null}
              {['failed', 'expired', 'cancelled'].includes(d.state) ? <Button component={Link} to="/wallet/top-up?channel=gateway">{t('gateway.newPayment')}</Button> : null}
              <Anchor component={Link} to="/wallet">{t('gateway.toWallet')}</Anchor>
            </Group>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
