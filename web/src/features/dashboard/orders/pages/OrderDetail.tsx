import { Alert, Badge, Button, Card, Code, Group, ScrollArea, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert, QueryState } from '../../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../../shared/ui/StateBadge.js';
import { useMoney } from '../../../../shared/ui/useCurrency.js';
import { useOrder, useResendCallback } from '../hooks.js';
import { useTimelineWords } from '../timeline-words.js';

export default function OrderDetail() {
  const { orderId = '' } = useParams();
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const order = useOrder(orderId);
  const resend = useResendCallback(orderId);
  const words = useTimelineWords();
  const when = (iso: string | null | undefined) => formatDateTime(iso, i18n.language, true);
  return (
    <QueryState query={order}>
      {(o) => (
        <Stack>
          <PageTitle
            actions={
              <Button
                onClick={() => resend.mutate(undefined, { onSuccess: () => notifications.show({ message: t('orders.resent'), color: 'green' }) })}
                loading={resend.isPending}
                disabled={o.status === 'processing'}
              >
                {t('orders.resend')}
              </Button>
            }
          >
            {t('orders.detail', { code: o.order_code })}
          </PageTitle>
          {resend.error ? <ErrorAlert error={resend.error} /> : null}
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('orders.fields')}</Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl">
              {[
                [t('orders.orderId'), <Code key="id">{o.order_id}</Code>],
                [t('orders.code'), o.order_code],
                [t('orders.refId'), o.ref_id],
                [t('orders.state'), <StateBadge key="s" state={o.status} />],
                [t('orders.product'), `${o.product_name} (${o.product_code})`],
                [t('orders.target'), o.target_id],
                [t('orders.zone'), o.zone_id ?? '—'],
                [t('orders.price'), money(o.price)],
                [t('orders.createdAt'), when(o.created_at)],
                [t('orders.completedAt'), when(o.completed_at)],
                [t('orders.serial'), o.serial_number ?? '—'],
                [t('orders.failureCode'), o.failure_code ?? '—'],
                [t('orders.failureReason'), o.failure_reason ?? '—'],
              ].map(([label, value], i) => (
                <Group key={i} gap="xs" wrap="nowrap" align="baseline">
                  <Text component="dt" size="sm" c="dimmed" miw={140}>{label}</Text>
                  <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-all' }}>{value}</Text>
                </Group>
              ))}
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('orders.ledger')}</Title>
            <DataTable
              caption={t('orders.ledger')}
              rows={o.ledger_entries}
              rowKey={(e) => e.id}
              columns={[
                { key: 'at', header: t('orders.time'), cell: (e) => when(e.created_at) },
                { key: 'type', header: t('wallet.type'), cell: (e) => t(`entryTypes.${e.type}`) },
                { key: 'amount', header: t('wallet.amount'), cell: (e) => money(e.amount), align: 'right' },
                { key: 'after', header: t('wallet.balanceAfter'), cell: (e) => money(e.balance_after), align: 'right' },
              ]}
            />
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('orders.timeline')}</Title>
            <Timeline bulletSize={14} lineWidth={2}>
              {o.timeline.map((e, i) => {
                const w = words(e);
                return (
                  <Timeline.Item key={i} title={w.title} data-event={e.event}>
                    <Text size="xs" c="dimmed">{when(e.at)}</Text>
                    <Text size="sm">{w.text}</Text>
                  </Timeline.Item>
                );
              })}
            </Timeline>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('orders.callbacks')}</Title>
            {o.callbacks.length === 0 ? <Alert color="gray">{t('orders.noCallbacks')}</Alert> : null}
            <Stack>
              {o.callbacks.map((round) => (
                <div key={round.callback_id} data-testid="callback-round">
                  <Group gap="xs" mb={4}>
                    <Text fw={600}>{t('orders.round', { round: round.round })}</Text>
                    <Badge variant="light" color={round.status === 'delivered' ? 'green' : round.status === 'failed' ? 'red' : 'gray'}>{t(`orders.deliveryStatus.${round.status}`, { defaultValue: round.status })}</Badge>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>{round.url ?? '—'}</Text>
                  </Group>
                  <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('orders.round', { round: round.round }) }}>
                    <Table withTableBorder striped miw={620}>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{t('orders.attempt')}</Table.Th>
                          <Table.Th>{t('orders.time')}</Table.Th>
                          <Table.Th>{t('orders.httpStatus')}</Table.Th>
                          <Table.Th>{t('orders.duration')}</Table.Th>
                          <Table.Th>{t('orders.response')}</Table.Th>
                          <Table.Th>{t('orders.error')}</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {round.attempt_log.map((a) => (
                          <Table.Tr key={a.attempt}>
                            <Table.Td>{a.attempt}</Table.Td>
                            <Table.Td>{when(a.started_at)}</Table.Td>
                            <Table.Td>{a.http_status ?? '—'}</Table.Td>
                            <Table.Td>{t('orders.ms', { ms: a.duration_ms })}</Table.Td>
                            <Table.Td><Text size="xs" style={{ wordBreak: 'break-all' }}>{a.response_snippet ?? ''}</Text></Table.Td>
                            <Table.Td><Text size="xs">{a.error ?? ''}</Text></Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea>
                </div>
              ))}
            </Stack>
          </Card>
        </Stack>
      )}
    </QueryState>
  );
}
